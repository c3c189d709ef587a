package resios

import (
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit/gpus"
)

// TestILP checks (6.1) on the thesis's example (§6.2): e = a + b, f = c + d,
// g = e·f has ILP 3/2.
func TestILP(t *testing.T) {
	for _, c := range []struct {
		name string
		g    DAG
		want float64
	}{
		{"thesis example", DAG{Deps: [][]int{{}, {}, {0, 1}}}, 1.5},
		{"chain", DAG{Deps: [][]int{{}, {0}, {1}}}, 1},
		{"independent", DAG{Deps: [][]int{{}, {}, {}, {}}}, 4},
		// Two chains of 3 and 1 joined at the end: 5 instructions, path 4.
		{"unbalanced", DAG{Deps: [][]int{{}, {0}, {1}, {}, {2, 3}}}, 1.25},
	} {
		got, err := ILP(c.g)
		if err != nil || got != c.want {
			t.Errorf("%s: ILP %g, %v; want %g", c.name, got, err, c.want)
		}
	}
	for _, c := range []struct {
		g    DAG
		want string
	}{
		{DAG{}, "empty"},
		{DAG{Deps: [][]int{{1}, {0}}}, "cycle"},
		{DAG{Deps: [][]int{{3}}}, "does not exist"},
	} {
		if _, err := ILP(c.g); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}

func gtx460(t *testing.T) *gpus.Device {
	t.Helper()
	d, err := gpus.Lookup("gtx460")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestBlockSize160 is the thesis's launch-configuration example (§7.1): a
// loop of 1024 iterations of mul instructions (ILP 1) on the GTX 460's 7
// SMs gets a block of 160 threads, "an evenly distributed workload across
// the SMs".
func TestBlockSize160(t *testing.T) {
	d := gtx460(t)
	in := LaunchInput{
		Threads: 1024, WarpSize: 32, SMs: d.SMs, MaxWarps: d.Limits.MaxWarpsPerSM,
		MaxThreadsPerBlock: d.Limits.MaxThreadsPerBlock, RegsPerSM: d.Limits.RegsPerSM, RegsPerThread: 8,
		Latencies:    []Latency{{Cycles: d.Resios.Instructions["mul"].Latency}},
		HidingFactor: d.Resios.Simulation.LatencyHidingFactor,
	}
	c, err := BlockSize(in)
	if err != nil {
		t.Fatal(err)
	}
	// n_w¹ = ⌈1024/(7·32)⌉ = 5; n_w² = min(48, 32768/(32·8)) = 48;
	// n_w³ = 4·20 = 80.
	if c.Block != [2]int{160, 1} || c.Even != 5 || c.Utilization != 48 || c.Latency != 80 {
		t.Errorf("got %+v, want block 160 from (5, 48, 80)", c)
	}

	// §7.2: a large two-dimensional workload gets (32, 32), the limit of
	// 1024 threads per block.
	in.Threads, in.TwoD = 1<<24, true
	c, err = BlockSize(in)
	if err != nil || c.Block != [2]int{32, 32} {
		t.Errorf("large 2-D workload: %+v, %v; want (32, 32)", c, err)
	}
}

func TestBlockSizeLimits(t *testing.T) {
	in := LaunchInput{Threads: 1 << 20, WarpSize: 32, SMs: 2, MaxWarps: 48, MaxThreadsPerBlock: 1024,
		SharedPerSM: 49152, SharedPerThread: 96, Latencies: []Latency{{Cycles: 500, Memory: true}},
		ArithmeticIntensity: 100, HidingFactor: 4}
	c, err := BlockSize(in)
	if err != nil {
		t.Fatal(err)
	}
	// Shared memory: 49152/(32·96) = 16 warps; latency ⌈4·500/100⌉ = 20.
	if c.Utilization != 16 || c.Latency != 20 || c.WarpsPerBlock != 16 {
		t.Errorf("got %+v", c)
	}
	in.ArithmeticIntensity = 0
	if _, err := BlockSize(in); err == nil {
		t.Error("memory latency without arithmetic intensity accepted")
	}
	if _, err := BlockSize(LaunchInput{}); err == nil {
		t.Error("empty input accepted")
	}
}

// TestTransfer checks (4.2) with the thesis's fit: min(5000, 100·size +
// 692) MB/s.
func TestTransfer(t *testing.T) {
	o := gtx460(t).Resios.Overhead
	for _, c := range []struct{ mb, want float64 }{
		{0, 0},
		{10, 10.0 / 1692},
		{100, 0.02},
		{(5000 - 692) / 100.0, (5000 - 692) / 100.0 / 5000},
	} {
		got, err := Transfer(o, c.mb)
		if err != nil || !relClose(got, c.want, 1e-15) {
			t.Errorf("%g MB: %g s, %v; want %g", c.mb, got, err, c.want)
		}
	}
	if _, err := Transfer(o, -1); err == nil {
		t.Error("negative size accepted")
	}
	got, err := Overhead(o, 100, true)
	if err != nil || !relClose(got, 0.02+0.065+4e-6, 1e-15) {
		t.Errorf("overhead %g, %v", got, err)
	}
}
