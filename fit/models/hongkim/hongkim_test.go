package hongkim

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/gpus"
	seed "github.com/uniperf/uniperf/fit/hongkim"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/analytic"
	"github.com/uniperf/uniperf/fit/models/modeltest"
)

// TestHongKimInputs checks the per-thread inputs of library kernels
// against counts derived by hand from their .knl text.
func TestHongKimInputs(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil)}
	cases := []struct {
		name, device, kernel string
		consts, params       map[string]int64
		want                 seed.Kernel
	}{
		// z = 2.5 x + 1.5 y: one add, two muls, two unit-stride loads and
		// a store per work-item; 1024 work-items in 4 groups of 256 (8
		// warps: 24/8 = 3 blocks per SM on compute capability 1.0).
		{"vector_scale_add", "quadro-fx5600", "vector_scale_add", map[string]int64{"LX": 256, "STRIDE": 1}, map[string]int64{"n": 1024},
			seed.Kernel{ThreadsPerBlock: 256, Blocks: 4, ActiveBlocksPerSM: 3, CompInsts: 3, CoalMemInsts: 3, LoadBytesPerWarp: 128}},
		// b[2i] = a[2i]: a stride-2 load and store per work-item, 1024
		// work-items; 32 work-items span 32·2·4 = 256 bytes, two 128-byte
		// segments. GTX280 (1.3): 8 warps, 32/8 = 4 blocks.
		{"stride 2", "gtx280", "global_copy_strided", map[string]int64{"LX": 256, "STRIDE": 2}, map[string]int64{"n": 2048},
			seed.Kernel{ThreadsPerBlock: 256, Blocks: 4, ActiveBlocksPerSM: 4, UncoalMemInsts: 2, UncoalPerMW: 2, LoadBytesPerWarp: 128}},
		// Stride 3: 384 bytes, three segments; ⌈3072/3⌉ = 1024 work-items.
		{"stride 3", "gtx280", "global_copy_strided", map[string]int64{"LX": 256, "STRIDE": 3}, map[string]int64{"n": 3072},
			seed.Kernel{ThreadsPerBlock: 256, Blocks: 4, ActiveBlocksPerSM: 4, UncoalMemInsts: 2, UncoalPerMW: 3, LoadBytesPerWarp: 128}},
		// b[j, i] = a[i, j], i on l.0: a unit-stride load and a store of
		// stride n (class >4), one transaction per work-item: 32. 16x16
		// groups of an n x n grid: 64/16 squared = 16 groups.
		{"transpose", "gtx280", "transpose_read_coalesced", map[string]int64{"LX": 16, "LY": 16}, map[string]int64{"n": 64},
			seed.Kernel{ThreadsPerBlock: 256, Blocks: 16, ActiveBlocksPerSM: 4, CoalMemInsts: 1, UncoalMemInsts: 1, UncoalPerMW: 32, LoadBytesPerWarp: 128}},
		// The 8800 GTX's uncoalesced accesses are 32 transactions (its
		// file's uncoal_per_mw), so the kernel gives none.
		{"device transactions", "8800gtx", "global_copy_strided", map[string]int64{"LX": 256, "STRIDE": 2}, map[string]int64{"n": 2048},
			seed.Kernel{ThreadsPerBlock: 256, Blocks: 4, ActiveBlocksPerSM: 3, UncoalMemInsts: 2, LoadBytesPerWarp: 128}},
		// The H100 file gives 32-byte sectors: a warp access moves every
		// sector it touches. b[s·i] = a[s·i] with 1024 work-items, 8 warps
		// per group, 64/8 = 8 groups per SM. Stride 1: 32·4 = 128 bytes,
		// four sectors, coalesced. Stride 2: 256 bytes, 8 sectors. Stride
		// 3: 384 bytes, 12 sectors. Stride 32 (class >4): one sector per
		// work-item, 32·32 = 1024 bytes. (The paper's rule, warp width
		// times element size, gives 128 bytes in every case.)
		{"H100 stride 1", "h100-sxm5", "global_copy_strided", map[string]int64{"LX": 256, "STRIDE": 1}, map[string]int64{"n": 1024},
			seed.Kernel{ThreadsPerBlock: 256, Blocks: 4, ActiveBlocksPerSM: 8, CoalMemInsts: 2, LoadBytesPerWarp: 128}},
		{"H100 stride 2", "h100-sxm5", "global_copy_strided", map[string]int64{"LX": 256, "STRIDE": 2}, map[string]int64{"n": 2048},
			seed.Kernel{ThreadsPerBlock: 256, Blocks: 4, ActiveBlocksPerSM: 8, UncoalMemInsts: 2, UncoalPerMW: 8, LoadBytesPerWarp: 256}},
		{"H100 stride 3", "h100-sxm5", "global_copy_strided", map[string]int64{"LX": 256, "STRIDE": 3}, map[string]int64{"n": 3072},
			seed.Kernel{ThreadsPerBlock: 256, Blocks: 4, ActiveBlocksPerSM: 8, UncoalMemInsts: 2, UncoalPerMW: 12, LoadBytesPerWarp: 384}},
		{"H100 stride 32", "h100-sxm5", "global_copy_strided", map[string]int64{"LX": 256, "STRIDE": 32}, map[string]int64{"n": 32768},
			seed.Kernel{ThreadsPerBlock: 256, Blocks: 4, ActiveBlocksPerSM: 8, UncoalMemInsts: 2, UncoalPerMW: 32, LoadBytesPerWarp: 1024}},
		// Tiled matmul, n = m = ell = 64 with 16x16 tiles: each work-item
		// runs m/16 = 4 k-tiles, in each storing one element of ta and one
		// of tb from two unit-stride global loads between two barriers, then
		// 16 multiply-adds on local elements and one add to acc: 64 muls,
		// 64 + 4 = 68 adds, 128 local loads, 8 local stores, 8 barriers, 8
		// global loads, and one store of c. 2 KiB of local tiles; 8 warps:
		// 24/8 = 3 blocks per SM.
		{"matmul_tiled", "8800gtx", "matmul_tiled", nil, map[string]int64{"n": 64, "m": 64, "ell": 64},
			seed.Kernel{ThreadsPerBlock: 256, Blocks: 16, ActiveBlocksPerSM: 3, CompInsts: 68 + 64 + 128 + 8 + 8, CoalMemInsts: 9, SynchInsts: 8, LoadBytesPerWarp: 128}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := modeltest.Device(t, c.device)
			in := modeltest.Inputs(t, env, c.kernel, c.consts, c.params)
			fixed, err := d.HongKimFixedParams()
			if err != nil {
				t.Fatal(err)
			}
			k, err := hongKimKernel(d, fixed, in, 0)
			if err != nil {
				t.Fatal(err)
			}
			if k != c.want {
				t.Errorf("got  %+v\nwant %+v", k, c.want)
			}
		})
	}
}

// TestHongKimTable2 runs the paper's worked example (§3.6, Table 2) through
// the adapter: the tiled matrix multiplication's per-thread counts (27
// computation instructions of which 6 are barriers, 6 uncoalesced loads)
// as totals over <<<80, 128>>>, on the FX5600 file with the example's 1
// GHz clock and 80 GB/s. The paper's figures: MWP 2.28, CWP 20,
// Exec_cycles_app 38450, total 50738 (the tolerances are those of
// fit/hongkim's TestTable2: the paper rounds MWP to 2.28).
func TestHongKimTable2(t *testing.T) {
	const threads = 80 * 128
	d := modeltest.Device(t, "quadro-fx5600")
	d.ClockHz, d.MemBandwidth = 1e9, 80e9
	in := &models.Inputs{
		Kernel: &counts.Kernel{Name: "matmul (Hong and Kim, Figure 12)"},
		Counts: map[string]int64{
			"flop.f32.add":                  21 * threads,
			"sync.barrier":                  6 * threads,
			"global.load.f32.stride=1/>4":   6 * threads,
			"global.minldst.f32.stride=1/1": 5 * threads, // a linear-model term, no instruction
			"launch.groups":                 80,
		},
		Global: [3]int64{threads, 1, 1},
		Local:  [3]int64{128, 1, 1},
	}
	fixed, err := d.HongKimFixedParams()
	if err != nil {
		t.Fatal(err)
	}
	k, err := hongKimKernel(d, fixed, in, 0)
	if err != nil {
		t.Fatal(err)
	}
	r, err := seed.Predict(hongKimMachine(d, fixed, Memory{420, 4, 10}), k)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name           string
		got, want, tol float64
	}{
		{"#Active_blocks_per_SM", r.ActiveBlocksPerSM, 5, 0},
		{"MWP", r.MWP, 2.28, 0.005},
		{"CWP", r.CWP, 20, 0},
		{"Exec_cycles_app", r.ExecCyclesApp, 38450, 84 + 5},
		{"Exec_cycles_with_synch", r.ExecCycles, 50738, 132 + 5},
	} {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("%s = %.6g, paper %g", c.name, c.got, c.want)
		}
	}
}

// TestHongKimCalibrateRecovery times library kernels with Hong–Kim
// itself at known memory parameters and checks that calibration finds
// them again, from Table 6's values as the start. The parameters are
// chosen so that each one shapes some row: Mem_LD/Departure_del_coal =
// 12.5 is below the FX5600's bandwidth limit (76.8e9 / (1.35e9·128/500 ·
// 16) = 13.9 warps) and its 24 warps, and the uncoalesced rows are limited
// by Departure_del_uncoal (MWP = (500 + 31·15)/(32·15) = 2.01).
func TestHongKimCalibrateRecovery(t *testing.T) {
	d := modeltest.Device(t, "quadro-fx5600")
	d.HongKim.MemLD, d.HongKim.DepartureDelCoal, d.HongKim.DepartureDelUncoal = 0, 0, 0 // nothing to start from
	truth := Memory{MemLD: 500, DepartureDelCoal: 40, DepartureDelUncoal: 15}
	env := &models.Env{Counter: models.NewCounter(nil), Device: d}
	fixed, err := d.HongKimFixedParams()
	if err != nil {
		t.Fatal(err)
	}
	var rows []models.Row
	add := func(kernel string, consts, params map[string]int64) {
		in := modeltest.Inputs(t, env, kernel, consts, params)
		k, err := hongKimKernel(d, fixed, in, 0)
		if err != nil {
			t.Fatal(err)
		}
		r, err := seed.Predict(hongKimMachine(d, fixed, truth), k)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, models.Row{Row: datasets.Row{Kernel: kernel, Class: kernel, Role: datasets.RoleMeasurement, Consts: consts, Params: params, TimeS: r.Seconds}})
	}
	for _, lx := range []int64{64, 128, 256} {
		for _, n := range []int64{1 << 14, 1 << 18} {
			add("global_copy", map[string]int64{"LX": lx}, map[string]int64{"n": n})
			add("vector_scale_add", map[string]int64{"LX": lx, "STRIDE": 1}, map[string]int64{"n": n})
			add("global_copy_strided", map[string]int64{"LX": lx, "STRIDE": 2}, map[string]int64{"n": n})
		}
	}
	add("matmul_tiled", nil, map[string]int64{"n": 128, "m": 128, "ell": 128})
	add("transpose_read_coalesced", map[string]int64{"LX": 16, "LY": 16}, map[string]int64{"n": 256})

	m := &Model{}
	if err := m.Calibrate(env, rows); err != nil {
		t.Fatal(err)
	}
	for _, p := range memParams {
		got, want := *p.at(&m.Memory), *p.at(&truth)
		if math.Abs(got-want) > 1e-3*want {
			t.Errorf("%s = %g, want %g", p.name, got, want)
		}
	}
	if c := m.Fit; c.Rows != len(rows) || c.Start != hongKimStart || c.RMSRelativeError > 1e-6 || len(c.AtBound)+len(c.Held) > 0 {
		t.Errorf("calibration %+v", c)
	}
	p, err := m.Predict(env, models.CaseOf(rows[0]))
	if err != nil || math.Abs(p.Seconds-rows[0].TimeS) > 1e-6*rows[0].TimeS || len(p.Explain) == 0 {
		t.Errorf("prediction %v (%v), measured %g", p, err, rows[0].TimeS)
	}
}

// TestHongKimHeldParameters: rows without uncoalesced accesses cannot
// determine Departure_del_uncoal, which stays at its start.
func TestHongKimHeldParameters(t *testing.T) {
	d := modeltest.Device(t, "quadro-fx5600")
	env := &models.Env{Counter: models.NewCounter(nil), Device: d}
	rows := []models.Row{
		{Row: datasets.Row{Kernel: "global_copy", Consts: map[string]int64{"LX": 256}, Params: map[string]int64{"n": 1 << 16}, TimeS: 1e-4}},
		{Row: datasets.Row{Kernel: "global_copy", Consts: map[string]int64{"LX": 256}, Params: map[string]int64{"n": 1 << 18}, TimeS: 3e-4}},
		{Row: datasets.Row{Kernel: "empty", Consts: map[string]int64{"LX": 16, "LY": 16}, Params: map[string]int64{"n": 256}, TimeS: 1e-5}},
	}
	m := &Model{}
	if err := m.Calibrate(env, rows); err != nil {
		t.Fatal(err)
	}
	c := m.Fit
	if len(c.Held) != 1 || c.Held[0] != "departure_del_uncoal" || m.Memory.DepartureDelUncoal != 10 {
		t.Errorf("held %v, Departure_del_uncoal %g", c.Held, m.Memory.DepartureDelUncoal)
	}
	if len(c.Skipped) != 1 || !strings.Contains(c.Skipped[0], "empty") || c.Rows != 2 {
		t.Errorf("skipped %v, rows %d", c.Skipped, c.Rows)
	}
}

func TestHongKimErrors(t *testing.T) {
	counter := models.NewCounter(nil)
	row := models.Row{Row: datasets.Row{Kernel: "global_copy", Consts: map[string]int64{"LX": 256}, Params: map[string]int64{"n": 4096}, TimeS: 1e-5}}
	var missing *gpus.MissingError

	if err := (&Model{}).Calibrate(&models.Env{Counter: counter}, []models.Row{row}); err == nil || !strings.Contains(err.Error(), "needs a device parameter file") {
		t.Errorf("no device: %v", err)
	}
	err := (&Model{}).Calibrate(&models.Env{Counter: counter, Device: modeltest.Device(t, "gtx970")}, []models.Row{row})
	if !errors.As(err, &missing) || !strings.Contains(err.Error(), "devices/gtx970.json has no hongkim section") {
		t.Errorf("GTX 970: %v", err)
	}
	pocl := modeltest.Device(t, "pocl-cpu")
	// Without rows the parameters come from the file, which has none.
	err = (&Model{}).Calibrate(&models.Env{Counter: counter, Device: pocl}, nil)
	if !errors.As(err, &missing) || missing.Field != "hongkim.mem_ld" || !strings.Contains(err.Error(), "pocl-cpu.json") {
		t.Errorf("PoCL without rows: %v", err)
	}
	pocl.HongKim.IssueCycles = 0
	err = (&Model{}).Calibrate(&models.Env{Counter: counter, Device: pocl}, []models.Row{row})
	if !errors.As(err, &missing) || missing.Field != "hongkim.issue_cycles" {
		t.Errorf("PoCL without issue cycles: %v", err)
	}

	fx := &models.Env{Counter: counter, Device: modeltest.Device(t, "quadro-fx5600")}
	m := &Model{}
	if _, err := m.Predict(fx, models.CaseOf(row)); err == nil || !strings.Contains(err.Error(), "not calibrated") {
		t.Errorf("uncalibrated: %v", err)
	}
	if err := m.Calibrate(fx, nil); err != nil || m.Memory != (Memory{420, 4, 10}) {
		t.Fatalf("from the file: %+v, %v", m.Memory, err)
	}
	if _, err := m.Predict(&models.Env{Counter: counter, Device: modeltest.Device(t, "gtx280")}, models.CaseOf(row)); err == nil || !strings.Contains(err.Error(), "calibrated for Quadro FX 5600") {
		t.Errorf("another device: %v", err)
	}
	// A work-group larger than the device allows.
	big := models.Case{Kernel: "global_copy", Consts: map[string]int64{"LX": 1024}, Params: map[string]int64{"n": 4096}}
	if _, err := m.Predict(fx, big); err == nil || !strings.Contains(err.Error(), "1024 threads per block exceed") {
		t.Errorf("oversized group: %v", err)
	}
	if _, err := m.Predict(fx, models.Case{Kernel: "empty", Params: map[string]int64{"n": 64}}); !errors.Is(err, models.ErrNoWork) {
		t.Errorf("empty kernel: %v", err)
	}
}

// TestPerThreadIsDeterministic derives the per-thread counts of a kernel
// with many properties again and again: the sums must agree to the last
// bit, or a model fitted to them (Hong–Kim's search) differs from run to
// run. Go randomises the order of map iteration, so a sum in map order
// shows up here.
func TestPerThreadIsDeterministic(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "gtx280")}
	in := modeltest.Inputs(t, env, "finite_diff", map[string]int64{"LX": 16, "LY": 16}, map[string]int64{"n": 1000})
	first, err := analytic.PerThreadOf(in)
	if err != nil {
		t.Fatal(err)
	}
	for range 200 {
		p, err := analytic.PerThreadOf(in)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(p, first) {
			t.Fatalf("per-thread counts differ between two derivations:\n%+v\n%+v", first, p)
		}
	}
}

// TestHierarchyTraffic checks TrafficHierarchy's memory instructions by
// hand on matmul_naive at n = 64 on the H100 (L1 256 KiB per SM, L2 50
// MiB). A work-item loads a row of a and a column of b, 2·64 loads, and
// stores one element of c: 129 accesses of 4 bytes, all coalesced (a[i,k]
// is one address across a warp, b[k,j] and c[i,j] consecutive), and the
// launch 64·64·129·4 = 2113536 bytes. The three 64×64 arrays, 49152
// bytes, fit the L2, so DRAM moves each once: a share of 49152/2113536 =
// 1/43 of the accesses, 3 per thread, are memory instructions, and the
// other 126 issue as computation instructions. Under TrafficPaper all 129
// are memory instructions.
func TestHierarchyTraffic(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "h100-sxm5")}
	d, fixed, err := hongKimDevice(env)
	if err != nil {
		t.Fatal(err)
	}
	c := models.Case{Kernel: "matmul_naive", Consts: map[string]int64{"LX": 16, "LY": 16}, Params: map[string]int64{"n": 64}}
	pl, err := launchKernel(env, d, fixed, c, 0, TrafficPaper)
	if err != nil {
		t.Fatal(err)
	}
	hl, err := launchKernel(env, d, fixed, c, 0, TrafficHierarchy)
	if err != nil {
		t.Fatal(err)
	}
	if pl.dram != 1 || !modeltest.RelClose(hl.dram, 1.0/43, 1e-12) {
		t.Errorf("DRAM shares %g (paper) and %g (hierarchy), want 1 and 1/43", pl.dram, hl.dram)
	}
	paper, hier := pl.k, hl.k
	if paper.CoalMemInsts != 129 || paper.UncoalMemInsts != 0 {
		t.Errorf("paper: %g coalesced and %g uncoalesced accesses per thread, want 129 and 0", paper.CoalMemInsts, paper.UncoalMemInsts)
	}
	if !modeltest.RelClose(hier.CoalMemInsts, 3, 1e-12) || hier.UncoalMemInsts != 0 {
		t.Errorf("hierarchy: %g coalesced and %g uncoalesced accesses per thread, want 3 and 0", hier.CoalMemInsts, hier.UncoalMemInsts)
	}
	if got := hier.CompInsts - paper.CompInsts; !modeltest.RelClose(got, 126, 1e-12) {
		t.Errorf("hierarchy: %g more computation instructions than the paper's traffic, want 126", got)
	}
	if hier.LoadBytesPerWarp != paper.LoadBytesPerWarp {
		t.Errorf("bytes per warp access %g, the paper's %g: the traffic option changes how many accesses, not their size", hier.LoadBytesPerWarp, paper.LoadBytesPerWarp)
	}
}
