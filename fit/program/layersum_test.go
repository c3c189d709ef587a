package program

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestSumProgram(t *testing.T) {
	p := Timeline{
		Loading: 0.2e-3,
		Update:  0.3e-3,
		Kernels: []KernelTime{
			{"conv1", "conv", Forward, 2e-3},
			{"pool1", "maxpool", Forward, 0.5e-3},
			{"fc", "matvec", Forward, 1e-3},
			{"fc", "matvec_t", Backward, 1.5e-3},
			{"conv1", "conv_grad", Backward, 3e-3},
		},
	}
	b, err := SumProgram(p)
	if err != nil {
		t.Fatal(err)
	}
	// forward 2 + 0.5 + 1 = 3.5 ms, backward 1.5 + 3 = 4.5 ms,
	// total 0.2 + 3.5 + 4.5 + 0.3 = 8.5 ms.
	near := func(what string, got, want float64) {
		if math.Abs(got-want) > 1e-15 {
			t.Errorf("%s = %g, want %g", what, got, want)
		}
	}
	near("forward", b.Forward, 3.5e-3)
	near("backward", b.Backward, 4.5e-3)
	near("total", b.Total, 8.5e-3)
	var names []string
	for _, l := range b.Layers {
		names = append(names, l.Name)
	}
	if !slices.Equal(names, []string{"conv1", "pool1", "fc"}) {
		t.Errorf("layers %v", names)
	}
	near("conv1 forward", b.Layers[0].Forward, 2e-3)
	near("conv1 backward", b.Layers[0].Backward, 3e-3)
	if len(b.Layers[2].Kernels) != 2 {
		t.Errorf("fc kernels %v", b.Layers[2].Kernels)
	}
}

func TestSumProgramErrors(t *testing.T) {
	for _, c := range []struct {
		p    Timeline
		want string
	}{
		{Timeline{}, "no kernel launches"},
		{Timeline{Kernels: []KernelTime{{"", "k", Forward, 1}}}, "launch 1 (k) has no layer name"},
		{Timeline{Kernels: []KernelTime{{"l", "k", Forward, -1}}}, "launch 1 (l/k)"},
		{Timeline{Kernels: []KernelTime{{"l", "k", Phase(7), 1}}}, "unknown phase"},
		{Timeline{Loading: math.Inf(1), Kernels: []KernelTime{{"l", "k", Forward, 1}}}, "loading time"},
	} {
		if _, err := SumProgram(c.p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}

func TestParallelStep(t *testing.T) {
	// Slowest share 0.84 s; exchange 1e8 bytes at 1e10 bytes/s plus two
	// messages of 1 ms: 0.01 + 0.002 s.
	s, err := ParallelStep([]ShareTime{{"GTX 1080", 0.84}, {"GTX 1080 Ti", 0.80}},
		Transfer{Bytes: 1e8, Bandwidth: 1e10, Latency: 1e-3, Messages: 2})
	if err != nil {
		t.Fatal(err)
	}
	if s.Slowest != "GTX 1080" || s.Compute != 0.84 || math.Abs(s.Transfer-0.012) > 1e-15 || math.Abs(s.Total-0.852) > 1e-15 {
		t.Errorf("got %+v", s)
	}
	if _, err := ParallelStep(nil, Transfer{}); err == nil {
		t.Error("no shares accepted")
	}
	if _, err := ParallelStep([]ShareTime{{"a", 1}}, Transfer{Bytes: 1}); err == nil || !strings.Contains(err.Error(), "bandwidth") {
		t.Errorf("bytes without bandwidth: %v", err)
	}
	if s, err := ParallelStep([]ShareTime{{"a", 1}}, Transfer{}); err != nil || s.Total != 1 {
		t.Errorf("no exchange: %+v, %v", s, err)
	}
}

func TestExchangeVolumes(t *testing.T) {
	if got := ParameterServerBytes(1e8, 2); got != 4e8 {
		t.Errorf("parameter server: %g", got)
	}
	if got := RingAllReduceBytes(1e8, 4); got != 1.5e8 {
		t.Errorf("ring of 4: %g", got)
	}
	if got := RingAllReduceBytes(1e8, 1); got != 0 {
		t.Errorf("ring of 1: %g", got)
	}
}

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		total int64
		k     []float64
		want  []int64
	}{
		{16, []float64{1, 3}, []int64{4, 12}},           // (4-9), (4-10): 16·1/4, 16·3/4
		{10, []float64{1, 1, 1}, []int64{4, 3, 3}},      // remainders tie: the first gets the unit
		{7, []float64{2.5, 1}, []int64{5, 2}},           // exact
		{10, []float64{1, 2, 2}, []int64{2, 4, 4}},      // exact
		{3, []float64{0.2, 0.3, 0.5}, []int64{1, 1, 1}}, // 0.6, 0.9, 1.5: floors 0, 0, 1; units to remainders .9 then .6
		{0, []float64{1, 2}, []int64{0, 0}},
	} {
		got, err := Proportional(c.total, c.k)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("Proportional(%d, %v) = %v, %v; want %v", c.total, c.k, got, err, c.want)
		}
	}
	huge, err := Proportional(math.MaxInt64, []float64{1, 1})
	if err != nil || huge[0]+huge[1] != math.MaxInt64 || huge[0]-huge[1] != 1 {
		t.Errorf("Proportional(MaxInt64, 1:1) = %v, %v", huge, err)
	}
	for _, k := range [][]float64{nil, {0, 1}, {math.NaN()}, {math.Inf(1)}} {
		if _, err := Proportional(5, k); err == nil {
			t.Errorf("Proportional(5, %v) accepted", k)
		}
	}
	if _, err := Proportional(-1, []float64{1}); err == nil {
		t.Error("negative total accepted")
	}
}
