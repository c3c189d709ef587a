package hierarchy

import (
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/modeltest"
)

// TestLocalAccesses checks the feature of Config.LocalAccesses against
// closed forms derived by hand from the kernels' text, and against the
// local loads and stores the reference interpreter executed.
//
// lud_diagonal (one group of 16 work-items t) stores its 16 x 16 tile
// once (256), then for i < 15 updates shadow[t, i] at every j < i for
// t > i (sum over i of (15 - i) i = 560 stores, each with three loads:
// 1680), divides it once (120 stores, 240 loads), and updates
// shadow[i + 1, t] at every j2 <= i (sum of (15 - i)(i + 1) = 680 stores,
// 2040 loads); the 15 x 16 results are loaded back once (240): 1616
// stores and 4200 loads, whatever the matrix. local_bank (R = 32) stores
// every work-item's element, and 32 more a group, then loads 32 a
// work-item: n + n/8 stores and 32 n loads. jacobi1d1 has no local
// memory.
func TestLocalAccesses(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: modeltest.Device(t, "pocl-cpu")}
	lv := Levels{L1: 1 << 15, LLC: 1 << 21}
	for _, c := range []struct {
		kernel string
		params map[string]int64
		want   float64
	}{
		{"../../../examples/lud_diagonal.knl", map[string]int64{"matrix_dim": 64, "offset": 16}, 1616 + 4200},
		{"../../../examples/lud_diagonal.knl", map[string]int64{"matrix_dim": 256, "offset": 48}, 1616 + 4200},
		{"../../../measurekernels/library/local_bank.knl", map[string]int64{"n": 1024}, 1024 + 1024/8 + 32*1024},
		{"../../../measurekernels/library/local_bank.knl", map[string]int64{"n": 2560}, 2560 + 2560/8 + 32*2560},
		{"../../../examples/jacobi1d1.knl", map[string]int64{"n": 1000}, 0},
	} {
		cs := models.Case{Kernel: c.kernel, Params: c.params}
		lf, err := facts(env, cs, Config{Form: FormMaxGroups, LocalAccesses: true, LLC: "l2"}, lv)
		if err != nil {
			t.Fatalf("%s %v: %v", c.kernel, c.params, err)
		}
		for p, v := range lf.features {
			if p == LocalAccessPrefix+"f32" {
				continue
			}
			if strings.HasPrefix(p, "local.load.") || strings.HasPrefix(p, "local.store.") || (strings.HasPrefix(p, LocalAccessPrefix) && v != 0) {
				t.Errorf("%s %v: feature %s = %g left beside %sf32", c.kernel, c.params, p, v, LocalAccessPrefix)
			}
		}
		if got := lf.features[LocalAccessPrefix+"f32"]; got != c.want {
			t.Errorf("%s %v: %sf32 = %g, want %g", c.kernel, c.params, LocalAccessPrefix, got, c.want)
		}
		k, err := env.Counter.Kernel(c.kernel, nil)
		if err != nil {
			t.Fatal(err)
		}
		var ran int64
		for _, n := range runFilled(t, k.Kernel(), c.params).Local {
			ran += n
		}
		if float64(ran) != c.want {
			t.Errorf("%s %v: the interpreter made %d local accesses, want %g", c.kernel, c.params, ran, c.want)
		}
	}
}
