package counts

import (
	"fmt"
	"testing"
)

// A readonly array's loads count as global.ldg properties, with the
// stride classes of plain loads, and no min(loads, stores) since it has
// no stores. testdata/lang/readonly.knl, counted by hand: per element a
// load of a (stride 1), three of c (uniform: stride 0), three additions
// of the sum and one more, a multiplication, a load and a store of b;
// two loads of m, whose rows of two are filled by the neighbouring
// work-items (stride 2, class 2/2), an i32 addition and a store of o.
func TestReadOnlyHandCounts(t *testing.T) {
	k := langKernel(t, "readonly", nil)
	counted, err := Count(k)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int64{37, 1000, 1} {
		t.Run(fmt.Sprint("n=", n), func(t *testing.T) {
			got, err := counted.Eval(map[string]int64{"n": n})
			if err != nil {
				t.Fatal(err)
			}
			compareProps(t, got, map[string]int64{
				"global.ldg.f32.stride=1": n, "global.ldg.f32.stride=0": 3 * n, "global.ldg.i32.stride=2/2": 2 * n,
				"global.load.f32.stride=1": n, "global.store.f32.stride=1": n, "global.minldst.f32.stride=1": n,
				"global.store.i32.stride=1": n, "flop.f32.add": 4 * n, "flop.f32.mul": n, "int.i32.add": n,
				"launch.groups": (n + 15) / 16, "launch.const": 1,
			})
		})
	}
	if a := k.Array("a"); !a.ReadOnly || k.Array("b").ReadOnly {
		t.Errorf("a.ReadOnly %v, b.ReadOnly %v: want true and false", a.ReadOnly, k.Array("b").ReadOnly)
	}
	if d := Describe("global.ldg.i32.stride=2/2"); d == Describe("no.such") {
		t.Errorf("global.ldg.i32.stride=2/2 is not described: %q", d)
	}
}
