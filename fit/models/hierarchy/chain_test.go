package hierarchy

import (
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/fit/models"
)

// TestChains checks which instructions carry a value through global
// memory against the kernels' text, read by hand: gemver3 and atax1
// add into w[i] and tmp[i] in the loop over j; gemm's scale of c runs
// once and its accumulation adds in the loop over k; adi1's statements
// read X and B at i2 - 1, stored the iteration before; gesummv has two
// accumulations and a final combine outside the loop; gramschmidt3's
// update of a reads and writes a[i2...] in the same iteration of i2
// (no chain) while its dot product adds into r in the loop over i;
// lu2, pathfinder and fan1 have no sequential loop; cn_pnpoly carries
// c through a private temporary, not global memory. testdata/chains.knl
// reads a[k - 2] (stored two iterations before: a chain), b[k + 1] and
// c's neighbour column (not yet stored, or another work-item's), d at k
// (the same iteration's cell), and adds d's column into s[i] in the
// loop (a chain).
func TestChains(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files)}
	for _, c := range []struct {
		kernel string
		want   []string // the arrays the chain instructions store
	}{
		{"../../../examples/gemver3.knl", []string{"w"}},
		{"../../../examples/atax1.knl", []string{"tmp"}},
		{"../../../examples/gemm.knl", []string{"c"}},
		{"../../../examples/adi1.knl", []string{"X", "B"}},
		{"../../../examples/gesummv.knl", []string{"tmp", "y"}},
		{"../../../examples/gramschmidt3.knl", []string{"r"}},
		{"../../../examples/lu2.knl", nil},
		{"../../../examples/pathfinder.knl", nil},
		{"../../../examples/fan1.knl", nil},
		{"../../../examples/cn_pnpoly.knl", nil},
		{"../../../examples/jacobi1d1.knl", nil},
		{"../../../measurekernels/library/accumulate_global.knl", []string{"out"}},
		{"../../../measurekernels/library/matmul_tiled.knl", nil},
		{"testdata/chains.knl", []string{"a", "s"}},
	} {
		k, err := env.Counter.Kernel(c.kernel, nil)
		if err != nil {
			t.Fatal(err)
		}
		chains := Chains(k.Kernel())
		var got []string
		for _, s := range k.Kernel().Statements {
			if in, ok := s.(*counts.Instruction); ok {
				if _, ok := chains[in.StatementID()]; ok {
					got = append(got, in.LHS.Array.Name)
				}
			}
		}
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%s: chains store %v, want %v", c.kernel, got, c.want)
		}
	}
}

// TestChainStepsClosedForms checks the chain steps against closed forms
// derived by hand, and against the stores the reference interpreter
// executed for the chain instructions: gemver3's w[i] += ... runs at
// n x n points, accumulate_global's out[i] += a[k, i] at n x nk (its
// init is no step), atax1's tmp[i] += ... at nx x ny, adi1's two
// statements at n (n - 1) points each (i2 >= 1), a 2-D accumulation
// (gemm's c += ... over k) at ni nj nk, testdata/chains.knl's two
// chains at n (m - 2) points each; fan1 has none.
func TestChainStepsClosedForms(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files)}
	for _, c := range []struct {
		kernel string
		params map[string]int64
		want   int64
	}{
		{"../../../examples/gemver3.knl", map[string]int64{"n": 256}, 256 * 256},
		{"../../../examples/gemver3.knl", map[string]int64{"n": 300}, 300 * 300},
		{"../../../measurekernels/library/accumulate_global.knl", map[string]int64{"n": 512, "nk": 7}, 512 * 7},
		{"../../../examples/atax1.knl", map[string]int64{"nx": 256, "ny": 33}, 256 * 33},
		{"../../../examples/adi1.knl", map[string]int64{"n": 64}, 2 * 64 * 63},
		{"../../../examples/gemm.knl", map[string]int64{"ni": 32, "nj": 48, "nk": 5}, 32 * 48 * 5},
		{"../../../examples/fan1.knl", map[string]int64{"Size": 256, "t": 1}, 0},
		{"testdata/chains.knl", map[string]int64{"n": 128, "m": 10}, 2 * 128 * 8},
	} {
		k, err := env.Counter.Kernel(c.kernel, nil)
		if err != nil {
			t.Fatal(err)
		}
		steps, err := chainSteps(k, c.params)
		if err != nil {
			t.Fatalf("%s %v: %v", c.kernel, c.params, err)
		}
		if got := steps[ChainPrefix+"f32"]; got != c.want || len(steps) > 1 {
			t.Errorf("%s %v: chain steps %v, want %s%d", c.kernel, c.params, steps, ChainPrefix+"f32 ", c.want)
		}
		if ran := interpretedChainStores(t, k.Kernel(), c.params); ran != c.want {
			t.Errorf("%s %v: the interpreter stored %d times in the chain instructions, want %d", c.kernel, c.params, ran, c.want)
		}
	}
}

// interpretedChainStores runs k with the reference interpreter and
// returns the global stores its chain instructions executed.
func interpretedChainStores(t *testing.T, k *counts.Kernel, params map[string]int64) int64 {
	t.Helper()
	tally := runFilled(t, k, params)
	var n int64
	for id := range Chains(k) {
		for p, v := range tally.Statements[id] {
			if strings.HasPrefix(p, "global.store.") {
				n += v
			}
		}
	}
	return n
}

// TestChainsBruteForce checks Chains against an enumeration: every
// work-item (the parallel inames' values) runs its sequential loop in
// order, and an instruction is a chain where one of its loads of the
// array it stores reads a cell it stored at an earlier iteration, the
// subscripts evaluated at every point of the box domain.
func TestChainsBruteForce(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files)}
	for _, c := range []struct {
		kernel   string
		params   map[string]int64
		split    string // the split iname, whose _in and _out parts the subscripts may name
		lx       int64
		parallel map[string][2]int64
		loop     string
		lo, hi   int64
	}{
		{"testdata/chains.knl", map[string]int64{"n": 128, "m": 10}, "i", 64, map[string][2]int64{"i": {0, 128}}, "k", 2, 10},
		{"../../../examples/gemver3.knl", map[string]int64{"n": 40}, "i", 256, map[string][2]int64{"i": {0, 40}}, "j", 0, 40},
		{"../../../examples/adi1.knl", map[string]int64{"n": 20}, "i1", 256, map[string][2]int64{"i1": {0, 20}}, "i2", 1, 20},
		{"../../../examples/atax1.knl", map[string]int64{"nx": 12, "ny": 9}, "i", 256, map[string][2]int64{"i": {0, 12}}, "j", 0, 9},
		{"../../../measurekernels/library/accumulate_global.knl", map[string]int64{"n": 12, "nk": 5}, "i", 256, map[string][2]int64{"i": {0, 12}}, "k", 0, 5},
	} {
		k, err := env.Counter.Kernel(c.kernel, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := Chains(k.Kernel())
		got := bruteChains(t, k.Kernel(), c.params, c.split, c.lx, c.parallel, c.loop, c.lo, c.hi)
		for _, s := range k.Kernel().Statements {
			in, ok := s.(*counts.Instruction)
			if !ok {
				continue
			}
			if _, w := want[in.StatementID()]; w != got[in.StatementID()] {
				t.Errorf("%s: %s: Chains says %v, the enumeration %v", c.kernel, in.StatementID(), w, got[in.StatementID()])
			}
		}
	}
}

// bruteChains enumerates a kernel with one parallel iname (split by lx
// into split_out and split_in) and one sequential loop over [lo, hi).
func bruteChains(t *testing.T, k *counts.Kernel, params map[string]int64, split string, lx int64,
	parallel map[string][2]int64, loop string, lo, hi int64) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	flat := func(a *counts.Access, vals map[string]int64) int64 {
		if len(a.Index) != 1 {
			t.Fatalf("%s: want one subscript", a)
		}
		v, err := a.Index[0].Eval(vals)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	r := parallel[split]
	for p := r[0]; p < r[1]; p++ {
		stored := map[string]map[int64]bool{} // by statement: the cells stored so far
		for it := lo; it < hi; it++ {
			vals := map[string]int64{split: p, split + "_in": p % lx, split + "_out": p / lx, loop: it}
			for n, v := range params {
				vals[n] = v
			}
			for _, s := range k.Statements {
				in, ok := s.(*counts.Instruction)
				if !ok || !slices.Contains(in.Within, loop) || in.LHS.Array.Space != counts.Global {
					continue
				}
				id := in.StatementID()
				counts.Walk(in.RHS, func(e counts.Expr) bool {
					if a, ok := e.(*counts.Access); ok && a.Array == in.LHS.Array && stored[id][flat(a, vals)] {
						out[id] = true
					}
					return true
				})
				if stored[id] == nil {
					stored[id] = map[int64]bool{}
				}
				stored[id][flat(in.LHS, vals)] = true
			}
		}
	}
	return out
}

// TestChainStepTypes checks that chains are named by their memory's
// name, as the loads and stores that price them are: u32's by i32's
// (one 32-bit access whatever its signedness), u8's and i16's by b8 and
// b16. Each of testdata/chaintypes.knl's four chains takes n x m steps:
// two 32-bit ones, one 8-bit, one 16-bit.
func TestChainStepTypes(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files)}
	k, err := env.Counter.Kernel("testdata/chaintypes.knl", nil)
	if err != nil {
		t.Fatal(err)
	}
	const n, m = 32, 5
	got, err := chainSteps(k, map[string]int64{"n": n, "m": m})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{ChainPrefix + "i32": 2 * n * m, ChainPrefix + "b8": n * m, ChainPrefix + "b16": n * m}
	if !mapsEqual(got, want) {
		t.Errorf("chain steps %v, want %v", got, want)
	}
}
