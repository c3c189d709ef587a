package resios_test

import (
	"math"
	"testing"

	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/resios"
)

// The transpose of ExampleDevice_Predict against what the GTX 460's
// figures give by hand: 256 threads are 8 warps, and 48 warps per SM hold
// 6 such blocks (8 by the block limit; 10 registers a thread take 2560 a
// block, 12 blocks of 32768); 1024 blocks on 7 SMs are 147 per SM; the
// simulated cycles scale by 147 over the blocks simulated, and the time
// is the overhead plus the cycles at 1.35 GHz.
func TestPredictAgainstHandDerivation(t *testing.T) {
	g, err := gpus.Lookup("gtx460")
	if err != nil {
		t.Fatal(err)
	}
	d, err := resios.FromDevice(g)
	if err != nil {
		t.Fatal(err)
	}
	index, _ := d.Compute("index", "madd", 1, 2)
	load, _ := d.Global("load idata", 1, 4, 1, 1)
	store, _ := d.Global("store odata", 1024, 4, 1, 1)
	p, err := d.Predict([]resios.Instr{index, load, store}, 1024, gpus.Resources{ThreadsPerBlock: 256, RegsPerThread: 10})
	if err != nil {
		t.Fatal(err)
	}
	if p.Occupancy.WarpsPerBlock != 8 || p.Occupancy.BlocksPerSM != 6 {
		t.Errorf("occupancy %d blocks of %d warps, want 6 of 8", p.Occupancy.BlocksPerSM, p.Occupancy.WarpsPerBlock)
	}
	s := p.Sim
	if s.BlocksPerSM != 147 || s.SimulatedBlocks <= 0 || s.SimulatedBlocks > 147 {
		t.Fatalf("%d blocks per SM, %d simulated; want 147 and at most that", s.BlocksPerSM, s.SimulatedBlocks)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Abs(b) }
	if want := s.SimulatedCycles * 147 / float64(s.SimulatedBlocks); !near(s.Cycles, want) {
		t.Errorf("cycles %g, want %g", s.Cycles, want)
	}
	if want := s.Cycles / 1.35e9; !near(p.Execution, want) {
		t.Errorf("execution %g s, want %g", p.Execution, want)
	}
	if !near(p.Time, p.Overhead+p.Execution) || p.Overhead <= 0 {
		t.Errorf("time %g s is not overhead %g + execution %g", p.Time, p.Overhead, p.Execution)
	}
	if s.IdleCycles < 0 || s.IdleCycles > s.SimulatedCycles {
		t.Errorf("idle %g of %g simulated cycles", s.IdleCycles, s.SimulatedCycles)
	}
	// The shares are of the memory instructions' idle time: they sum to 1
	// and follow Idle.
	var idle, share float64
	for _, h := range s.Hotspots {
		idle += h.Idle
		share += h.Share
	}
	if len(s.Hotspots) != 2 || !near(share, 1) || !near(s.Hotspots[0].Share, s.Hotspots[0].Idle/idle) || s.Hotspots[0].Name != "store odata" {
		t.Errorf("hotspots %+v: want the store first, shares of the idle time summing to 1", s.Hotspots)
	}
}
