package counts

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// langCheck is a kernel of testdata/lang (conditions, bitwise operators,
// loopy's spellings) at const settings and parameters where the splits
// do not divide, and the smallest sizes allowed.
type langCheck struct {
	consts map[string]int64
	params []map[string]int64
}

var langChecks = map[string][]langCheck{
	"edgehalo":         {{nil, []map[string]int64{{"n": 37}, {"n": 32}, {"n": 1}}}},
	"block256":         {{nil, []map[string]int64{{"n": 100}, {"n": 300}, {"n": 1}}}},
	"box16":            {{nil, []map[string]int64{{"w": 10, "h": 20}, {"w": 33, "h": 5}}}},
	"tiedlane":         {{nil, []map[string]int64{{"n": 10}, {"n": 100}}}},
	"loopy_logic":      {{nil, []map[string]int64{{"n": 3, "m": 13, "ell": 3}, {"n": 2, "m": 21, "ell": 10}, {"n": 2, "m": 7, "ell": 4}, {"n": 1, "m": 1, "ell": 1}}}},
	"loopy_bitwise":    {{nil, []map[string]int64{{"n": 3, "m": 5, "ell": 4}, {"n": 1, "m": 1, "ell": 1}}}},
	"loopy_specialops": {{nil, []map[string]int64{{"n": 3, "m": 5, "ell": 4}, {"n": 1, "m": 1, "ell": 1}}}},
	"predicated": {{map[string]int64{"LX": 16}, []map[string]int64{{"n": 37}, {"n": 16}, {"n": 4}, {"n": 2}, {"n": 1}}},
		{map[string]int64{"LX": 5}, []map[string]int64{{"n": 37}, {"n": 3}}}},
	"ifonce": {{map[string]int64{"LX": 16}, []map[string]int64{{"n": 37, "m": 5}, {"n": 2, "m": 1}, {"n": 1, "m": 1}}},
		{map[string]int64{"LX": 5}, []map[string]int64{{"n": 37, "m": 5}, {"n": 3, "m": 2}}}},
	"datadep": {{map[string]int64{"LX": 16}, []map[string]int64{{"n": 37}, {"n": 1}}}},
	"guarded": {{map[string]int64{"LX": 16}, []map[string]int64{{"n": 37}, {"n": 5}, {"n": 2}, {"n": 1}}},
		{map[string]int64{"LX": 5}, []map[string]int64{{"n": 37}, {"n": 3}}}},
	"lazy":               {{map[string]int64{"LX": 8}, []map[string]int64{{"n": 11, "m": 5}, {"n": 1, "m": 1}}}},
	"manyrefs":           {{map[string]int64{"LX": 4}, []map[string]int64{{"n": 37}, {"n": 6}, {"n": 2}, {"n": 1}}}},
	"shifts":             {{map[string]int64{"LX": 16}, []map[string]int64{{"n": 37}, {"n": 1}}}},
	"matmul_blocks":      {{map[string]int64{"T": 8}, []map[string]int64{{"n": 17, "m": 13, "ell": 9}, {"n": 1, "m": 1, "ell": 1}}}},
	"flat":               {{nil, flatParams}},
	"affinetemp":         {{nil, affineTempParams}},
	"affinetemp_written": {{nil, affineTempParams}},
	"compound":           {{nil, []map[string]int64{{"n": 4, "m": 10}, {"n": 3, "m": 7}, {"n": 1, "m": 1}}}},
	"globaltemp":         {{nil, []map[string]int64{{"n": 3, "m": 5, "ell": 7}, {"n": 1, "m": 1, "ell": 1}}}},
	"domainguard":        {{map[string]int64{"T": 8}, []map[string]int64{{"n": 37}, {"n": 9}, {"n": 3}}}},
	"modsub":             {{nil, []map[string]int64{{"n": 5}, {"n": 4}, {"n": 1}}}},
	"scalars":            {{map[string]int64{"LX": 16}, []map[string]int64{{"n": 37}, {"n": 1}}}},
	"minmax":             {{map[string]int64{"LX": 16}, []map[string]int64{{"n": 37}, {"n": 1}}}},
	"casts":              {{map[string]int64{"LX": 16}, []map[string]int64{{"n": 37}, {"n": 1}}}},
	"fold":               {{map[string]int64{"LX": 16}, []map[string]int64{{"n": 37}, {"n": 1}}}},
	"readonly":           {{nil, []map[string]int64{{"n": 37}, {"n": 1}}}},
	"narrow":             {{nil, []map[string]int64{{"n": 37}, {"n": 1}}}},
	"unsigned":           {{nil, []map[string]int64{{"n": 37}, {"n": 1}}}},
	"halfstore":          {{nil, []map[string]int64{{"n": 37}, {"n": 1}}}},
	"staticif": {{map[string]int64{"BS": 32}, []map[string]int64{{"n": 37}, {"n": 1}}},
		{map[string]int64{"BS": 12}, []map[string]int64{{"n": 37}, {"n": 1}}},
		{map[string]int64{"BS": 4, "LX": 8}, []map[string]int64{{"n": 37}, {"n": 1}}}},
}

// flatParams are sizes for testdata/lang/flat.knl where the split does not
// divide and the smallest.
var flatParams = []map[string]int64{{"nx": 9, "ny": 5, "nz": 3}, {"nx": 4, "ny": 2, "nz": 2}, {"nx": 1, "ny": 1, "nz": 1}}

// langBreakdownCases are the kernels of testdata/lang whose counts are
// exact, as breakdown cases at the parameters of langChecks.
func langBreakdownCases() []breakdownCase {
	var out []breakdownCase
	for _, name := range []string{"loopy_logic", "loopy_bitwise", "loopy_specialops", "predicated", "matmul_blocks", "manyrefs", "shifts"} {
		src, err := os.ReadFile(filepath.Join("testdata", "lang", name+".knl"))
		if err != nil {
			panic(err)
		}
		for _, lc := range langChecks[name] {
			for _, p := range lc.params {
				out = append(out, breakdownCase{name: name, src: src, consts: lc.consts, params: p})
			}
		}
	}
	return out
}

func langKernel(t *testing.T, name string, consts map[string]int64) *Kernel {
	t.Helper()
	file := filepath.Join("testdata", "lang", name+".knl")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	k, err := ParseKernel(file, src, consts)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestLangKernels counts every kernel of testdata/lang symbolically and
// compares the counts with the counting plan evaluated by enumeration and
// with what the reference interpreter executed: equal where the counts
// are exact, at least as large where they are upper bounds.
func TestLangKernels(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "lang", "*.knl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no kernels in testdata/lang: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".knl")
		checks, ok := langChecks[name]
		if !ok {
			t.Errorf("kernel %s has no check", name)
		}
		for _, lc := range checks {
			k := langKernel(t, name, lc.consts)
			c, err := Count(k)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range lc.params {
				t.Run(fmt.Sprintf("%s/%v/%v", name, lc.consts, p), func(t *testing.T) {
					got := sumClasses(checkCountAgainstPlan(t, k, c, p))
					if len(c.Bounds()) == 0 {
						compareProps(t, got, checkPlanAgainstRun(t, k, p))
						return
					}
					compareBounded(t, c, got, runTotals(t, k, p))
				})
			}
		}
	}
}

func runTotals(t *testing.T, k *Kernel, params map[string]int64) map[string]int64 {
	t.Helper()
	tl, err := Run(k, params, randomArrays(t, k, params), nil)
	if err != nil {
		t.Fatal(err)
	}
	return tl.Totals()
}

// compareBounded compares counts (classes summed) with an interpreter's
// totals: a property with upper-bound classes may exceed the run, the
// others must equal it.
func compareBounded(t *testing.T, c *Counted, counts, run map[string]int64) {
	t.Helper()
	upper := map[string]bool{}
	for _, name := range c.Bounds() {
		if i := strings.Index(name, ".stride="); i >= 0 {
			name = name[:i]
		}
		upper[name] = true
	}
	names := map[string]bool{}
	for n := range counts {
		names[n] = true
	}
	for n := range run {
		names[n] = true
	}
	for _, name := range slices.Sorted(maps.Keys(names)) {
		got, want := counts[name], run[name]
		switch {
		case upper[name] && got < want:
			t.Errorf("%s: upper bound %d below the run's %d", name, got, want)
		case !upper[name] && got != want:
			t.Errorf("%s: count %d, run %d", name, got, want)
		}
	}
}

// TestLangHandCounts checks the counts of the language test kernels
// against counts derived by hand: loopy's statistics tests, transcribed,
// and the upper bounds of data-dependent conditions.
func TestLangHandCounts(t *testing.T) {
	// loopy_logic: the branch taken at k depends on k and ell only; each of
	// the n rows takes it. ell - 2 is computed everywhere, 2*ell where the
	// first operand of or fails.
	logic := func(n, m, ell int64) map[string]int64 {
		var then, first int64
		for k := range m {
			a := k >= ell-2 && k > 6
			if a || k == 2*ell {
				then++
			}
			if a {
				first++
			}
		}
		els := m - then
		return map[string]int64{"flop.f32.mul": n * then, "flop.f64.add": n * els, "flop.f64.div": n * els,
			"int.i32.add": n * m, "int.i32.mul": n * (m - first), "global.load.f32.stride=0": n * m,
			"global.load.f64.stride=0": n * els, "global.store.f64.stride=0": n * m, "global.minldst.f64.stride=0": n * els,
			"launch.groups": 1, "launch.const": 1}
	}
	// loopy_bitwise: per (i, j, k) one | and one & on i32, one add; per
	// (i, k) one ^ and one ~, one << and one >> on i64, a mul and an add.
	bitwise := func(n, m, ell int64) map[string]int64 {
		nlm, nm := n*ell*m, n*m
		return map[string]int64{"int.i32.bitwise": 2 * nlm, "int.i32.add": nlm, "int.i64.bitwise": 2 * nm,
			"int.i64.shift": 2 * nm, "int.i64.mul": nm, "int.i64.add": nm,
			"global.load.i32.stride=0": 2 * nlm, "global.store.i32.stride=0": nlm, "global.minldst.i32.stride=0": nlm,
			"global.load.i64.stride=0": 4 * nm, "global.store.i64.stride=0": nm, "global.minldst.i64.stride=0": nm,
			"launch.groups": 1, "launch.const": 1}
	}
	// loopy_specialops: per (i, j, k) an fmod, a mul, an add and a div on
	// f32; per (i, k) a pow, three adds, rsqrt and sin and a mul on f64.
	special := func(n, m, ell int64) map[string]int64 {
		nlm, nm := n*ell*m, n*m
		return map[string]int64{"flop.f32.fmod": nlm, "flop.f32.mul": nlm, "flop.f32.add": nlm, "flop.f32.div": nlm,
			"flop.f64.pow": nm, "flop.f64.add": 3 * nm, "flop.f64.special": 2 * nm, "flop.f64.mul": nm,
			"global.load.f32.stride=0": 2 * nlm, "global.store.f32.stride=0": nlm, "global.minldst.f32.stride=0": nlm,
			"global.load.f64.stride=0": 4 * nm, "global.store.f64.stride=0": nm, "global.minldst.f64.stride=0": nm,
			"launch.groups": 1, "launch.const": 1}
	}
	// guarded, as if its data-dependent conditions held and its affine
	// ones bound what they guard: insn_0 loads a where i < 4 for its
	// predicate and then stores out and loads a and takes a sqrt there;
	// insn_1 loads a everywhere, computes n - 3 where that holds (a
	// bound), and loads and stores out and adds where i >= n - 3; insn_2
	// computes i % 2 everywhere (an AND with 1, a bitwise operation),
	// loads a in even rows, and multiplies,
	// loads and stores out there; insn_3 loads a everywhere, and loads,
	// subtracts and stores out where i <= 5.
	guarded := func(n int64) map[string]int64 {
		c3, c4, c6, even := min(n, 3), min(n, 4), min(n, 6), (n+1)/2
		stores := c4 + c3 + even + c6
		return map[string]int64{"global.load.f32.stride=1": 2*c4 + n + c3 + 2*even + n + c6,
			"global.store.f32.stride=1": stores, "global.minldst.f32.stride=1": stores,
			"flop.f32.special": c4, "flop.f32.add": c3 + c6, "flop.f32.mul": even, "int.i32.add": n, "int.i32.bitwise": n,
			"launch.groups": (n + 15) / 16, "launch.const": 1}
	}
	cases := []struct {
		name   string
		params map[string]int64
		want   map[string]int64
	}{
		{"guarded", map[string]int64{"n": 37}, guarded(37)},
		{"guarded", map[string]int64{"n": 5}, guarded(5)},
		{"guarded", map[string]int64{"n": 2}, guarded(2)},
		{"guarded", map[string]int64{"n": 100000}, guarded(100000)},
		{"loopy_logic", map[string]int64{"n": 512, "m": 256, "ell": 128}, logic(512, 256, 128)},
		{"loopy_logic", map[string]int64{"n": 3, "m": 40, "ell": 9}, logic(3, 40, 9)},
		{"loopy_logic", map[string]int64{"n": 5, "m": 6, "ell": 2}, logic(5, 6, 2)},
		{"loopy_bitwise", map[string]int64{"n": 512, "m": 256, "ell": 128}, bitwise(512, 256, 128)},
		{"loopy_specialops", map[string]int64{"n": 512, "m": 256, "ell": 128}, special(512, 256, 128)},
		// datadep, as if every condition held: insn_0 loads a and b,
		// stores out and takes a sqrt; insn_1 loads a three times and b
		// once for select, a and b for the and, a for exp and a twice for
		// the product, adds once, multiplies twice and stores b.
		{"datadep", map[string]int64{"n": 37}, map[string]int64{"global.load.f32.stride=1": 10 * 37,
			"global.store.f32.stride=1": 2 * 37, "global.minldst.f32.stride=1": 2 * 37, "flop.f32.special": 37,
			"flop.f32.add": 37, "flop.f32.mul": 2 * 37, "flop.f32.exp": 37, "launch.groups": 3, "launch.const": 1}},
	}
	for _, c := range cases {
		k := langKernel(t, c.name, nil)
		counted, err := Count(k)
		if err != nil {
			t.Fatal(err)
		}
		got, err := counted.Eval(c.params)
		if err != nil {
			t.Fatal(err)
		}
		for name, v := range c.want {
			if v == 0 {
				delete(c.want, name)
			}
		}
		t.Run(fmt.Sprintf("%s/%v", c.name, c.params), func(t *testing.T) { compareProps(t, got, c.want) })
	}
	k := langKernel(t, "datadep", nil)
	counted, err := Count(k)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"flop.f32.exp", "flop.f32.mul", "flop.f32.special", "global.load.f32.stride=1",
		"global.minldst.f32.stride=1", "global.store.f32.stride=1"}
	if got := counted.Bounds(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("datadep: upper bounds %v, want %v", got, want)
	}
	if counted.UpperBound("flop.f32.add") || !counted.UpperBound("flop.f32.exp") {
		t.Errorf("datadep: flop.f32.add is exact and flop.f32.exp an upper bound")
	}
}

// TestForBlocksAreInamesAnnotations counts the tiled matrix
// multiplication written with for blocks and with inames= annotations
// (the library's matmul_tiled): the counts are the same.
func TestForBlocksAreInamesAnnotations(t *testing.T) {
	blocks, err := Count(langKernel(t, "matmul_blocks", map[string]int64{"T": 8}))
	if err != nil {
		t.Fatal(err)
	}
	_, tiled := countedLibraryKernel(t, "matmul_tiled", map[string]int64{"LX": 8, "LY": 8})
	for _, p := range []map[string]int64{{"n": 17, "m": 13, "ell": 9}, {"n": 1000, "m": 77, "ell": 300}} {
		a, err := blocks.Eval(p)
		if err != nil {
			t.Fatal(err)
		}
		b, err := tiled.Eval(p)
		if err != nil {
			t.Fatal(err)
		}
		compareProps(t, a, b)
	}
}

// BenchmarkCountLangKernels counts every kernel of testdata/lang: the
// unions that !=, or and negated conditions make, and the data-dependent
// conditions' upper bounds.
func BenchmarkCountLangKernels(b *testing.B) {
	files, err := filepath.Glob(filepath.Join("testdata", "lang", "*.knl"))
	if err != nil {
		b.Fatal(err)
	}
	var ks []*Kernel
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		k, err := ParseKernel(f, src, nil)
		if err != nil {
			b.Fatal(err)
		}
		ks = append(ks, k)
	}
	for b.Loop() {
		for _, k := range ks {
			if _, err := Count(k); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// TestUpperBoundMinimum checks that min(loads, stores) is marked an upper
// bound where its loads are, in the symbolic listing (stride class with
// the placeholder k) as at given parameters: the minimum of an upper
// bound and a count bounds the minimum of the counts.
func TestUpperBoundMinimum(t *testing.T) {
	k, err := ParseKernel("strided.knl", []byte(`kernel strided
const LX = 16
domain [n] -> { [i] : 0 <= i and 2*i < n }
assume n >= 1
array a f32 [n]
array b f32 [n]
split i LX i_out i_in
tag i_out g.0, i_in l.0
b[2*i] = a[2*i] {if=a[2*i] > 1}
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Count(k)
	if err != nil {
		t.Fatal(err)
	}
	props, err := c.Properties()
	if err != nil {
		t.Fatal(err)
	}
	marked := map[string]bool{}
	for _, p := range props {
		marked[p.Name] = p.UpperBound
	}
	for _, name := range []string{"global.load.f32.stride=k/2", "global.store.f32.stride=k/2", "global.minldst.f32.stride=k/2"} {
		if !marked[name] {
			t.Errorf("%s is not marked an upper bound: %v", name, marked)
		}
	}
	for _, name := range []string{"global.load.f32.stride=1/2", "global.store.f32.stride=1/2", "global.minldst.f32.stride=1/2"} {
		if !c.UpperBound(name) {
			t.Errorf("%s is not an upper bound at given parameters: %v", name, c.Bounds())
		}
	}
}
