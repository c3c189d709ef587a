package models_test

import (
	"maps"
	"testing"

	"github.com/uniperf/uniperf/fit/models"
)

// TestCounterAt counts global_copy at fixed sizes against its counts by
// hand (n stride-1 loads and stores of f32, ceil(n/LX) groups), refuses
// other sizes, counts a binding anew after Forget (and finds its inputs
// anew, keeping the other bindings'), and reads the kernel's source once
// for all its bindings.
func TestCounterAt(t *testing.T) {
	const n = 1000
	params := map[string]int64{"n": n}
	reads := 0
	source := func(name string) (string, []byte, error) {
		reads++ // Counts below is called from this goroutine only
		return models.Library(name)
	}
	c := models.NewCounterAt(source, models.DefaultBanks, params)
	for _, lx := range []int64{128, 100, 7} {
		consts := map[string]int64{"LX": lx}
		got, err := c.Counts("global_copy", consts, params)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int64{"global.load.f32.stride=1": n, "global.minldst.f32.stride=1": n, "global.store.f32.stride=1": n,
			"launch.const": 1, "launch.groups": (n + lx - 1) / lx}
		if !maps.Equal(got, want) {
			t.Errorf("LX=%d: %v, want %v", lx, got, want)
		}
		if _, err := c.Counts("global_copy", consts, map[string]int64{"n": n - 1}); err == nil {
			t.Errorf("LX=%d: counted at n=%d by a counter at n=%d", lx, n-1, n)
		}
	}
	consts := map[string]int64{"LX": 128}
	first, err := c.Kernel("global_copy", consts)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := c.Kernel("global_copy", consts); again != first {
		t.Error("a binding counted twice before Forget")
	}
	env := &models.Env{Counter: c}
	inputs := func(lx int64) *models.Inputs {
		in, err := env.Inputs(models.Case{Kernel: "global_copy", Consts: map[string]int64{"LX": lx}, Params: params})
		if err != nil {
			t.Fatal(err)
		}
		return in
	}
	in, other := inputs(128), inputs(100)
	c.Forget("global_copy", consts)
	if again, _ := c.Kernel("global_copy", consts); again == first {
		t.Error("Forget kept the counts")
	}
	if inputs(128) == in {
		t.Error("Forget kept the binding's inputs")
	}
	if inputs(100) != other {
		t.Error("Forget dropped another binding's inputs")
	}
	if reads != 1 {
		t.Errorf("the source read %d times, want once", reads)
	}
}
