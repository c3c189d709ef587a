package examples_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// TestEllpackrHandCounts checks spmv_ellpackr.knl's counts, every
// property, against those derived by hand from SHOC's
// spmv_ellpackr_kernel (at the commit the port cites), one thread a row
// t < dim in blocks of 128. Once a row: int max = rowLengths[t], a
// stride-1 load of a const __restrict__ int (the read-only path, ldg),
// and out[t] = result, a stride-1 store. Once a trip of the row's loop,
// for i < max, which the counts take at its bound maxrl (an upper bound,
// as every count inside a loop bounded by data): int ind = i*dim + t, an
// i32 multiplication and an addition; val[ind] and cols[ind], read-only
// loads of a float and an int at stride 1 (neighbouring threads t read
// neighbouring ind); vec[cols[ind]], a float gathered at a subscript
// read from data; result += val*vec, a multiplication and an addition.
func TestEllpackrHandCounts(t *testing.T) {
	c, err := counts.Count(parse(t, "spmv_ellpackr"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []map[string]int64{{"dim": 301, "maxrl": 7}, {"dim": 1 << 16, "maxrl": 64}, {"dim": 1, "maxrl": 1}} {
		dim, trips := p["dim"], p["dim"]*p["maxrl"]
		want := map[string]int64{
			"global.ldg.i32.stride=1": dim + trips, "global.store.f32.stride=1": dim,
			"int.i32.mul": trips, "int.i32.add": trips, "global.ldg.f32.stride=1": trips,
			"global.load.indirect.f32": trips, "flop.f32.mul": trips, "flop.f32.add": trips,
			"launch.groups": (dim + 127) / 128, "launch.const": 1,
		}
		got, err := c.Eval(p)
		if err != nil {
			t.Fatal(err)
		}
		maps.DeleteFunc(got, func(_ string, v int64) bool { return v == 0 })
		if !maps.Equal(got, want) {
			t.Errorf("at %v: counted\n%v\nwant\n%v", p, got, want)
		}
	}
	// What the loop does is an upper bound; rowLengths' load, counted
	// with cols' under one name, makes that name one too.
	upper := []string{"flop.f32.add", "flop.f32.mul", "global.ldg.f32.stride=1", "global.ldg.i32.stride=1", "global.load.indirect.f32", "int.i32.add", "int.i32.mul"}
	if got := c.Bounds(); !slices.Equal(got, upper) {
		t.Errorf("upper bounds %v, want %v", got, upper)
	}
}
