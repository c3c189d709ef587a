package cycles

import (
	"math"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit/gpus"
)

// kernel: 1024 threads, each with 10 additions, 5 multiplications, 2 FMAs,
// 4 global loads and 1 store, 3 shared-memory accesses.
func kernel() Kernel {
	return Kernel{Threads: 1024, Compute: map[string]float64{Add: 10, Mul: 5, FMA: 2}, GlobalAccesses: 5, SharedAccesses: 3}
}

func near(got, want float64) bool { return math.Abs(got-want) <= 1e-12*math.Abs(want) }

func TestEstimatedDefaults(t *testing.T) {
	e, err := Estimated(kernel(), DefaultWeights(), 1e9, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	// computation 10·24 + 5·32 + 2·2 = 404; global 5·500 = 2500; shared
	// 3·5 = 15; 2919 cycles per thread; 1024·2919/(1e9·0.5) s.
	if e.Computation != 404 || e.GlobalMemory != 2500 || e.SharedMemory != 15 || e.PerThread != 2919 {
		t.Errorf("parts %+v", e)
	}
	if !near(e.Unadjusted, 5.978112e-3) {
		t.Errorf("unadjusted %g, want 5.978112e-3", e.Unadjusted)
	}
	s, err := e.Seconds(2)
	if err != nil || !near(s, 2.989056e-3) {
		t.Errorf("adjusted %g, %v", s, err)
	}
}

func TestEstimatedCaches(t *testing.T) {
	k := kernel()
	k.L1Hits, k.L2Hits = 1, 2
	e, err := Estimated(k, DefaultWeights(), 1e9, 1)
	if err != nil {
		t.Fatal(err)
	}
	// (5 − 1 − 2)·500 + 1·5 + 2·250 = 1505.
	if e.GlobalMemory != 1505 {
		t.Errorf("global memory %g, want 1505", e.GlobalMemory)
	}
}

// Calibrated on one size, the model reproduces that measurement and scales
// the others with the thread count.
func TestCalibrate(t *testing.T) {
	small, err := Estimated(kernel(), DefaultWeights(), 1e9, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	aw, err := small.AdjustingWeight(1.5e-3)
	if err != nil {
		t.Fatal(err)
	}
	if !near(aw, 5.978112e-3/1.5e-3) {
		t.Errorf("adjusting weight %g", aw)
	}
	if s, _ := small.Seconds(aw); !near(s, 1.5e-3) {
		t.Errorf("calibration size predicted %g, measured 1.5e-3", s)
	}
	k := kernel()
	k.Threads *= 4
	big, err := Estimated(k, DefaultWeights(), 1e9, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := big.Seconds(aw); !near(s, 6e-3) {
		t.Errorf("4× threads predicted %g, want 6e-3", s)
	}
}

func TestDeviceWeights(t *testing.T) {
	d, err := gpus.Lookup("gtx460")
	if err != nil {
		t.Fatal(err)
	}
	w, _ := d.CycleWeights(DefaultWeights())
	e, err := Estimated(kernel(), w, d.ClockHz, 1)
	if err != nil {
		t.Fatal(err)
	}
	// Resios's latencies: 10·16 + 5·16 + 2·18 = 276; 5·500; 3·36 = 108.
	if e.PerThread != 276+2500+108 {
		t.Errorf("per thread %g, want 2884", e.PerThread)
	}
}

func TestErrors(t *testing.T) {
	w := DefaultWeights()
	cases := []struct {
		name string
		run  func() error
		want string
	}{
		{"unknown class", func() error {
			k := kernel()
			k.Compute["exp"] = 1
			_, err := Estimated(k, w, 1e9, 1)
			return err
		}, `"exp"`},
		{"zero occupancy", func() error { _, err := Estimated(kernel(), w, 1e9, 0); return err }, "occupancy"},
		{"occupancy above one", func() error { _, err := Estimated(kernel(), w, 1e9, 1.5); return err }, "occupancy"},
		{"no clock", func() error { _, err := Estimated(kernel(), w, 0, 1); return err }, "frequency"},
		{"hits exceed accesses", func() error {
			k := kernel()
			k.L2Hits = 6
			_, err := Estimated(k, w, 1e9, 1)
			return err
		}, "exceed"},
		{"negative count", func() error {
			k := kernel()
			k.Compute[Add] = -1
			_, err := Estimated(k, w, 1e9, 1)
			return err
		}, "count of add"},
		{"missing global weight", func() error {
			_, err := Estimated(kernel(), map[string]float64{Add: 1, Mul: 1, FMA: 1}, 1e9, 1)
			return err
		}, `"global"`},
		{"zero adjusting weight", func() error { _, err := Estimate{Unadjusted: 1}.Seconds(0); return err }, "adjusting weight"},
		{"zero measurement", func() error { _, err := Estimate{Unadjusted: 1}.AdjustingWeight(0); return err }, "measured"},
		{"empty kernel", func() error { _, err := Estimate{}.AdjustingWeight(1); return err }, "zero cycles"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := c.run(); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
}
