package hierarchy

import (
	"math"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/modeltest"
)

// scalarByTarget runs Scalar on a kernel file and keys the result by
// the array or temporary each instruction assigns to.
func scalarByTarget(t *testing.T, env *models.Env, kernel string) map[string]bool {
	t.Helper()
	c, err := env.Counter.Kernel(kernel, nil)
	if err != nil {
		t.Fatal(err)
	}
	k := c.Kernel()
	byID := Scalar(k)
	out := map[string]bool{}
	for _, s := range k.Statements {
		if in, ok := s.(*counts.Instruction); ok {
			out[in.LHS.Array.Name] = byID[in.StatementID()]
		}
	}
	return out
}

// TestScalar checks which instructions run one work-item at a time
// against the kernels' text: adi1's two statements sit in the loop over
// i2 (no barrier), fan1 has no loop, gramschmidt1's norm is a
// reduction, and of the tiled matmul only the reduction over k_in runs
// one work-item at a time: its tile loads sit in the loop over k_out,
// which holds the barriers, and its store of c in no loop.
func TestScalar(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files)}
	for _, c := range []struct {
		kernel string
		want   map[string]bool
	}{
		{"../../../examples/adi1.knl", map[string]bool{"X": true, "B": true}},
		{"../../../examples/fan1.knl", map[string]bool{"m": false}},
		{"../../../examples/gramschmidt1.knl", map[string]bool{"r": true}},
		{"../../../measurekernels/library/matmul_tiled.knl", map[string]bool{"acc": true, "ta": false, "tb": false, "c": false}},
	} {
		got := scalarByTarget(t, env, c.kernel)
		if len(got) != len(c.want) {
			t.Errorf("%s: got %v, want %v", c.kernel, got, c.want)
			continue
		}
		for a, w := range c.want {
			if got[a] != w {
				t.Errorf("%s: the instruction assigning %s: scalar %v, want %v", c.kernel, a, got[a], w)
			}
		}
	}
}

// TestScalarMovesClosedForms checks the moved accesses against counts
// derived by hand. adi1 over n (n - 1) points (i1, i2 >= 1): the first
// statement loads X twice, A and B once and stores X, the second loads
// B twice and A twice (A*A) and stores B, every subscript striding by n
// along i1 (l.0): 8 n (n - 1) loads and 2 n (n - 1) stores move.
// rowscale's store of out[i*m + k] strides by m along i inside the loop
// over k: n m stores move, while x[i] (stride 1) and y[k] (uniform)
// stay. fan1 has no loop: nothing moves.
func TestScalarMovesClosedForms(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files)}
	sums := func(moves map[string]int64) (loads, stores int64) {
		for p, v := range moves {
			if strings.HasPrefix(p, "global.store.") {
				stores += v
			} else {
				loads += v
			}
		}
		return loads, stores
	}
	for _, c := range []struct {
		kernel        string
		params        map[string]int64
		loads, stores int64
	}{
		{"../../../examples/adi1.knl", map[string]int64{"n": 64}, 8 * 64 * 63, 2 * 64 * 63},
		{"../../../examples/adi1.knl", map[string]int64{"n": 300}, 8 * 300 * 299, 2 * 300 * 299},
		{"testdata/rowscale.knl", map[string]int64{"n": 128, "m": 10}, 0, 128 * 10},
		{"../../../examples/fan1.knl", map[string]int64{"Size": 256, "t": 1}, 0, 0},
	} {
		k, err := env.Counter.Kernel(c.kernel, nil)
		if err != nil {
			t.Fatal(err)
		}
		moves, err := scalarMoves(k, c.params, false)
		if err != nil {
			t.Fatalf("%s %v: %v", c.kernel, c.params, err)
		}
		if l, s := sums(moves); l != c.loads || s != c.stores {
			t.Errorf("%s %v: %d loads and %d stores move (%v), want %d and %d", c.kernel, c.params, l, s, moves, c.loads, c.stores)
		}
		for p := range moves {
			if strings.HasSuffix(p, ".stride=1") || strings.HasSuffix(p, ".stride=0") {
				t.Errorf("%s: %s moves, but it is contiguous or uniform already", c.kernel, p)
			}
		}
	}
}

// TestScalarLoopsFeatures checks adi1's features under ScalarLoops
// against the closed forms of TestScalarMovesClosedForms: every access
// is priced as contiguous, 8 n (n - 1) loads, 2 n (n - 1) stores and
// their minimum 2 n (n - 1) as the min(loads, stores) correction, and no
// strided class is left: the 10 n (n - 1) accesses moved.
func TestScalarLoopsFeatures(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: modeltest.Device(t, "pocl-cpu")}
	const n = 128
	lf, err := facts(env, models.Case{Kernel: "../../../examples/adi1.knl", Params: map[string]int64{"n": n}},
		Config{Form: FormMax, ScalarLoops: true, LLC: "l2"}, Levels{L1: 1 << 15, LLC: 1 << 21})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"global.load.f32.stride=1": 8 * n * (n - 1), "global.store.f32.stride=1": 2 * n * (n - 1), "global.minldst.f32.stride=1": 2 * n * (n - 1)}
	for p, v := range lf.features {
		if !strings.HasPrefix(p, "global.") || v == 0 {
			continue
		}
		if w, ok := want[p]; !ok || v != w {
			t.Errorf("feature %s = %g, want %g", p, v, w)
		}
	}
	if lf.scalar != 10*n*(n-1) {
		t.Errorf("%d accesses priced as contiguous, want %d", lf.scalar, 10*n*(n-1))
	}
	for p, w := range want {
		if lf.features[p] != w {
			t.Errorf("feature %s = %g, want %g", p, lf.features[p], w)
		}
	}
}

// TestScaleContiguous checks that ScaleContiguous leaves strided and
// uniform accesses at their counts. fan1 at Size 256, t = 1 runs
// Size - 1 - t = 254 work-items in one group: each stores m[x + 2, 1]
// and loads a[x + 2, 1], a line each, and all load a[1, 1], one line:
// the group's 509 lines (32576 B) fit L1 and move for 3 x 254 x 4 =
// 3048 B used, so LineScale scales the 254 strided stores by
// 32576/3048, and
// ScaleContiguous, with no contiguous access to scale, by nothing.
func TestScaleContiguous(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: modeltest.Device(t, "pocl-cpu")}
	c := models.Case{Kernel: "../../../examples/fan1.knl", Params: map[string]int64{"Size": 256, "t": 1}}
	lv := Levels{L1: 1 << 15, LLC: 1 << 21}
	for _, k := range []struct {
		contiguous bool
		scale      float64
	}{{false, 32576.0 / 3048}, {true, 1}} {
		lf, err := facts(env, c, Config{Form: FormMax, Lines: true, LineScale: true, ScaleContiguous: k.contiguous, LLC: "l2"}, lv)
		if err != nil {
			t.Fatal(err)
		}
		var stores float64
		for p, v := range lf.features {
			if strings.HasPrefix(p, "global.store.") {
				stores += v
			}
		}
		if want := 254 * k.scale; math.Abs(stores-want) > 1e-9*want {
			t.Errorf("ScaleContiguous %v: stores priced as %g, want %g", k.contiguous, stores, want)
		}
	}
}

// TestUnrolledSums checks Config.UnrolledSums against the kernels'
// text: vector_sum's out[i] = sum(c, x[c, i]) over an unrolled c is
// straight-line code, so that its 3 n loads of x, stride 3 across the
// work-items (D = 3, x column-major), move to the contiguous class
// without the option and stay without it (none move); gramschmidt1's
// norm sums over a sequential iname and adi1's statements sit in a
// loop, which stay scalar either way (adi1's 8 n (n - 1) loads and
// 2 n (n - 1) stores, TestScalarMovesClosedForms).
func TestUnrolledSums(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files)}
	for _, c := range []struct {
		kernel       string
		target       string
		scalar, unrs bool
	}{
		{"../../../measurekernels/library/vector_sum.knl", "out", true, false},
		{"../../../examples/gramschmidt1.knl", "r", true, true},
		{"../../../examples/adi1.knl", "X", true, true},
	} {
		k, err := env.Counter.Kernel(c.kernel, nil)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, in := range k.Kernel().Statements {
			s, ok := in.(*counts.Instruction)
			if !ok || s.LHS.Array.Name != c.target {
				continue
			}
			found = true
			if got := scalarOf(k.Kernel(), false)[s.StatementID()]; got != c.scalar {
				t.Errorf("%s: %s scalar %v, want %v", c.kernel, c.target, got, c.scalar)
			}
			if got := scalarOf(k.Kernel(), true)[s.StatementID()]; got != c.unrs {
				t.Errorf("%s: %s scalar with unrolled sums %v, want %v", c.kernel, c.target, got, c.unrs)
			}
		}
		if !found {
			t.Errorf("%s: no instruction assigns %s", c.kernel, c.target)
		}
	}
	const n = 1024
	k, err := env.Counter.Kernel("../../../measurekernels/library/vector_sum.knl", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []struct {
		unrolledSums bool
		loads        int64
	}{{false, 3 * n}, {true, 0}} {
		moves, err := scalarMoves(k, map[string]int64{"n": n}, u.unrolledSums)
		if err != nil {
			t.Fatal(err)
		}
		var loads int64
		for p, v := range moves {
			if strings.HasPrefix(p, "global.load.") {
				loads += v
			}
		}
		if loads != u.loads || len(moves) > 1 {
			t.Errorf("unrolled sums %v: moves %v, want %d loads of x", u.unrolledSums, moves, u.loads)
		}
	}
	k, err = env.Counter.Kernel("../../../examples/adi1.knl", nil)
	if err != nil {
		t.Fatal(err)
	}
	moves, err := scalarMoves(k, map[string]int64{"n": 64}, true)
	if err != nil {
		t.Fatal(err)
	}
	var all int64
	for _, v := range moves {
		all += v
	}
	if all != 10*64*63 {
		t.Errorf("adi1 with unrolled sums: %d accesses move (%v), want 10 n (n - 1) = %d", all, moves, 10*64*63)
	}
}
