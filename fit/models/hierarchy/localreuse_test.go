package hierarchy

import (
	"testing"

	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/modeltest"
)

// TestLocalReuse checks that Config.LocalReuse takes the local loads kept
// in registers out of Config.LocalAccesses' feature, by counts derived by
// hand from examples/matmul_kernel.knl at n = 256 with 16x32 blocks of
// 8x4 tiles (TY = 8, TX = 4), as in TestLocalFootprint: 327680 stores
// and 2n^3 = 33554432 loads, of which each kb step of a work-item loads
// TY cells of sA and TX of sB for its TY*TX sums, n^3/TX + n^3/TY =
// 4194304 + 2097152 loads.
func TestLocalReuse(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: modeltest.Device(t, "pocl-cpu")}
	cs := models.Case{Kernel: "../../../examples/matmul_kernel.knl", Consts: map[string]int64{"BX": 16, "BY": 32, "TX": 4, "TY": 8}, Params: map[string]int64{"n": 256}}
	lv, err := levelsOf(env, Config{LLC: "l2"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		reuse bool
		want  float64
	}{{false, 327680 + 33554432}, {true, 327680 + 4194304 + 2097152}} {
		lf, err := facts(env, cs, Config{Form: FormMaxGroups, LocalAccesses: true, LocalReuse: c.reuse, LLC: "l2"}, lv)
		if err != nil {
			t.Fatal(err)
		}
		if got := lf.features[LocalAccessPrefix+"f32"]; got != c.want {
			t.Errorf("LocalReuse %v: %sf32 = %g, want %g", c.reuse, LocalAccessPrefix, got, c.want)
		}
		if want := 33554432 - (4194304 + 2097152); c.reuse && lf.registers != int64(want) {
			t.Errorf("LocalReuse: %d loads kept in registers, want %d", lf.registers, want)
		}
	}
}
