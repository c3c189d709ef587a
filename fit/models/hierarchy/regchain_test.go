package hierarchy

import (
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/fit/models"
)

// TestRegisterChains checks which instructions carry a value through a
// private temporary against the kernels' text, read by hand: cn_pnpoly
// flips c in its loop over the vertices (px, py and the vertex
// temporaries are loaded afresh); arith_int_i32 updates x0..x3 from
// their own values in each of its five loops (their first values are
// set outside them); matmul_tiled adds into acc over k_out;
// testdata/regchains.knl adds into t over k, into w over j (w is reset
// in k's body before that loop), counts into c under a data-dependent
// condition, and scales u after loading it in the same iteration (no
// chain); gemm, gemver3 and accumulate_global carry theirs through
// global memory, and vector_sum has only a reduction.
func TestRegisterChains(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files)}
	xs := strings.Repeat("x0,x1,x2,x3,", 5)
	for _, c := range []struct {
		kernel string
		want   string // the temporaries the chain instructions assign
	}{
		{"../../../examples/cn_pnpoly.knl", "c"},
		{"../../../measurekernels/library/arith_int_i32.knl", xs[:len(xs)-1]},
		{"../../../measurekernels/library/matmul_tiled.knl", "acc"},
		{"testdata/regchains.knl", "t,w,c"},
		{"../../../examples/gemm.knl", ""},
		{"../../../examples/gemver3.knl", ""},
		{"../../../measurekernels/library/accumulate_global.knl", ""},
		{"../../../measurekernels/library/vector_sum.knl", ""},
	} {
		k, err := env.Counter.Kernel(c.kernel, nil)
		if err != nil {
			t.Fatal(err)
		}
		chains := RegisterChains(k.Kernel())
		var got []string
		for _, s := range k.Kernel().Statements {
			if in, ok := s.(*counts.Instruction); ok {
				if _, ok := chains[in.StatementID()]; ok {
					got = append(got, in.LHS.Array.Name)
				}
			}
		}
		if strings.Join(got, ",") != c.want {
			t.Errorf("%s: register chains assign %v, want %s", c.kernel, got, c.want)
		}
	}
}

// TestRegChainStepsClosedForms checks the register chain steps against
// closed forms derived by hand and against the reference interpreter:
// each chain step of these kernels performs a known number of
// operations of one property (read from the text), so the steps are the
// operations the interpreter executed in the chain's statements over
// that number.
//
//   - arith_add_f32: a sum over k of 7 additions, n² nk points, 8 adds
//     each (the reduction's own);
//   - matvec_t: y[j] = sum(k, a[k, j]*v[k]), m n points, 1 mul each;
//   - vector_sum: a sum over D = 3 (unrolled) per vector, 3 n points,
//     1 add each;
//   - arith_mix_f32: four sums over na, nb, nc, nd: n² (na + nb + nc +
//     nd) points (no interpreter check: the sums' adds are mixed);
//   - arith_int_i32: four temporaries updated 8 times in each of five
//     loops, 32 n² (na + nb + nc + nd + ne) steps of i32; in the loop
//     over ka each step is a shift and two adds, kb two muls, two shifts
//     and an add, kc three bitwise operations and two shifts (&, |, ^,
//     ^ and >>: 4 bitwise, 1 shift), kd a shift and an add, ke a div
//     and an add;
//   - matmul_tiled (n = m = ell = 32, tiles of 16): acc + sum over k_in
//     over k_out: 32² (32/16) steps of acc, 32³ of the sum (an add each,
//     the sum's, and acc's add);
//   - testdata/regchains.knl with every a > 1: t over k (n m), w over j
//     (3 n m), the row sum (n m), each an f32 add, and c over k (n m,
//     an i32 add).
func TestRegChainStepsClosedForms(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files)}
	mixParams := map[string]int64{"n": 16, "na": 2, "nb": 3, "nc": 4, "nd": 5}
	intParams := map[string]int64{"n": 16, "na": 2, "nb": 3, "nc": 1, "nd": 2, "ne": 1, "c": 5}
	for _, c := range []struct {
		kernel string
		params map[string]int64
		want   map[string]int64
		perOp  map[string]int64 // by statement's loop iname or "": operations per step
	}{
		{"../../../measurekernels/library/arith_add_f32.knl", map[string]int64{"n": 32, "nk": 5},
			map[string]int64{"f32": 32 * 32 * 5}, map[string]int64{"flop.f32.add": 8}},
		{"../../../measurekernels/library/matvec_t.knl", map[string]int64{"m": 40, "n": 300},
			map[string]int64{"f32": 40 * 300}, map[string]int64{"flop.f32.mul": 1}},
		{"../../../measurekernels/library/vector_sum.knl", map[string]int64{"n": 1000},
			map[string]int64{"f32": 3 * 1000}, map[string]int64{"flop.f32.add": 1}},
		{"../../../measurekernels/library/arith_mix_f32.knl", mixParams,
			map[string]int64{"f32": 16 * 16 * (2 + 3 + 4 + 5)}, nil},
		{"../../../measurekernels/library/arith_int_i32.knl", intParams,
			map[string]int64{"i32": 32 * 16 * 16 * (2 + 3 + 1 + 2 + 1)}, nil},
		{"../../../measurekernels/library/matmul_tiled.knl", map[string]int64{"n": 32, "m": 32, "ell": 32},
			map[string]int64{"f32": 32*32*2 + 32*32*32}, map[string]int64{"flop.f32.add": 1}},
		{"testdata/regchains.knl", map[string]int64{"n": 128, "m": 10},
			map[string]int64{"f32": 5 * 128 * 10, "i32": 128 * 10}, map[string]int64{"flop.f32.add": 1, "int.i32.add": 1}},
	} {
		k, err := env.Counter.Kernel(c.kernel, nil)
		if err != nil {
			t.Fatal(err)
		}
		steps, err := regChainSteps(k, c.params, allChains)
		if err != nil {
			t.Fatalf("%s %v: %v", c.kernel, c.params, err)
		}
		want := map[string]int64{}
		for ty, n := range c.want {
			want[RegChainPrefix+ty] = n
		}
		if !mapsEqual(steps, want) {
			t.Errorf("%s %v: register chain steps %v, want %v", c.kernel, c.params, steps, want)
		}
		if c.perOp == nil {
			continue
		}
		ran := interpretedRegSteps(t, k.Kernel(), c.params, c.perOp)
		if !mapsEqual(ran, want) {
			t.Errorf("%s %v: the interpreter's operations give %v steps, want %v", c.kernel, c.params, ran, want)
		}
	}
}

// TestRegChainLanes checks the chains counted once per cell group
// against the kernels' text and closed forms derived by hand:
//
//   - reg_chain_f32 keeps K accumulators acc[j], j unrolled inside the
//     loop over l: dimension 0 holds lanes, and the steps are the chain
//     through acc[0], n nl, plus the K points of the final sum a
//     work-item, n (nl + K); the interpreter's operations agree: the
//     step statement's K n nl multiplications over K, and the sum's K n
//     additions;
//   - convolution_kernel at TY = TX = 2 updates acc[yi, xi] with yi and
//     xi unrolled inside the filter loops i and j: both dimensions are
//     lanes, and at h = w = 64 its (64/2)² work-items each run FH FW =
//     289 steps through acc[0, 0];
//   - matmul_kernel unrolls ti and tj inside its kb loop, as the
//     original does: both dimensions of acc are lanes;
//   - testdata/regchains.knl's w is a scalar: no dimension.
func TestRegChainLanes(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files)}
	lanes := func(path string, consts map[string]int64, id string) []int {
		k, err := env.Counter.Kernel(path, consts)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range k.Kernel().Statements {
			if in, ok := s.(*counts.Instruction); ok && in.ID == id {
				return Lanes(k.Kernel(), in)
			}
		}
		t.Fatalf("%s: no statement %s", path, id)
		return nil
	}
	const chain, conv, mm = "../../../measurekernels/library/reg_chain_f32.knl", "../../../examples/convolution_kernel.knl", "../../../examples/matmul_kernel.knl"
	for _, c := range []struct {
		path   string
		consts map[string]int64
		id     string
		want   []int
	}{
		{chain, map[string]int64{"K": 4}, "step", []int{0}},
		{chain, map[string]int64{"K": 4}, "init", nil},
		{conv, map[string]int64{"TX": 2, "TY": 2}, "upd", []int{0, 1}},
		{mm, nil, "upd", []int{0, 1}},
		{"testdata/regchains.knl", nil, "wacc", nil},
	} {
		if got := lanes(c.path, c.consts, c.id); !slices.Equal(got, c.want) {
			t.Errorf("%s %v %s: lanes %v, want %v", c.path, c.consts, c.id, got, c.want)
		}
	}
	for _, kk := range []int64{1, 2, 4, 8} {
		k, err := env.Counter.Kernel(chain, map[string]int64{"K": kk})
		if err != nil {
			t.Fatal(err)
		}
		const n, nl = 300, 16
		params := map[string]int64{"n": n, "nl": nl}
		got, err := regChainSteps(k, params, allChains)
		if err != nil {
			t.Fatal(err)
		}
		if want := map[string]int64{RegChainPrefix + "f32": n * (nl + kk)}; !mapsEqual(got, want) {
			t.Errorf("reg_chain_f32 K=%d: steps %v, want %v", kk, got, want)
		}
		tally := runFilled(t, k.Kernel(), params)
		var ran int64
		for _, s := range k.Kernel().Statements {
			in, ok := s.(*counts.Instruction)
			switch {
			case !ok:
			case in.ID == "step":
				ran += tally.Statements[in.ID]["flop.f32.mul"] / kk
			case containsReduce(in.RHS):
				ran += tally.Statements[in.ID]["flop.f32.add"]
			}
		}
		if ran != got[RegChainPrefix+"f32"] {
			t.Errorf("reg_chain_f32 K=%d: the interpreter's operations give %d steps, counted %v", kk, ran, got)
		}
	}
	k, err := env.Counter.Kernel(conv, map[string]int64{"TX": 2, "TY": 2})
	if err != nil {
		t.Fatal(err)
	}
	got, err := regChainSteps(k, map[string]int64{"h": 64, "w": 64}, allChains)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]int64{RegChainPrefix + "f32": 32 * 32 * 17 * 17}; !mapsEqual(got, want) {
		t.Errorf("convolution_kernel TX=TY=2: steps %v, want %v", got, want)
	}
	// Lanes whose subscripts are no lane iname alone: acc[j+1] over r
	// and l, b[4*r + j] over l with r unrolled outside it; by hand, 10
	// work-items x 2 rounds x 5 steps in each statement.
	const lanesKnl = "testdata/reglanes.knl"
	for _, id := range []string{"shifted", "rounds"} {
		if got := lanes(lanesKnl, nil, id); !slices.Equal(got, []int{0}) {
			t.Errorf("%s %s: lanes %v, want [0]", lanesKnl, id, got)
		}
	}
	k, err = env.Counter.Kernel(lanesKnl, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err = regChainSteps(k, map[string]int64{"n": 10}, allChains)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]int64{RegChainPrefix + "f32": 2 * 10 * 2 * 5}; !mapsEqual(got, want) {
		t.Errorf("%s: steps %v, want %v", lanesKnl, got, want)
	}
}

// TestRegChainStepsIntByLoop checks arith_int_i32's steps loop by loop
// against the interpreter: the i32 operations its chain statements
// executed in each loop, over the operations per step read by hand.
func TestRegChainStepsIntByLoop(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files)}
	k, err := env.Counter.Kernel("../../../measurekernels/library/arith_int_i32.knl", nil)
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]int64{"n": 16, "na": 2, "nb": 3, "nc": 1, "nd": 2, "ne": 1, "c": 5}
	perStep := map[string]int64{"ka": 3, "kb": 5, "kc": 5, "kd": 2, "ke": 2}
	tally := runFilled(t, k.Kernel(), params)
	var steps int64
	for id := range RegisterChains(k.Kernel()) {
		var in *counts.Instruction
		for _, s := range k.Kernel().Statements {
			if s.StatementID() == id {
				in = s.(*counts.Instruction)
			}
		}
		var ops int64
		for p, v := range tally.Statements[id] {
			if strings.HasPrefix(p, "int.i32.") {
				ops += v
			}
		}
		loop := ""
		for l := range perStep {
			if slices.Contains(in.Within, l) {
				loop = l
			}
		}
		if loop == "" || ops%perStep[loop] != 0 {
			t.Fatalf("%s: %d i32 operations in loop %q", id, ops, loop)
		}
		steps += ops / perStep[loop]
	}
	got, err := regChainSteps(k, params, allChains)
	if err != nil {
		t.Fatal(err)
	}
	if got[RegChainPrefix+"i32"] != steps || len(got) != 1 {
		t.Errorf("steps %v, the interpreter's %d", got, steps)
	}
}

// interpretedRegSteps runs k with every global f32 element 2 (above
// testdata/regchains.knl's condition) and returns, by type, the
// operations of the properties perOp names that the statements with a
// reduction or a register chain executed, over perOp's operations per
// step.
func interpretedRegSteps(t *testing.T, k *counts.Kernel, params map[string]int64, perOp map[string]int64) map[string]int64 {
	t.Helper()
	tally := runFilled(t, k, params)
	chains := RegisterChains(k)
	out := map[string]int64{}
	for _, s := range k.Statements {
		in, ok := s.(*counts.Instruction)
		if !ok {
			continue
		}
		if _, chain := chains[in.ID]; !chain && !containsReduce(in.RHS) {
			continue
		}
		for p, v := range tally.Statements[in.StatementID()] {
			if n, ok := perOp[p]; ok {
				ty, _ := opType(p)
				out[RegChainPrefix+ty] += v / n
			}
		}
	}
	return out
}

// runFilled runs k with the reference interpreter, every global f32
// element 2 and every i32 element 0.
func runFilled(t *testing.T, k *counts.Kernel, params map[string]int64) *counts.Tally {
	t.Helper()
	arrays := map[string]any{}
	for _, a := range k.Arrays {
		if a.Space != counts.Global || len(a.Shape) == 0 {
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
		case counts.F32:
			xs := make([]float32, n)
			for i := range xs {
				xs[i] = 2
			}
			arrays[a.Name] = xs
		case counts.I32:
			arrays[a.Name] = make([]int32, n)
		default:
			t.Fatalf("%s: no data for %s", a.Name, a.DType)
		}
	}
	tally, err := counts.Run(k, params, arrays, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tally
}

func mapsEqual(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
