package resios

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit/gpus"
)

// plain is an instruction whose delay is latency/TLP: no penalty in reach.
func plain(name string, kind Kind, latency float64) Instr {
	return Instr{Name: name, Kind: kind, Latency: latency, Max: 1000, ILP: 1, Count: 1}
}

func oneSM(warps int) Launch {
	return Launch{Blocks: 1, WarpsPerBlock: warps, SMs: 1, ResidentBlocks: 1, ComputeUnits: 1, MemoryUnits: 1, MaxSimWarps: 1000}
}

// TestSimulationMaddThroughput runs the thesis's madd validation (§4.3.1,
// Figure 4.3) through the simulation: W warps of n dependent madds take
// W·n·delay(W) cycles, so the throughput n·W/cycles is 1/delay(madd) of the
// thesis's curve.
func TestSimulationMaddThroughput(t *testing.T) {
	const n = 64
	in := ComputeInstr("madd", madd, 32, 1, 1)
	trace := make([]Instr, n)
	for i := range trace {
		trace[i] = in
	}
	for w := 1; w <= 24; w++ {
		s, err := Simulate(trace, oneSM(w))
		if err != nil {
			t.Fatal(err)
		}
		x := float64(w)
		want := 22 / x
		if w > 11 {
			want = 22/(x*11) + 2
		}
		if got := n * x / s.Cycles; !relClose(got, 1/want, 1e-12) {
			t.Errorf("%d warps: throughput %g, thesis 1/delay = %g", w, got, 1/want)
		}
		if len(s.Hotspots) != 0 {
			t.Errorf("no memory instructions, yet hotspots %v", s.Hotspots)
		}
	}
}

// TestSimulationByHand follows two warps of [compute 10, memory 30] step by
// step (one compute and one memory unit):
//
//	t=0   TLP 2: both computes take 5; w1 computes
//	t=5   w1's load becomes ready with TLP 2 (w2, w1): 15; w2 computes, w1 loads
//	t=10  w2's load ready with TLP 1: 30; it waits for the memory unit
//	t=20  w1 done (10 idle cycles, charged to the load); w2 loads
//	t=50  w2 done (30 more idle cycles)
func TestSimulationByHand(t *testing.T) {
	trace := []Instr{plain("compute", Compute, 10), plain("load a", Memory, 30)}
	s, err := Simulate(trace, oneSM(2))
	if err != nil {
		t.Fatal(err)
	}
	if s.Cycles != 50 || s.IdleCycles != 40 {
		t.Errorf("cycles %g, idle %g; want 50, 40", s.Cycles, s.IdleCycles)
	}
	if len(s.Hotspots) != 1 || s.Hotspots[0] != (Hotspot{Name: "load a", Idle: 40, Delay: 45, Share: 1}) {
		t.Errorf("hotspots %+v", s.Hotspots)
	}
}

// One warp runs serially; the compute units idle during both loads, in
// proportion to their delays.
func TestSimulationHotspotShares(t *testing.T) {
	trace := []Instr{
		plain("c1", Compute, 10), plain("load a", Memory, 30),
		plain("c2", Compute, 10), plain("load b", Memory, 60),
	}
	s, err := Simulate(trace, oneSM(1))
	if err != nil {
		t.Fatal(err)
	}
	if s.Cycles != 110 || len(s.Hotspots) != 2 {
		t.Fatalf("cycles %g, hotspots %+v", s.Cycles, s.Hotspots)
	}
	b, a := s.Hotspots[0], s.Hotspots[1]
	if b.Name != "load b" || a.Name != "load a" || math.Abs(b.Share-2.0/3) > 1e-15 || math.Abs(a.Share-1.0/3) > 1e-15 {
		t.Errorf("hotspots %+v", s.Hotspots)
	}
}

// TestSimulationBlockQueue: 3 blocks of 2 warps of one compute instruction
// of latency 8. One resident block at a time: TLP 2, each block 2·4 = 8
// cycles, 24 in all. Three resident: TLP 6, 6·8/6 = 8 cycles.
func TestSimulationBlockQueue(t *testing.T) {
	trace := []Instr{plain("c", Compute, 8)}
	l := Launch{Blocks: 3, WarpsPerBlock: 2, SMs: 1, ResidentBlocks: 1, ComputeUnits: 1, MemoryUnits: 1, MaxSimWarps: 100}
	s, err := Simulate(trace, l)
	if err != nil || s.Cycles != 24 {
		t.Errorf("one resident block: %g, %v; want 24", s.Cycles, err)
	}
	l.ResidentBlocks = 3
	s, err = Simulate(trace, l)
	if err != nil || !relClose(s.Cycles, 8, 1e-15) {
		t.Errorf("three resident blocks: %g, %v; want 8", s.Cycles, err)
	}
}

// TestSimulationExtrapolation: 10 blocks on 2 SMs is 5 blocks per SM; with
// room for 4 simulated warps, 2 blocks of 2 warps run (16 cycles, as
// above) and the time is scaled by 5/2.
func TestSimulationExtrapolation(t *testing.T) {
	l := Launch{Blocks: 10, WarpsPerBlock: 2, SMs: 2, ResidentBlocks: 1, ComputeUnits: 1, MemoryUnits: 1, MaxSimWarps: 4}
	s, err := Simulate([]Instr{plain("c", Compute, 8)}, l)
	if err != nil {
		t.Fatal(err)
	}
	if s.SimulatedBlocks != 2 || s.BlocksPerSM != 5 || s.SimulatedCycles != 16 || s.Cycles != 40 {
		t.Errorf("got %+v", s)
	}
}

func TestSimulationErrors(t *testing.T) {
	if _, err := Simulate(nil, oneSM(1)); err == nil {
		t.Error("empty trace accepted")
	}
	if _, err := Simulate([]Instr{plain("c", Compute, 1)}, Launch{}); err == nil {
		t.Error("empty launch accepted")
	}
	bad := plain("c", Compute, 1)
	bad.ILP = 0
	if _, err := Simulate([]Instr{bad}, oneSM(1)); err == nil || !strings.Contains(err.Error(), "ILP") {
		t.Errorf("ILP 0: %v", err)
	}
}

// TestPredictGTX460 runs the device path: the §7.1 benchmark, a loop of
// 1024 mul iterations per thread in blocks of 160 threads. Time is the 4 µs
// launch plus the simulated cycles over 1.35 GHz; without memory
// instructions there are no hotspots.
func TestPredictGTX460(t *testing.T) {
	d, err := FromDevice(gtx460(t))
	if err != nil {
		t.Fatal(err)
	}
	if !relClose(d.GlobalBytesPerCycle, 86.4e9/1.35e9/7, 1e-15) {
		t.Errorf("per-SM bandwidth %g", d.GlobalBytesPerCycle)
	}
	mul, err := d.Compute("mul", "mul", 1, 1024)
	if err != nil {
		t.Fatal(err)
	}
	p, err := d.Predict([]Instr{mul}, 7, gpus.Resources{ThreadsPerBlock: 160, RegsPerThread: 8})
	if err != nil {
		t.Fatal(err)
	}
	// One block of 5 warps per SM; TLP 5 ≤ 16: 20/5·1024 cycles per warp,
	// five warps in turn: 20·1024 cycles.
	if p.Sim.Cycles != 20*1024 || !relClose(p.Time, 4e-6+20*1024/1.35e9, 1e-15) || len(p.Sim.Hotspots) != 0 {
		t.Errorf("got %+v", p)
	}
	if !strings.Contains(p.Explain(), "(4.1)") {
		t.Errorf("explanation:\n%s", p.Explain())
	}
	if _, err := d.Compute("x", "fma", 1, 1); err == nil || !strings.Contains(err.Error(), "fmadd") {
		t.Errorf("unknown class: %v", err)
	}
}

// TestPredictHotspot: the transpose of §7.2 reads coalesced and writes with
// a large stride; the uncoalesced store is the hotspot, as the thesis
// reports.
func TestPredictHotspot(t *testing.T) {
	d, err := FromDevice(gtx460(t))
	if err != nil {
		t.Fatal(err)
	}
	load, err := d.Global("load idata", 1, 4, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	store, err := d.Global("store odata", 1024, 4, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	index, err := d.Compute("index", "madd", 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	p, err := d.Predict([]Instr{index, load, store}, 1024, gpus.Resources{ThreadsPerBlock: 256, RegsPerThread: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Sim.Hotspots) != 2 || p.Sim.Hotspots[0].Name != "store odata" || p.Sim.Hotspots[0].Share <= p.Sim.Hotspots[1].Share {
		t.Errorf("hotspots %+v", p.Sim.Hotspots)
	}
}

func TestFromDeviceMissing(t *testing.T) {
	h100, err := gpus.Lookup("h100-sxm5")
	if err != nil {
		t.Fatal(err)
	}
	var m *gpus.MissingError
	if _, err := FromDevice(h100); !errors.As(err, &m) || m.Field != "resios" {
		t.Errorf("H100: %v", err)
	}
}

// BenchmarkSimulate simulates the transpose of TestPredictHotspot: 12
// blocks of 8 warps over a 3-instruction trace.
func BenchmarkSimulate(b *testing.B) {
	g, err := gpus.Lookup("gtx460")
	if err != nil {
		b.Fatal(err)
	}
	d, err := FromDevice(g)
	if err != nil {
		b.Fatal(err)
	}
	index, _ := d.Compute("index", "madd", 1, 2)
	load, _ := d.Global("load idata", 1, 4, 1, 1)
	store, _ := d.Global("store odata", 1024, 4, 1, 1)
	trace := []Instr{index, load, store}
	res := gpus.Resources{ThreadsPerBlock: 256, RegsPerThread: 10}
	for b.Loop() {
		if _, err := d.Predict(trace, 1024, res); err != nil {
			b.Fatal(err)
		}
	}
}
