package counts

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts/half"

	"github.com/uniperf/uniperf/measurekernels/library"
)

// planCheck is one kernel at one parameter point for the comparison of
// the counting plan, evaluated by enumeration, with an interpreter run.
type planCheck struct {
	kernel string
	consts map[string]int64
	params map[string]int64
}

func planChecks() []planCheck {
	s2 := map[string]int64{"LX": 4, "LY": 3}
	l1 := map[string]int64{"LX": 8}
	var out []planCheck
	add := func(kernel string, consts map[string]int64, params ...map[string]int64) {
		for _, p := range params {
			out = append(out, planCheck{kernel, consts, p})
		}
	}
	add("matmul_tiled", s2, map[string]int64{"n": 10, "m": 7, "ell": 9}, map[string]int64{"n": 6, "m": 6, "ell": 8}, map[string]int64{"n": 1, "m": 1, "ell": 1})
	add("matmul_skinny", s2, map[string]int64{"n": 5, "m": 17})
	add("matmul_naive", s2, map[string]int64{"n": 7}, map[string]int64{"n": 12})
	for _, st := range []int64{1, 2, 3} {
		add("vector_scale_add", map[string]int64{"LX": 8, "STRIDE": st}, map[string]int64{"n": 37}, map[string]int64{"n": 48}, map[string]int64{"n": 1})
	}
	for _, st := range []int64{2, 3} {
		for _, k := range []string{"global_copy_strided", "global_store_strided"} {
			add(k, map[string]int64{"LX": 8, "STRIDE": st}, map[string]int64{"n": 37}, map[string]int64{"n": 48}, map[string]int64{"n": 1})
		}
	}
	add("transpose_prefetch", s2, map[string]int64{"n": 10}, map[string]int64{"n": 4})
	add("transpose_prefetch", map[string]int64{"LX": 8, "LY": 2}, map[string]int64{"n": 13})
	add("transpose_write_coalesced", s2, map[string]int64{"n": 9})
	add("transpose_read_coalesced", s2, map[string]int64{"n": 9})
	add("global_copy", l1, map[string]int64{"n": 21})
	add("global_add4", l1, map[string]int64{"n": 21})
	add("global_store_index", l1, map[string]int64{"n": 16})
	add("stride2_filled", l1, map[string]int64{"n": 21}, map[string]int64{"n": 16})
	add("stride3_filled", l1, map[string]int64{"n": 21})
	add("empty", s2, map[string]int64{"n": 10})
	add("empty_1d", l1, map[string]int64{"n": 21}, map[string]int64{"n": 1})
	add("grid_fill_chain", l1, map[string]int64{"ng": 3, "nk": 5}, map[string]int64{"ng": 1, "nk": 2})
	add("grid_fill_stream", l1, map[string]int64{"ng": 3, "nk": 5}, map[string]int64{"ng": 2, "nk": 1})
	add("grid_fill_local", l1, map[string]int64{"ng": 3, "nr": 2}, map[string]int64{"ng": 1, "nr": 1})
	add("grid_fill_local", map[string]int64{"LX": 64}, map[string]int64{"ng": 2, "nr": 1})
	add("local_bank", map[string]int64{"LX": 32, "R": 4, "S": 2}, map[string]int64{"n": 64})
	for _, t := range []string{"i32", "i64"} {
		add("global_int_"+t, map[string]int64{"LX": 8, "R": 4}, map[string]int64{"n": 21}, map[string]int64{"n": 1})
		add("local_int_"+t, map[string]int64{"LX": 32, "R": 4}, map[string]int64{"n": 64})
	}
	for _, t := range []string{"int_u8", "int_u16", "f16"} {
		add("global_"+t, map[string]int64{"LX": 8, "R": 4}, map[string]int64{"n": 21}, map[string]int64{"n": 1})
	}
	add("reg_chain_f32", map[string]int64{"LX": 8, "K": 4}, map[string]int64{"n": 21, "nl": 3}, map[string]int64{"n": 1, "nl": 1})
	add("reg_chain_f64", map[string]int64{"LX": 8, "K": 2}, map[string]int64{"n": 21, "nl": 3})
	add("scalar_chain_i32", l1, map[string]int64{"n": 21, "nl": 3, "c": 13}, map[string]int64{"n": 1, "nl": 1, "c": -5})
	add("scalar_chain_i64", l1, map[string]int64{"n": 21, "nl": 3, "c": 13})
	add("scalar_sum_f32", l1, map[string]int64{"n": 21, "nl": 3}, map[string]int64{"n": 1, "nl": 1})
	add("guarded_lanes_f32", map[string]int64{"LX": 8, "K": 4}, map[string]int64{"n": 21, "nl": 3}, map[string]int64{"n": 1, "nl": 1})
	add("local_stores", map[string]int64{"LX": 8, "S": 4}, map[string]int64{"n": 24, "nr": 3})
	add("local_tile", map[string]int64{"LX": 8, "C": 5}, map[string]int64{"n": 24, "nr": 3})
	add("local_atomic_i32", map[string]int64{"LX": 8, "K": 4}, map[string]int64{"n": 24, "nr": 3})
	add("local_context", map[string]int64{"LX": 8, "S": 12}, map[string]int64{"n": 24, "nr": 3})
	add("uniform_store_u8", map[string]int64{"LX": 8}, map[string]int64{"n": 21}, map[string]int64{"n": 1})
	add("global_ldg_f32", map[string]int64{"LX": 8, "R": 4}, map[string]int64{"n": 21}, map[string]int64{"n": 1})
	add("global_ldg_i32", map[string]int64{"LX": 8, "R": 4}, map[string]int64{"n": 21}, map[string]int64{"n": 1})
	add("global_ldg_strided_f32", map[string]int64{"LX": 8, "STRIDE": 3, "U": 1}, map[string]int64{"n": 21}, map[string]int64{"n": 1})
	add("global_ldg_strided_i32", map[string]int64{"LX": 8, "STRIDE": 2, "U": 2}, map[string]int64{"n": 21}, map[string]int64{"n": 1})
	add("global_strided_i32", map[string]int64{"LX": 8, "STRIDE": 3, "R": 4}, map[string]int64{"n": 37}, map[string]int64{"n": 1})
	add("global_strided_i32", map[string]int64{"LX": 8, "STRIDE": 2, "S": 2}, map[string]int64{"n": 38})
	add("vector_sum_i32", map[string]int64{"LX": 8, "D": 2}, map[string]int64{"n": 21}, map[string]int64{"n": 1})
	add("scaled_sum_i32", map[string]int64{"LX": 8, "K": 3}, map[string]int64{"n": 21}, map[string]int64{"n": 1})
	add("scaled_sum_ldg", map[string]int64{"LX": 8, "K": 3}, map[string]int64{"n": 21}, map[string]int64{"n": 1})
	add("scaled_sum_ldg_i32", map[string]int64{"LX": 8, "K": 3}, map[string]int64{"n": 21}, map[string]int64{"n": 1})
	add("transpose_read_coalesced_i32", s2, map[string]int64{"n": 9})
	add("transpose_write_coalesced_i32", s2, map[string]int64{"n": 9})
	add("transpose_ldg_f32", s2, map[string]int64{"n": 9}, map[string]int64{"n": 1})
	add("transpose_ldg_i32", s2, map[string]int64{"n": 10})
	for _, t := range []string{"i32", "f32"} {
		add("atomic_add_"+t, map[string]int64{"LX": 8, "K": 4}, map[string]int64{"n": 21}, map[string]int64{"n": 1})
	}
	add("gather_f32", map[string]int64{"LX": 8, "R": 4}, map[string]int64{"n": 21}, map[string]int64{"n": 1})
	add("gather_i32", map[string]int64{"LX": 8, "R": 4}, map[string]int64{"n": 21}, map[string]int64{"n": 1})
	add("scatter_f32", map[string]int64{"LX": 8, "S": 4}, map[string]int64{"n": 21}, map[string]int64{"n": 1})
	add("finite_diff", s2, map[string]int64{"n": 11}, map[string]int64{"n": 3})
	add("nbody", l1, map[string]int64{"n": 19}, map[string]int64{"n": 2}, map[string]int64{"n": 9})
	add("convolution", s2, map[string]int64{"n": 5})
	add("sumsq", map[string]int64{"LX": 8, "D": 2}, map[string]int64{"n": 21}, map[string]int64{"n": 1})
	add("inv_norm", l1, map[string]int64{"n": 21}, map[string]int64{"n": 16})
	add("scaled_sum", map[string]int64{"LX": 8, "K": 3}, map[string]int64{"n": 21}, map[string]int64{"n": 1})
	add("fan_out", map[string]int64{"LX": 8, "S": 3}, map[string]int64{"n": 21}, map[string]int64{"n": 1})
	add("fan_in", map[string]int64{"LX": 8, "S": 3}, map[string]int64{"n": 21}, map[string]int64{"n": 1})
	add("reuse_group", map[string]int64{"LX": 8, "K": 5}, map[string]int64{"n": 21}, map[string]int64{"n": 1})
	add("reread_l2", l1, map[string]int64{"n": 21, "nr": 3}, map[string]int64{"n": 1, "nr": 1})
	add("reread_dram", l1, map[string]int64{"n": 21, "nr": 3}, map[string]int64{"n": 1, "nr": 1})
	add("column_walk", l1, map[string]int64{"n": 21, "nr": 3, "p": 32}, map[string]int64{"n": 1, "nr": 1, "p": 1})
	add("accumulate_global", l1, map[string]int64{"n": 21, "nk": 3}, map[string]int64{"n": 1, "nk": 1})
	add("core_fill", l1, map[string]int64{"ng": 3, "nk": 3}, map[string]int64{"ng": 1, "nk": 1})
	for _, t := range []string{"f32", "f64"} {
		add("arith_mix_"+t, s2, map[string]int64{"n": 5, "na": 3, "nb": 2, "nc": 1, "nd": 2})
	}
	for _, t := range []string{"i32", "i64"} {
		add("arith_int_"+t, s2, map[string]int64{"n": 5, "na": 2, "nb": 1, "nc": 3, "nd": 1, "ne": 2, "c": 13})
	}
	for _, t := range []string{"i32", "i64"} {
		add("arith_intspecial_"+t, s2, map[string]int64{"n": 5, "ns": 2, "c": 13})
	}
	add("matvec_t", l1, map[string]int64{"m": 5, "n": 21}, map[string]int64{"m": 1, "n": 8})
	add("matvec_t_unrolled", map[string]int64{"LX": 8, "M": 5}, map[string]int64{"n": 21}, map[string]int64{"n": 1})
	add("vector_sum", map[string]int64{"LX": 8, "D": 2}, map[string]int64{"n": 21}, map[string]int64{"n": 1})
	for _, op := range []string{"add", "mul", "div", "pow", "rsqrt"} {
		for _, t := range []string{"f32", "f64"} {
			add("arith_"+op+"_"+t, s2, map[string]int64{"n": 5, "nk": 3})
		}
	}
	return out
}

// randomArrays makes arrays of the kernel's global arrays at params with
// small random values (positive, so that rsqrt and pow stay finite; u8
// bytes not 0, so that uniform_store_u8's condition on its byte holds in
// every work-item and the plan's upper bound is what runs; i32 cells
// their subscript along the last axis).
func randomArrays(t *testing.T, k *Kernel, params map[string]int64) map[string]any {
	rng := rand.New(rand.NewPCG(1, 2))
	arrays := map[string]any{}
	for _, a := range k.Arrays {
		if a.Space != Global {
			continue
		}
		n := int64(1)
		for _, s := range a.Shape {
			v, err := s.Eval(params)
			if err != nil {
				t.Fatal(err)
			}
			n *= v
		}
		switch a.DType {
		case F32:
			s := make([]float32, n)
			for i := range s {
				s[i] = 1 + rng.Float32()
			}
			arrays[a.Name] = s
		case F64:
			s := make([]float64, n)
			for i := range s {
				s[i] = 1 + rng.Float64()
			}
			arrays[a.Name] = s
		case I32:
			// Each cell holds its subscript along the last axis: an
			// index array (its rows) is then a permutation, the
			// identity, and a scatter through one (scatter_f32) stores
			// each cell once, as through the measurement's random
			// permutations.
			s, last := make([]int32, n), int64(1)
			if len(a.Shape) > 0 {
				v, err := a.Shape[len(a.Shape)-1].Eval(params)
				if err != nil {
					t.Fatal(err)
				}
				last = max(v, 1)
			}
			for i := range s {
				s[i] = int32(int64(i) % last)
			}
			arrays[a.Name] = s
		case I64:
			arrays[a.Name] = make([]int64, n)
		case I8:
			arrays[a.Name] = make([]int8, n)
		case U8:
			s := make([]uint8, n)
			for i := range s {
				s[i] = uint8(1 + rng.IntN(15))
			}
			arrays[a.Name] = s
		case I16:
			arrays[a.Name] = make([]int16, n)
		case U16:
			arrays[a.Name] = make([]uint16, n)
		case U32:
			arrays[a.Name] = make([]uint32, n)
		case F16:
			s := make([]half.Float, n)
			for i := range s {
				s[i] = half.FromFloat32(1 + rng.Float32())
			}
			arrays[a.Name] = s
		}
	}
	return arrays
}

// sumClasses folds the stride classes of global properties away and drops
// minldst, giving the interpreter's categories.
func sumClasses(props map[string]int64) map[string]int64 {
	out := map[string]int64{}
	for name, v := range props {
		if strings.HasPrefix(name, "global.minldst.") || strings.Contains(name, ".conflict=") {
			continue
		}
		if i := strings.Index(name, ".stride="); i >= 0 {
			name = name[:i]
		}
		out[name] += v
	}
	return out
}

// TestPlanMatchesExecution evaluates the counting plan of every library
// kernel by enumerating its sets and compares it, property by property,
// with what the reference interpreter executed; per global access site
// it compares the stride with the strides the interpreter observed, and
// per array the footprint and filled-in footprint with the cells the
// interpreter touched.
func TestPlanMatchesExecution(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range planChecks() {
		covered[c.kernel] = true
		t.Run(fmt.Sprintf("%s/%v/%v", c.kernel, c.consts, c.params), func(t *testing.T) {
			src, err := library.Source(c.kernel)
			if err != nil {
				t.Fatal(err)
			}
			k, err := ParseKernel(library.FileName(c.kernel), src, c.consts)
			if err != nil {
				t.Fatal(err)
			}
			checkPlanAgainstRun(t, k, c.params)
		})
	}
	for _, name := range library.Names() {
		if !covered[name] {
			t.Errorf("library kernel %s is not checked", name)
		}
	}
}

// checkPlanAgainstRun compares the plan, evaluated by enumeration, with
// an interpreter run, and returns the interpreter's totals.
func checkPlanAgainstRun(t *testing.T, k *Kernel, params map[string]int64) map[string]int64 {
	t.Helper()
	p, err := newPlan(k, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.concrete(params, 1e9)
	if err != nil {
		t.Fatal(err)
	}
	tl, err := Run(k, params, randomArrays(t, k, params), &RunOptions{Trace: true})
	if err != nil {
		t.Fatal(err)
	}
	totals := tl.Totals()
	compareProps(t, sumClasses(b.props), totals)
	// Per array and direction.
	perArray := map[MemAccess]int64{}
	for i, g := range p.global {
		perArray[MemAccess{Array: g.array.Name, DType: g.array.DType, Store: g.store, ReadOnly: g.array.ReadOnly && !g.store}] += b.access[i].count
	}
	for key, n := range tl.Global {
		if key.Indirect || key.Atomic {
			continue // no stride class: the totals above compare them
		}
		if perArray[key] != n {
			t.Errorf("%s %s: plan %d, execution %d", key.Array, direction(key.Store), perArray[key], n)
		}
	}
	// Strides per site.
	for _, g := range p.global {
		i := slices.IndexFunc(tl.Sites, func(s *SiteTrace) bool { return s.Instruction == g.ins.ID && s.Site == g.site })
		if i < 0 {
			t.Errorf("%s site %d: not traced", g.ins.ID, g.site)
			continue
		}
		s := tl.Sites[i]
		if s.Array != g.array.Name || s.Store != g.store {
			t.Errorf("%s site %d: plan %s, trace %s", g.ins.ID, g.site, g.array.Name, s.Array)
		}
		coef, err := g.coef.eval(params)
		if err != nil {
			t.Fatal(err)
		}
		for d := range s.Strides {
			if d != coef {
				t.Errorf("%s site %d (%s): stride coefficient %d, observed %d", g.ins.ID, g.site, g.array.Name, coef, d)
			}
		}
		if c, ok := g.coef.constant(); g.stride != strideVar && (!ok || int64(absU(c)) != g.stride) {
			t.Errorf("%s site %d: stride %d for coefficient %v", g.ins.ID, g.site, g.stride, g.coef)
		}
	}
	// Footprints: the cells the interpreter touched, and their bounding
	// box in index space.
	for name, f := range p.fp {
		a := k.arrayIndex[name]
		ext := make([]int64, len(a.Shape))
		for d, s := range a.Shape {
			ext[d], _ = s.Eval(params)
		}
		if len(f.extents) != len(ext) {
			// A flattened index split into dimensions: TestFlatIndexing
			// checks its extents through the classes they decide.
			ext = nil
		}
		lo := make([]int64, len(ext))
		hi := make([]int64, len(ext))
		first := true
		for off := range tl.Footprints[name] {
			idx := unflatten(off, ext, a.ColMajor)
			for d := range idx {
				if first || idx[d] < lo[d] {
					lo[d] = idx[d]
				}
				if first || idx[d] > hi[d] {
					hi[d] = idx[d]
				}
			}
			first = false
		}
		card := func(i int) int64 {
			if b.cards[i] < 0 {
				t.Fatalf("set %d was not counted", i)
			}
			return b.cards[i]
		}
		value := func(tm term) (int64, error) {
			v := tm.coef
			for _, f := range tm.factors {
				m := int64(0)
				for _, s := range f {
					m = max(m, card(s))
				}
				v *= m
			}
			return v, nil
		}
		cells, _, _ := b.footprint(f, value)
		if want := int64(len(tl.Footprints[name])); cells != want {
			t.Errorf("footprint of %s: plan %d cells, execution %d", name, cells, want)
		}
		for d, e := range f.extents {
			if ext == nil {
				break
			}
			want := hi[d] - lo[d] + 1
			if first {
				want = 0
			}
			if got, _ := value(term{coef: 1, factors: []factor{{e}}}); got != want {
				t.Errorf("footprint of %s: extent along dimension %d: plan %d, execution %d", name, d, got, want)
			}
		}
	}
	return totals
}

func unflatten(off int64, ext []int64, colMajor bool) []int64 {
	idx := make([]int64, len(ext))
	for i := range ext {
		d := len(ext) - 1 - i
		if colMajor {
			d = i
		}
		idx[d] = off % ext[d]
		off /= ext[d]
	}
	return idx
}

// newPlan builds a plan that counts a set only when asked for, so that
// tests and benchmarks of planning start no goroutines.
func newPlan(k *Kernel, opts Options) (*plan, error) { return buildPlan(k, opts, false) }
