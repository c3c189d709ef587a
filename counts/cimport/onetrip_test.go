package cimport

import (
	"maps"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// TestOneTripLoop checks that a loop that runs once at every size (a
// tile loop at tile size 1) is its body with the variable a constant, as
// a compiler folds it: i + 64*t < n at t = 0 is the test i < n, which
// costs nothing, and b[i + 64*t] is b[i]. By hand, at n work-items in
// groups of 64: n loads and n stores of stride 1, n f32 multiplications,
// no integer operation (the guard i < n, the whole body, is the
// domain). A loop of two trips stays a loop, and its guard, written
// 64*bx + tx + 64*t < n (i is not an iname where the guard is not the
// whole body), costs two multiplications and two additions at each of
// its 2n points (t = 0, 1 at every launched work-item, n a multiple of
// 64).
func TestOneTripLoop(t *testing.T) {
	const head = "// uniperf: --local 64 --global n --array a=2*n --array b=2*n\n" +
		"__global__ void k(float *a, float *b, int n) { int i = blockIdx.x*blockDim.x + threadIdx.x;\n"
	count := func(trips string) *counts.Counted {
		src := head + "for (int t = 0; t < " + trips + "; t++) if (i + 64*t < n) b[i + 64*t] = 2.0f*a[i + 64*t]; }\n"
		c, _ := importCounted(t, src)
		return c
	}
	once, twice := count("1"), count("2")
	for _, n := range []int64{100, 128} {
		got, err := once.Eval(map[string]int64{"n": n})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int64{"global.load.f32.stride=1": n, "global.store.f32.stride=1": n, "global.minldst.f32.stride=1": n,
			"flop.f32.mul": n, "launch.groups": (n + 63) / 64, "launch.const": 1}
		if !maps.Equal(nonzero(got), want) {
			t.Errorf("one trip, n = %d: %v, want %v", n, nonzero(got), want)
		}
	}
	got, err := twice.Eval(map[string]int64{"n": 128})
	if err != nil {
		t.Fatal(err)
	}
	if got["int.i32.mul"] != 4*128 || got["int.i32.add"] != 4*128 {
		t.Errorf("two trips at n = 128: %d i32 multiplications and %d additions, want 512 and 512", got["int.i32.mul"], got["int.i32.add"])
	}
}
