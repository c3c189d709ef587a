package xu

import (
	"math"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit/gpus"
)

// occ is an occupancy of 2 blocks of 4 warps per SM.
var occ = gpus.Occupancy{BlocksPerSM: 2, WarpsPerBlock: 4, ActiveWarps: 8}

func TestExecTimeCovered(t *testing.T) {
	// N_w·T_C = 8·100 = 800 ≥ T_M = 400: covered. T_Mem_n = 400/4 = 100;
	// per group 100 + 800 = 900; N_GOB = 64/(2·4) = 8; total 7200.
	e, err := ExecTime(Kernel{WarpCompute: 100, WarpMemory: 400, MemAccesses: 4, Blocks: 64}, occ, 4)
	if err != nil {
		t.Fatal(err)
	}
	if !e.Covered || e.Equation != "3-22" || e.Rounds != 8 || e.LastMemory != 100 || e.PerRound != 900 || e.Total != 7200 {
		t.Errorf("got %+v", e)
	}
}

func TestExecTimeUncovered(t *testing.T) {
	// N_w·T_C = 8·20 = 160 < 400: not covered. T_Cn = 20/4 = 5; per group
	// 400 + 20 + 5·(8−1) = 455; total 455·8 = 3640.
	e, err := ExecTime(Kernel{WarpCompute: 20, WarpMemory: 400, MemAccesses: 4, Blocks: 64}, occ, 4)
	if err != nil {
		t.Fatal(err)
	}
	if e.Covered || e.Equation != "4-5" || e.ComputePeriod != 5 || e.PerRound != 455 || e.Total != 3640 {
		t.Errorf("got %+v", e)
	}
	if !strings.Contains(e.Explain(), "not covered") {
		t.Errorf("explanation lacks the case:\n%s", e.Explain())
	}
}

// With one warp per SM the two cases must agree on a serial warp: memory
// plus computation, no overlap.
func TestExecTimeOneWarpIsSerial(t *testing.T) {
	one := gpus.Occupancy{BlocksPerSM: 1, WarpsPerBlock: 1, ActiveWarps: 1}
	e, err := ExecTime(Kernel{WarpCompute: 30, WarpMemory: 400, MemAccesses: 2, Blocks: 3}, one, 3)
	if err != nil {
		t.Fatal(err)
	}
	if e.Total != 430 {
		t.Errorf("serial warp: total %g, want 430", e.Total)
	}
}

func TestExecTimeComputeOnly(t *testing.T) {
	e, err := ExecTime(Kernel{WarpCompute: 50, Blocks: 8}, occ, 4)
	if err != nil {
		t.Fatal(err)
	}
	if !e.Covered || e.PerRound != 400 || e.Total != 400 {
		t.Errorf("got %+v, want 8 warps × 50 in one round", e)
	}
}

func TestExecTimeErrors(t *testing.T) {
	for _, c := range []struct {
		k    Kernel
		sms  int
		want string
	}{
		{Kernel{WarpCompute: 1, WarpMemory: 5, Blocks: 1}, 1, "no memory accesses"},
		{Kernel{WarpCompute: math.NaN(), Blocks: 1}, 1, "finite"},
		{Kernel{WarpCompute: 1}, 1, "number of blocks"},
		{Kernel{WarpCompute: 1, Blocks: 1}, 0, "SM count"},
	} {
		if _, err := ExecTime(c.k, occ, c.sms); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.k, err, c.want)
		}
	}
}

func TestWarpMemoryTime(t *testing.T) {
	// 3 uncoalesced accesses of 730 cycles and 1 coalesced of 420, half
	// the data reused: 0.5·(2190 + 420) = 1305.
	got, err := WarpMemoryTime(3, 1, 730, 420, 0.5)
	if err != nil || got != 1305 {
		t.Errorf("got %g, %v; want 1305", got, err)
	}
	if _, err := WarpMemoryTime(-1, 0, 1, 1, 1); err == nil {
		t.Error("negative count accepted")
	}
}
