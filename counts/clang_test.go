package counts

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The C features of the kernel language: scalar arguments, integer max
// and min, const expressions, casts, C's double promotion of unsuffixed
// literals and folding of literal arithmetic. Each is checked against
// counts derived by hand (cHandCases, run by TestHandCounts), the
// reference interpreter against Go's arithmetic, and the parser's
// refusals.

func readLang(t *testing.T, name string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "lang", name+".knl"))
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

func cHandCases() []handCase {
	read := func(name string) string {
		src, err := os.ReadFile(filepath.Join("testdata", "lang", name+".knl"))
		if err != nil {
			panic(err)
		}
		return string(src)
	}
	return []handCase{
		{
			// docs/kernel-language.md's axpby: per element two loads,
			// a store, two f32 muls and an add; alpha and beta load
			// nothing. n = 1000 in groups of 256: 4 groups.
			name: "axpby", src: `kernel axpby
const LX = 256
domain [n] -> { [i] : 0 <= i < n }
scalar alpha f32 = 2
scalar beta f32 = 0.5
array x f32 [n]
array y f32 [n]
split i LX i_out i_in
tag i_out g.0, i_in l.0
y[i] = alpha*x[i] + beta*y[i]
`, params: map[string]int64{"n": 1000},
			want: map[string]int64{"global.load.f32.stride=1": 2000, "global.store.f32.stride=1": 1000, "global.minldst.f32.stride=1": 1000,
				"flop.f32.mul": 2000, "flop.f32.add": 1000, "launch.groups": 4, "launch.const": 1},
		},
		{
			// n = 37 in groups of 16: 3 groups. Per element: y loads x
			// and y, 3 f32 muls (alpha, beta, one) and an add; z loads x
			// and does an f64 mul and add (eps is f64); w loads w, an i32
			// mul and add. The scalars load nothing.
			name: "scalars", src: read("scalars"), params: map[string]int64{"n": 37},
			want: map[string]int64{
				"global.load.f32.stride=1": 3 * 37, "global.store.f32.stride=1": 37, "global.minldst.f32.stride=1": 37,
				"global.store.f64.stride=1": 37,
				"global.load.i32.stride=1":  37, "global.store.i32.stride=1": 37, "global.minldst.i32.stride=1": 37,
				"flop.f32.mul": 3 * 37, "flop.f32.add": 37, "flop.f64.mul": 37, "flop.f64.add": 37,
				"int.i32.mul": 37, "int.i32.add": 37, "launch.groups": 3, "launch.const": 1,
			},
		},
		{
			// n = 37: 3 groups. o: a load, two i32 max/min. p: loads of
			// b and a, an i64 max, an i32 min and an i64 add. y: two
			// loads of x, two f32 specials (fmax, fmin) and an add.
			name: "minmax", src: read("minmax"), params: map[string]int64{"n": 37},
			want: map[string]int64{
				"global.load.i32.stride=1": 2 * 37, "global.store.i32.stride=1": 37, "global.minldst.i32.stride=1": 37,
				"global.load.i64.stride=1": 37, "global.store.i64.stride=1": 37, "global.minldst.i64.stride=1": 37,
				"global.load.f32.stride=1": 2 * 37, "global.store.f32.stride=1": 37, "global.minldst.f32.stride=1": 37,
				"int.i32.special": 3 * 37, "int.i64.special": 37, "int.i64.add": 37, "flop.f32.special": 2 * 37, "flop.f32.add": 37,
				"launch.groups": 3, "launch.const": 1,
			},
		},
		{
			// n = 37: 3 groups. o: a load of a, an f32 div and add. q:
			// loads of x and d, an f64 subtraction, an i32 mul and add.
			// e: two loads of x, an f64 mul and add. No conversion counts.
			name: "casts", src: read("casts"), params: map[string]int64{"n": 37},
			want: map[string]int64{
				"global.load.i32.stride=1": 37, "global.load.f32.stride=1": 3 * 37, "global.load.f64.stride=1": 37,
				"global.store.f32.stride=1": 37, "global.store.i32.stride=1": 37, "global.store.f64.stride=1": 37,
				"global.minldst.f32.stride=1": 37, "global.minldst.i32.stride=1": 37, "global.minldst.f64.stride=1": 37,
				"flop.f32.div": 37, "flop.f32.add": 37, "int.i32.mul": 37, "int.i32.add": 37,
				"flop.f64.add": 2 * 37, "flop.f64.mul": 37, "launch.groups": 3, "launch.const": 1,
			},
		},
		{
			// n = 37: 3 groups. y: an f32 mul and add (the literals are
			// folded). o: a shift (// 8), an AND (% 16), a division
			// (// 3) and two adds. q: two subtractions, a shift, a mul,
			// an AND and an add. p: an i64 shift, AND and add.
			name: "fold", src: read("fold"), params: map[string]int64{"n": 37},
			want: map[string]int64{
				"global.load.f32.stride=1": 37, "global.load.i32.stride=1": 5 * 37, "global.load.i64.stride=1": 2 * 37,
				"global.store.f32.stride=1": 37, "global.store.i32.stride=1": 2 * 37, "global.store.i64.stride=1": 37,
				"global.minldst.f32.stride=1": 37, "global.minldst.i32.stride=1": 2 * 37, "global.minldst.i64.stride=1": 37,
				"flop.f32.mul": 37, "flop.f32.add": 37, "int.i32.shift": 2 * 37, "int.i32.bitwise": 2 * 37,
				"int.i32.add": 5 * 37, "int.i32.div": 37, "int.i32.mul": 37,
				"int.i64.shift": 37, "int.i64.bitwise": 37, "int.i64.add": 37, "launch.groups": 3, "launch.const": 1,
			},
		},
	}
}

// The interpreter reads a scalar argument's declared value, or the value
// Run is given, and computes what Go computes with it.
func TestScalarArgumentsRun(t *testing.T) {
	k, err := ParseKernel("scalars.knl", []byte(readLang(t, "scalars")), nil)
	if err != nil {
		t.Fatal(err)
	}
	if a := k.Array("alpha"); a.Space != Argument || a.Value.Float != 1.5 || a.DType != F32 {
		t.Fatalf("alpha = %+v, want an f32 argument of value 1.5", a)
	}
	if a := k.Array("one"); a.Value.Float != 1 {
		t.Errorf("one's default value %v, want 1", a.Value.Float)
	}
	const n = 5
	for _, given := range []map[string]any{nil, {"alpha": float32(-2), "beta": float32(0.5), "eps": 0.125, "k": int32(-7), "one": float32(3)}} {
		alpha, beta, eps, kk, one := float32(1.5), float32(-0.25), 1e-3, int32(3), float32(1)
		arrays := map[string]any{}
		if given != nil {
			alpha, beta, eps, kk, one = given["alpha"].(float32), given["beta"].(float32), given["eps"].(float64), given["k"].(int32), given["one"].(float32)
			for name, v := range given {
				arrays[name] = v
			}
		}
		x, y, z, w := make([]float32, n), make([]float32, n), make([]float64, n), make([]int32, n)
		for i := range n {
			x[i], y[i], w[i] = float32(i)+0.5, float32(2*i)-1, int32(i-2)
		}
		wantY, wantZ, wantW := make([]float32, n), make([]float64, n), make([]int32, n)
		for i := range n {
			wantY[i] = alpha*x[i] + beta*y[i]*one
			wantZ[i] = float64(x[i])*eps + eps
			wantW[i] = w[i]*kk + kk
		}
		arrays["x"], arrays["y"], arrays["z"], arrays["w"] = x, y, z, w
		if _, err := Run(k, map[string]int64{"n": n}, arrays, nil); err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if y[i] != wantY[i] || z[i] != wantZ[i] || w[i] != wantW[i] {
				t.Errorf("given %v, element %d: y %v z %v w %v, want %v %v %v", given, i, y[i], z[i], w[i], wantY[i], wantZ[i], wantW[i])
			}
		}
	}
	for _, bad := range []struct {
		name string
		v    any
		msg  string
	}{
		{"k", 1.5, "no integer"},
		{"alpha", 0.1, "is no f32"},
		{"k", int64(math.MaxInt32) + 1, "out of range for i32"},
		{"alpha", "x", "give a number"},
	} {
		arrays := map[string]any{"x": make([]float32, 1), "y": make([]float32, 1), "z": make([]float64, 1), "w": make([]int32, 1), bad.name: bad.v}
		_, err := Run(k, map[string]int64{"n": 1}, arrays, nil)
		if err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("%s = %v: error %v, want %q", bad.name, bad.v, err, bad.msg)
		}
	}
}

// max(NAME, EXPR) is loopy's reduction where NAME is an iname and C's
// max of two values otherwise; the refusals say what to write.
func TestMinMaxForms(t *testing.T) {
	const head = "kernel k\ndomain [n] -> { [i, j] : 0 <= i, j < n }\narray a i32 [n]\narray f f32 [n]\n"
	for _, c := range []struct{ rhs, want string }{
		{"max(j, a[j])", "max(j, a[j])"},
		{"max((j), a[j])", "max(j, a[j])"},
		{"max(a[i], 0)", "max(a[i], 0)"},
		{"max(n, a[i])", "max(n, a[i])"},
		{"max(+j, i)", "max(j, i)"},
		{"min(max(a[i], 2), 9)", "min(max(a[i], 2), 9)"},
		{"max(f[i], 1)", "max(f[i], 1.0f)"},
	} {
		k, err := ParseKernel("k.knl", []byte(head+"a[i] = "+c.rhs+"\n"), nil)
		if strings.HasPrefix(c.want, "max(f") {
			k, err = ParseKernel("k.knl", []byte(head+"f[i] = "+c.rhs+"\n"), nil)
		}
		if err != nil {
			t.Errorf("%s: %v", c.rhs, err)
			continue
		}
		if got := k.Statements[0].(*Instruction).RHS.String(); got != c.want {
			t.Errorf("%s parses as %s, want %s", c.rhs, got, c.want)
		}
	}
	for _, c := range []struct{ src, msg string }{
		{head + "a[i] = max(a[i], 1, 2)\n", "max takes 2 arguments, not 3: write max(x, y), or max(iname, expr) for a reduction"},
		{head + "a[i] = fmax(a[i], 1)\n", "fmax needs floating-point arguments, not i32 (write max(a, b) for the max of integers)"},
		{head + "a[i] = max(q, 1)\n", "q is not an iname"},
	} {
		_, err := ParseKernel("k.knl", []byte(c.src), nil)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: error %v, want %q", c.src, err, c.msg)
		}
	}
}

// A C cast converts where the types differ and nowhere else; of a
// literal it makes a literal.
func TestCastForms(t *testing.T) {
	const head = "kernel k\ndomain [n] -> { [i] : 0 <= i < n }\narray a i32 [n]\narray f f32 [n]\narray g f64 [n]\n"
	for _, c := range []struct{ stmt, want string }{
		{"f[i] = (float)a[i]", "f32(a[i])"},
		{"f[i] = (float)f[i]", "f[i]"},
		{"g[i] = (double)f[i]*2", "(f64(f[i]) * 2.0)"},
		{"a[i] = (int)f[i] + 1", "(i32(f[i]) + 1)"},
		{"a[i] = (long)a[i] // 2", "i32((i64(a[i]) // 2))"},
		{"f[i] = (float)1/3", "0.33333334f"},
		{"f[i] = -(f32)a[i]*2", "(-f32(a[i]) * 2.0f)"},
		{"f[i] = (f[i])*2", "(f[i] * 2.0f)"},
	} {
		k, err := ParseKernel("k.knl", []byte(head+c.stmt+"\n"), nil)
		if err != nil {
			t.Errorf("%s: %v", c.stmt, err)
			continue
		}
		if got := k.Statements[0].(*Instruction).RHS.String(); got != c.want {
			t.Errorf("%s: right-hand side %s, want %s", c.stmt, got, c.want)
		}
	}
}

// Literal arithmetic folds to one literal of its type, as C compilers
// fold it; what has no value is an error.
func TestFolding(t *testing.T) {
	const head = "kernel k\nconst Q = 3\ndomain [n] -> { [i] : 0 <= i < n }\narray f f32 [n]\narray d f64 [n]\narray o i32 [n]\n"
	for _, c := range []struct{ stmt, want string }{
		{"f[i] = f[i]*(1/10.0f)", "(f[i] * 0.1f)"},
		{"o[i] = o[i] + (16 - 2 - Q)", "(o[i] + 11)"},
		{"d[i] = d[i]*(1.0/3)", "(d[i] * 0.3333333333333333)"},
		{"f[i] = f[i] + sqrt(4.0f) + max(2, 7) + (float)(7 // 2) + -(2 - 5)", "(((f[i] + 2.0f) + 7.0f) + 3.0f) + 3.0f)"},
		{"o[i] = o[i] // 8 + (-7) // 2 + (-7) % 4", "((o[i] // 8) + -4) + 1)"},
		{"o[i] = if(o[i] > 2*3, 1 << 4, ~0)", "if((o[i] > 6), 16, -1)"},
	} {
		k, err := ParseKernel("k.knl", []byte(head+c.stmt+"\n"), nil)
		if err != nil {
			t.Errorf("%s: %v", c.stmt, err)
			continue
		}
		if got := k.Statements[0].(*Instruction).RHS.String(); strings.TrimLeft(got, "(") != strings.TrimLeft(c.want, "(") {
			t.Errorf("%s: right-hand side %s, want %s", c.stmt, got, c.want)
		}
	}
	for _, c := range []struct{ stmt, msg string }{
		{"o[i] = o[i] + 1 // 0", "integer division by zero in (1 // 0), which the compiler computes"},
		{"o[i] = o[i] + 2147483647 + 1", ""},
		{"o[i] = 2147483647 + 1", "integer overflow"},
		{"o[i] = o[i] + (int)1e10", "cannot convert 1e+10 to i32"},
	} {
		_, err := ParseKernel("k.knl", []byte(head+c.stmt+"\n"), nil)
		if (c.msg == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.msg)) {
			t.Errorf("%s: error %v, want %q", c.stmt, err, c.msg)
		}
	}
}

// Every refusal of a scalar argument says what to write instead.
func TestScalarArgumentErrors(t *testing.T) {
	const head = "kernel k\ndomain [n] -> { [i] : 0 <= i < n }\narray a f32 [n]\n"
	for _, c := range []struct{ src, msg string }{
		{head + "scalar s f32\ns = 1\n", "scalar s is a kernel argument and cannot be assigned: copy it into a temporary"},
		{head + "scalar s f32 [n]\n", "a scalar argument has no shape: declare an array with 'array s f32 [EXTENT, ...]'"},
		{head + "scalar s i32\na[s] = 1\n", "s is a scalar argument, whose value the counts do not know"},
		{head + "scalar s i32 = 1.5\n", "write an integer value, not 1.5"},
		{head + "scalar s i32 = 3000000000\n", "out of range for i32"},
		{head + "scalar s f32 = 1e39\n", "out of range for f32"},
		{head + "scalar s f8\n", "unknown element type \"f8\""},
		{head + "scalar s f16\n", "a scalar argument of type f16: declare it f32"},
		{head + "scalar s u8\n", "a scalar argument of type u8: declare it i32"},
		{head + "scalar sum f32\n", "\"sum\" is reserved"},
		{head + "scalar s f32 = x\n", "expected a number, the value of s"},
		{head + "scalar a f32\n", "a is declared twice"},
		{head + "for i\nscalar s f32\nend\n", "'scalar' inside the for block"},
	} {
		_, err := ParseKernel("k.knl", []byte(c.src), nil)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: error %v, want %q", c.src, err, c.msg)
		}
	}
}

// A constant may be integer arithmetic over literals and earlier
// constants; an override of one it names re-evaluates it, an override of
// its own that contradicts them is refused.
func TestConstExpressions(t *testing.T) {
	const src = "kernel k\nconst BS = 16\nconst PH = 2\nconst S = BS - 2*PH\nconst Q = (S // 3) % 4 + (1 << 2) - -1\n" +
		"domain [n] -> { [i] : 0 <= i < S }\narray a f32 [S]\na[i] = 1\n"
	for _, c := range []struct {
		over map[string]int64
		s, q int64
	}{
		// S = 16 - 4 = 12, Q = (12 // 3) % 4 + 4 + 1 = 0 + 5.
		{nil, 12, 5},
		// S = 16 - 2 = 14, Q = 4 % 4 + 5 = 5.
		{map[string]int64{"PH": 1}, 14, 5},
		// S = 32 - 4 = 28, Q = 9 % 4 + 5 = 6.
		{map[string]int64{"BS": 32}, 28, 6},
		// Setting S to its own value contradicts nothing.
		{map[string]int64{"S": 12, "Q": 5}, 12, 5},
	} {
		k, err := ParseKernel("k.knl", []byte(src), c.over)
		if err != nil {
			t.Fatalf("%v: %v", c.over, err)
		}
		m := k.ConstMap()
		if m["S"] != c.s || m["Q"] != c.q {
			t.Errorf("%v: S = %d, Q = %d, want %d, %d", c.over, m["S"], m["Q"], c.s, c.q)
		}
		if got := k.Array("a").Shape[0].Const; got != c.s {
			t.Errorf("%v: a has %d elements, want S = %d", c.over, got, c.s)
		}
		if k.Consts[2].Expr != "BS - 2 * PH" || k.Consts[0].Expr != "" {
			t.Errorf("expressions %q, %q", k.Consts[2].Expr, k.Consts[0].Expr)
		}
	}
	for _, c := range []struct {
		src  string
		over map[string]int64
		msg  string
	}{
		{src, map[string]int64{"S": 10}, "constant S = BS - 2 * PH is derived from BS, PH (12 here), so it cannot be set to 10: override BS or PH instead"},
		{"kernel k\nconst A = A + 1\n", nil, "constant A is defined in terms of itself"},
		{"kernel k\nconst A = B + 1\nconst B = 2\n", nil, "B is not a constant declared before it"},
		{"kernel k\nconst A = 2\nconst B = A / 2\n", nil, "'/' on integers: write // for floor division"},
		{"kernel k\nconst A = 0\nconst B = 4 // A\n", nil, "constant B divides by zero"},
		{"kernel k\nconst A = 1.5\n", nil, "1.5 is not an integer"},
		{"kernel k\nconst A = 4611686018427387904 * 2\n", nil, "constant A: integer overflow"},
		{"kernel k\nconst A = sqrt(4)\n", nil, "a constant's value is integer arithmetic"},
		{"kernel k\nconst A =\n", nil, "expected an integer value"},
	} {
		_, err := ParseKernel("k.knl", []byte(c.src), c.over)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q %v: error %v, want %q", c.src, c.over, err, c.msg)
		}
	}
}
