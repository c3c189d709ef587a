package hongkim

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit/gpus"
)

// table2 is the paper's §3.6 example: a machine with 80 GB/s, 1 GHz and 16
// SMs, the FX5600 memory parameters of Table 6, and the tiled matrix
// multiplication of Figures 12 and 13 launched as <<<80, 128>>> with 5
// active blocks per SM.
func table2() (Machine, Kernel) {
	m := Machine{ThreadsPerWarp: 32, IssueCycles: 4, Freq: 1e9, MemBandwidth: 80e9, MemLD: 420,
		DepartureDelCoal: 4, DepartureDelUncoal: 10, SMs: 16, UncoalPerMW: 32}
	k := Kernel{ThreadsPerBlock: 128, Blocks: 80, ActiveBlocksPerSM: 5, CompInsts: 27, UncoalMemInsts: 6,
		SynchInsts: 6, LoadBytesPerWarp: 128}
	return m, k
}

// TestTable2 reproduces the paper's Table 2.
//
// The paper prints intermediate values rounded (MWP = 2.28, BW_per_warp =
// 0.175 GB/s) and computes the later rows from the rounded values, while we
// carry full precision (MWP = 730/320 = 2.28125). The tolerance of each row
// is the effect of that rounding, propagated:
//
//   - MWP rounded to 0.005: Exec_cycles_app = Mem_cycles·N/MWP +
//     Comp_p·(MWP−1) moves by |−4380·20/2.28² + 132/6| ≈ 16829 cycles per
//     unit of MWP, so 84 cycles; Synch_cost = 320·(MWP−1)·6·5 moves by
//     9600 per unit, 48 cycles; the final time by their sum, 132 cycles.
//   - The paper's final figures are printed to four significant digits
//     (4380·20/2.28 + 22·1.28 = 38449.2 is printed 38450): 5 cycles more.
//   - BW_per_warp rounded from 0.17534 to 0.175 GB/s moves MWP_peak_BW =
//     80/(BW·16) by 0.2%, 0.06.
func TestTable2(t *testing.T) {
	m, k := table2()
	r, err := Predict(m, k)
	if err != nil {
		t.Fatal(err)
	}
	rows := []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"#Active_warps_per_SM", r.N, 20, 0},
		{"Departure_delay", r.DepartureDelay, 320, 0},
		{"Mem_L", r.MemL, 730, 0},
		{"MWP_without_BW_full", r.MWPWithoutBWFull, 2.28, 0.005},
		{"BW_per_warp (GB/s)", r.BWPerWarp / 1e9, 0.175, 0.0005},
		{"MWP_peak_BW", r.MWPPeakBW, 28.57, 0.06},
		{"MWP", r.MWP, 2.28, 0.005},
		{"Comp_cycles", r.CompCycles, 132, 0},
		{"Mem_cycles", r.MemCycles, 4380, 0},
		{"CWP_full", r.CWPFull, 34.18, 0.005},
		{"CWP", r.CWP, 20, 0},
		{"#Rep", r.Rep, 1, 0},
		{"Exec_cycles_app", r.ExecCyclesApp, 38450, 84 + 5},
		{"Synch_cost", r.SynchCost, 12288, 48},
		{"Final Time", r.ExecCycles, 50738, 132 + 5},
	}
	for _, row := range rows {
		if math.Abs(row.got-row.want) > row.tol {
			t.Errorf("%s = %.6g, paper %g (tolerance %g)", row.name, row.got, row.want, row.tol)
		}
	}
	if r.Equation != 23 {
		t.Errorf("equation %d, paper uses (23) because CWP > MWP", r.Equation)
	}
	// Full precision: 4380·20/2.28125 + 22·1.28125 and 320·1.28125·30.
	if want := 38400 + 28.1875; r.ExecCyclesApp != want {
		t.Errorf("Exec_cycles_app = %v, want exactly %v", r.ExecCyclesApp, want)
	}
	if r.SynchCost != 12300 {
		t.Errorf("Synch_cost = %v, want exactly 12300", r.SynchCost)
	}
	if r.Seconds != r.ExecCycles/1e9 {
		t.Errorf("seconds %g", r.Seconds)
	}
}

// TestTable2RoundedMWP feeds the paper's rounded MWP = 2.28 to the case
// equations and synchronization cost: the paper's own arithmetic.
func TestTable2RoundedMWP(t *testing.T) {
	r := Result{N: 20, Rep: 1, MemInsts: 6, MemCycles: 4380, CompCycles: 132, MWP: 2.28, CWP: 20,
		DepartureDelay: 320, ActiveBlocksPerSM: 5, MemL: 730}
	r.execCyclesApp()
	r.synchCost(6)
	if r.Equation != 23 || math.Abs(r.ExecCyclesApp-38450) > 1 {
		t.Errorf("(%d) Exec_cycles_app = %.2f, paper 38450", r.Equation, r.ExecCyclesApp)
	}
	if math.Abs(r.SynchCost-12288) > 1e-9 {
		t.Errorf("Synch_cost = %.2f, paper 12288", r.SynchCost)
	}
}

func TestCaseRule(t *testing.T) {
	t.Run("22: one warp is serial", func(t *testing.T) {
		// N = 1 caps MWP and CWP at 1: Mem_cycles + Comp_cycles, the
		// paper's Case 6.
		m, k := table2()
		k.ThreadsPerBlock, k.Blocks, k.ActiveBlocksPerSM, k.SynchInsts = 32, 16, 1, 0
		r, err := Predict(m, k)
		if err != nil {
			t.Fatal(err)
		}
		if r.Equation != 22 || r.ExecCyclesApp != 4380+132 {
			t.Errorf("(%d) %g, want (22) 4512", r.Equation, r.ExecCyclesApp)
		}
	})
	t.Run("24: MWP above CWP", func(t *testing.T) {
		// Coalesced: Mem_L = 420, departure 4, MWP_without_BW = 105 → N =
		// 20; MWP_peak_BW = 80e9/(1e9·128/420·16) = 16.40625. Comp_cycles =
		// 4·(40+6) = 184, Mem_cycles = 2520, CWP = 2704/184 = 14.7 < MWP.
		// (24): 420 + 184·20 = 4100.
		m, k := table2()
		k.CompInsts, k.UncoalMemInsts, k.CoalMemInsts, k.SynchInsts = 40, 0, 6, 0
		r, err := Predict(m, k)
		if err != nil {
			t.Fatal(err)
		}
		if r.MWP != 16.40625 || r.Equation != 24 || r.ExecCyclesApp != 4100 {
			t.Errorf("MWP %g, (%d) %g; want 16.40625, (24) 4100", r.MWP, r.Equation, r.ExecCyclesApp)
		}
	})
	t.Run("24: computation dominates although CWP >= MWP", func(t *testing.T) {
		// Departure_del_uncoal 20: Mem_L = 420 + 31·20 = 1040, departure
		// delay 640, MWP = 1.625. Comp_cycles = 4·1706 = 6824 > Mem_cycles
		// = 6240, CWP = 13064/6824 = 1.914 >= MWP. The printed condition
		// of (23) holds, but §3.2.2 Case 5 gives (24): 1040 + 6824·20.
		m, k := table2()
		m.DepartureDelUncoal = 20
		k.CompInsts, k.SynchInsts = 1700, 0
		r, err := Predict(m, k)
		if err != nil {
			t.Fatal(err)
		}
		if r.MWP != 1.625 || !(r.CWP >= r.MWP) || r.Equation != 24 || r.ExecCyclesApp != 1040+6824*20 {
			t.Errorf("MWP %g CWP %g (%d) %g; want (24) %d", r.MWP, r.CWP, r.Equation, r.ExecCyclesApp, 1040+6824*20)
		}
		// The SM must at least issue every warp's computation.
		if r.ExecCyclesApp < r.N*r.CompCycles*r.Rep {
			t.Errorf("prediction %g below the issue bound %g", r.ExecCyclesApp, r.N*r.CompCycles*r.Rep)
		}
		if r.BandwidthGuard {
			t.Errorf("the guard fired at MWP %g >= 1", r.MWP)
		}
	})
	t.Run("23 over 24: MWP below one", func(t *testing.T) {
		// 1 GB/s: BW_per_warp = 1e9·128/420, MWP_peak_BW = 1e9/(BW_per_warp
		// ·16) = 420/2048 = 0.205078125. Comp_cycles = 4·1006 = 4024 >
		// Mem_cycles = 420·6 = 2520, so rule 2 gives (24): 420 + 4024·20 =
		// 80900. But the 16 SMs' 20 warps move 6·128 bytes each, 245760
		// bytes, which take 245760 cycles at 1 GB/s and 1 GHz: (23),
		// 2520·20/0.205078125 = 245760.
		m, k := table2()
		m.MemBandwidth = 1e9
		k.CompInsts, k.UncoalMemInsts, k.CoalMemInsts, k.SynchInsts = 1000, 0, 6, 0
		r, err := Predict(m, k)
		if err != nil {
			t.Fatal(err)
		}
		if r.MWP != 0.205078125 || !r.BandwidthGuard || r.Equation != 23 || math.Abs(r.ExecCyclesApp-245760) > 1e-6 {
			t.Errorf("MWP %g guard %v (%d) %g; want 0.205078125, (23) 245760", r.MWP, r.BandwidthGuard, r.Equation, r.ExecCyclesApp)
		}
		if r.Case() != "(23) over (24), MWP < 1" {
			t.Errorf("case %q", r.Case())
		}
	})
}

func TestNoMemoryInstructions(t *testing.T) {
	m, k := table2()
	k.UncoalMemInsts, k.SynchInsts, k.LoadBytesPerWarp = 0, 0, 0
	r, err := Predict(m, k)
	if err != nil {
		t.Fatal(err)
	}
	// 4·27 cycles per warp, 20 warps, one repetition.
	if r.ExecCyclesApp != 108*20 || r.Equation != 24 {
		t.Errorf("(%d) %g, want 2160", r.Equation, r.ExecCyclesApp)
	}
}

func TestBandwidthStarvedMWP(t *testing.T) {
	// 1 GB/s: MWP_peak_BW = 1e9/(1e9·128/730·16) = 0.356 < 1. Mem_cycles·N/MWP
	// stretches the memory time; the (MWP−1) terms are clamped at zero.
	m, k := table2()
	m.MemBandwidth = 1e9
	r, err := Predict(m, k)
	if err != nil {
		t.Fatal(err)
	}
	if want := 730.0 / (128 * 16); math.Abs(r.MWP-want) > 1e-15 {
		t.Fatalf("MWP %g, want %g", r.MWP, want)
	}
	if r.SynchCost != 0 || math.Abs(r.ExecCyclesApp-4380*20/r.MWP) > 1e-6 {
		t.Errorf("synch %g, exec %g", r.SynchCost, r.ExecCyclesApp)
	}
}

func TestSmallGrid(t *testing.T) {
	// 10 blocks on 16 SMs: 10 active SMs with one block each, #Rep 1.
	m, k := table2()
	k.Blocks = 10
	r, err := Predict(m, k)
	if err != nil {
		t.Fatal(err)
	}
	if r.ActiveSMs != 10 || r.ActiveBlocksPerSM != 1 || r.N != 4 || r.Rep != 1 {
		t.Errorf("active SMs %g, blocks %g, N %g, rep %g", r.ActiveSMs, r.ActiveBlocksPerSM, r.N, r.Rep)
	}
}

func TestErrors(t *testing.T) {
	cases := []struct {
		name string
		edit func(*Machine, *Kernel)
		want string
	}{
		{"no bandwidth", func(m *Machine, k *Kernel) { m.MemBandwidth = 0 }, "Mem_Bandwidth"},
		{"NaN latency", func(m *Machine, k *Kernel) { m.MemLD = math.NaN() }, "Mem_LD"},
		{"no blocks", func(m *Machine, k *Kernel) { k.Blocks = 0 }, "#Blocks"},
		{"no occupancy", func(m *Machine, k *Kernel) { k.ActiveBlocksPerSM = 0 }, "#Active_blocks_per_SM"},
		{"negative count", func(m *Machine, k *Kernel) { k.CompInsts = -1 }, "#Comp_insts"},
		{"no bytes per warp", func(m *Machine, k *Kernel) { k.LoadBytesPerWarp = 0 }, "Load_bytes_per_warp"},
		{"unknown uncoal per mw", func(m *Machine, k *Kernel) { m.UncoalPerMW = 0 }, "#Uncoal_per_mw is unknown"},
		{"empty kernel", func(m *Machine, k *Kernel) { *k = Kernel{ThreadsPerBlock: 1, Blocks: 1, ActiveBlocksPerSM: 1} }, "no instructions"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, k := table2()
			c.edit(&m, &k)
			if _, err := Predict(m, k); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
}

func TestMachineFromDevice(t *testing.T) {
	d, err := gpus.Lookup("quadro-fx5600")
	if err != nil {
		t.Fatal(err)
	}
	m, err := MachineFromDevice(d)
	if err != nil {
		t.Fatal(err)
	}
	want := Machine{ThreadsPerWarp: 32, IssueCycles: 4, Freq: 1.35e9, MemBandwidth: 76.8e9, MemLD: 420,
		DepartureDelCoal: 4, DepartureDelUncoal: 10, SMs: 16, UncoalPerMW: 32}
	if m != want {
		t.Errorf("got %+v, want %+v", m, want)
	}

	h100, err := gpus.Lookup("h100-sxm5")
	if err != nil {
		t.Fatal(err)
	}
	var missing *gpus.MissingError
	if _, err := MachineFromDevice(h100); !errors.As(err, &missing) {
		t.Errorf("H100 without Hong–Kim constants: %v", err)
	}

	// The GTX280 leaves #Uncoal_per_mw to the kernel.
	gtx, _ := gpus.Lookup("gtx280")
	m, err = MachineFromDevice(gtx)
	if err != nil {
		t.Fatal(err)
	}
	_, k := table2()
	if _, err := Predict(m, k); err == nil || !strings.Contains(err.Error(), "#Uncoal_per_mw") {
		t.Errorf("GTX280 without a kernel #Uncoal_per_mw: %v", err)
	}
	k.UncoalPerMW = 4
	if _, err := Predict(m, k); err != nil {
		t.Errorf("GTX280 with 4 transactions per warp: %v", err)
	}
}

func TestExplain(t *testing.T) {
	m, k := table2()
	r, err := Predict(m, k)
	if err != nil {
		t.Fatal(err)
	}
	e := r.Explain()
	for _, want := range []string{"MWP", "2.28125", "CWP", "Exec_cycles_app", "(23)", "38428.2", "Synch_cost", "12300"} {
		if !strings.Contains(e, want) {
			t.Errorf("explanation lacks %q:\n%s", want, e)
		}
	}
}

func BenchmarkPredict(b *testing.B) {
	m, k := table2()
	for b.Loop() {
		if _, err := Predict(m, k); err != nil {
			b.Fatal(err)
		}
	}
}
