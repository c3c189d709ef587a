package counts

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// testdata/lang/unsigned.knl counted by hand, per element: 17 loads of
// 32-bit integers (a twice in t's line, a and b in q's, a, s and b in r's,
// s, a and a in c's, a in f's, a, b and a in u's, s in b's, and a in the
// atomic's predicate and subscript), stores of q, r, c and b at 32 bits
// and of f at f32; as i32 operations: the additions (1 in t's line, 2 in
// q's, 2 in r's, 2 in c's, 1 in u's, 2 in b's), the two multiplications
// (a*m, u*u), // 7u and % 7 as divisions, >> 31, << 3 and // 65536u as
// shifts, ~ and % 8u as bitwise, max and min as special; f's f32
// multiplication; one atomic addition. What the atomic's data-dependent
// predicate guards (a load, the AND, the addition) is an upper bound.
func TestUnsignedHandCounts(t *testing.T) {
	_, counted := countedLang(t, "unsigned")
	for _, n := range []int64{37, 1000, 16} {
		got, err := counted.Eval(map[string]int64{"n": n})
		if err != nil {
			t.Fatal(err)
		}
		groups := (n + 15) / 16
		t.Run(fmt.Sprint("n=", n), func(t *testing.T) {
			compareProps(t, got, map[string]int64{
				"global.load.i32.stride=1": 17 * n, "global.store.i32.stride=1": 4 * n, "global.minldst.i32.stride=1": 4 * n,
				"global.store.f32.stride=1": n, "global.atomic.i32.add": n,
				"int.i32.add": 10 * n, "int.i32.mul": 2 * n, "int.i32.div": 2 * n, "int.i32.shift": 3 * n,
				"int.i32.bitwise": 2 * n, "int.i32.special": 2 * n, "flop.f32.mul": n,
				"local.load.i32": n, "local.store.i32": n, "sync.barrier": 16 * groups,
				"launch.groups": groups, "launch.const": 1,
			})
		})
	}
	bounds := strings.Join(counted.Bounds(), " ")
	for _, p := range []string{"global.atomic.i32.add", "int.i32.bitwise", "global.load.i32.stride=1"} {
		if !strings.Contains(bounds, p) {
			t.Errorf("%s is not marked an upper bound (bounds: %s)", p, bounds)
		}
	}
}

// unsignedInputs are the inputs of testdata/lang/unsigned.knl at the
// edges of u32: 0, 1, 2^31 - 1, 2^31, 2^32 - 1, values above 4e9 (which
// the atomic counts) and below, and i32 values of both signs.
func unsignedInputs(n int) (a, b []uint32, s []int32) {
	edges := []uint32{0, 1, 5, 6, 7, math.MaxInt32, math.MaxInt32 + 1, math.MaxUint32, math.MaxUint32 - 6, 4000000000, 4000000001, 65535, 65536}
	a, b, s = make([]uint32, n), make([]uint32, n), make([]int32, n)
	for i := range n {
		a[i] = edges[i%len(edges)] + uint32(i/len(edges))*2654435761
		b[i] = edges[(i*5+3)%len(edges)] ^ uint32(i*40503)
		s[i] = int32(uint32(i)*2246822519) >> (i % 7)
	}
	return a, b, s
}

// unsignedReference is testdata/lang/unsigned.knl in Go's uint32, which
// is C's unsigned int: the oracle for the interpreter and for PoCL.
func unsignedReference(a, b []uint32, s []int32, m uint32) (q, r []uint32, c []int32, f []float32, b2 []uint32, h []uint32) {
	n := len(a)
	q, r, c, f, b2, h = make([]uint32, n), make([]uint32, n), make([]int32, n), make([]float32, n), make([]uint32, n), make([]uint32, 8)
	for i := range n {
		t := a[i]*m + b[i]
		q[i] = t/7 + a[i]>>31 + ^b[i]
		r[i] = a[i]%7 - uint32(s[i]) + b[i]<<3
		less := int32(0)
		if uint32(s[i]) < a[i] {
			less = 1
		}
		c[i] = less + int32(a[i]/65536) // -1 < 1u is false in C: 0
		f[i] = float32(a[i]) * 0.5
		u := max(a[i], b[i]) - min(a[i], 5)
		v := u * u
		b2[i] = v - uint32(s[i]) + -u
		if a[i] > 4000000000 {
			h[a[i]%8]++
		}
	}
	return q, r, c, f, b2, h
}

func TestUnsignedRun(t *testing.T) {
	k := langKernel(t, "unsigned", nil)
	const n = 77
	a, b, s := unsignedInputs(n)
	q, r, c, f, b2, h := unsignedReference(a, b, s, 3000000000)
	data := map[string]any{"a": a, "b": append([]uint32(nil), b...), "s": s, "q": make([]uint32, n), "r": make([]uint32, n),
		"c": make([]int32, n), "f": make([]float32, n), "h": make([]uint32, 8)}
	if _, err := Run(k, map[string]int64{"n": n}, data, nil); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]any{"q": q, "r": r, "c": c, "f": f, "b": b2, "h": h} {
		if got := fmt.Sprint(data[name]); got != fmt.Sprint(want) {
			t.Errorf("%s = %s\nwant %v", name, got, want)
		}
	}
	var counted uint32
	for _, v := range h {
		counted += v
	}
	if counted == 0 {
		t.Errorf("no input is above 4e9: the atomic is not exercised")
	}
}

// The interpreter computes each u32 operation as Go's uint32 does, at
// the edges of u32: wraparound, unsigned division and shifts, C's
// conversions of i32 and float operands, unsigned comparisons, sums that
// wrap, and i64 arithmetic where an i64 operand makes it so.
func TestUnsignedSemantics(t *testing.T) {
	const head = "kernel k\ndomain [n] -> { [i, j] : 0 <= i < n and 0 <= j < 3 }\narray x u32 [n]\narray y u32 [n]\narray k i32 [n]\n" +
		"array fx f32 [n]\narray o u32 [n]\narray c i32 [n]\narray l i64 [n]\narray d f64 [n]\n"
	x := []uint32{0, 1, math.MaxInt32, math.MaxInt32 + 1, math.MaxUint32, 3000000000}
	y := []uint32{7, 1, 31, 2, 3, 13}
	k := []int32{-1, 0, math.MinInt32, math.MaxInt32, -7, 5}
	fx := []float32{0.5, -0.75, 4294967040, 2147483648, 3.99, 1e9}
	u := func(f func(x, y uint32, k int32) uint32) []uint32 {
		out := make([]uint32, len(x))
		for i := range x {
			out[i] = f(x[i], y[i], k[i])
		}
		return out
	}
	b2i := func(b bool) int32 {
		if b {
			return 1
		}
		return 0
	}
	cases := []struct {
		line, array string
		want        any
	}{
		{"o[i] = x[i] + 1u", "o", u(func(x, _ uint32, _ int32) uint32 { return x + 1 })},
		{"o[i] = x[i] - 1", "o", u(func(x, _ uint32, _ int32) uint32 { return x - 1 })},
		{"o[i] = x[i] * x[i]", "o", u(func(x, _ uint32, _ int32) uint32 { return x * x })},
		{"o[i] = x[i] // 7u + x[i] % 7u", "o", u(func(x, _ uint32, _ int32) uint32 { return x/7 + x%7 })},
		{"o[i] = x[i] // y[i] + x[i] % y[i]", "o", u(func(x, y uint32, _ int32) uint32 { return x/y + x%y })},
		{"o[i] = x[i] >> 31", "o", u(func(x, _ uint32, _ int32) uint32 { return x >> 31 })},
		{"o[i] = x[i] >> y[i]", "o", u(func(x, y uint32, _ int32) uint32 { return x >> y })},
		{"o[i] = x[i] >> (k[i] & 31)", "o", u(func(x, _ uint32, k int32) uint32 { return x >> (k & 31) })},
		{"c[i] = k[i] >> (y[i] & 31u)", "c", func() []int32 {
			out := make([]int32, len(x))
			for i := range x {
				out[i] = k[i] >> (y[i] & 31) // C's shift takes its left operand's type: arithmetic
			}
			return out
		}()},
		{"c[i] = -8 >> (y[i] & 31u)", "c", func() []int32 {
			out := make([]int32, len(x))
			for i := range x {
				out[i] = -8 >> (y[i] & 31) // a plain literal on the left is an i32
			}
			return out
		}()},
		{"o[i] = (x[i] << (i64)1) // 2u", "o", u(func(x, _ uint32, _ int32) uint32 { return (x << 1) / 2 })},
		{"o[i] = x[i] << 31", "o", u(func(x, _ uint32, _ int32) uint32 { return x << 31 })},
		{"o[i] = x[i] // 8 + x[i] % 16", "o", u(func(x, _ uint32, _ int32) uint32 { return x/8 + x%16 })},
		{"o[i] = -x[i] + ~x[i]", "o", u(func(x, _ uint32, _ int32) uint32 { return -x + ^x })},
		{"o[i] = x[i] ^ y[i] | k[i] & x[i]", "o", u(func(x, y uint32, k int32) uint32 { return x ^ y | uint32(k)&x })},
		{"o[i] = k[i]", "o", u(func(_, _ uint32, k int32) uint32 { return uint32(k) })},
		{"o[i] = (unsigned int)k[i] + (uint)k[i] + (u32)k[i] - 1", "o", u(func(_, _ uint32, k int32) uint32 { return 2*uint32(k) + uint32(k) - 1 })},
		{"o[i] = x[i] + k[i]", "o", u(func(x, _ uint32, k int32) uint32 { return x + uint32(k) })},
		{"o[i] = max(x[i], k[i]) + min(x[i], 2147483648u)", "o", u(func(x, _ uint32, k int32) uint32 { return max(x, uint32(k)) + min(x, 1<<31) })},
		{"o[i] = sum(j, x[i] + j)", "o", u(func(x, _ uint32, _ int32) uint32 { return x + (x + 1) + (x + 2) })},
		{"o[i] = max(j, x[i] - j)", "o", u(func(x, _ uint32, _ int32) uint32 { return max(x, x-1, x-2) })},
		{"o[i] = min(j, x[i] + j)", "o", u(func(x, _ uint32, _ int32) uint32 { return min(x, x+1, x+2) })},
		{"o[i] = (u32)fx[i]", "o", []uint32{0, 0, 4294967040, 2147483648, 3, 1000000000}},
		{"o[i] = x[i] + (4294967295u + 1u) * 3 + ~0u + -(1u) + (u32)-5", "o", u(func(x, _ uint32, _ int32) uint32 { return x - 7 })},
		{"c[i] = if(-1 < 1u, 1, 0) + if(-1 == 4294967295u, 2, 0) + if(x[i] > -1, 4, 0)", "c", []int32{2, 2, 2, 2, 2, 2}},
		{"c[i] = if(k[i] < x[i], 1, 0) + if(x[i] >= 2147483648u, 2, 0)", "c", func() []int32 {
			out := make([]int32, len(x))
			for i := range x {
				out[i] = b2i(uint32(k[i]) < x[i]) + 2*b2i(x[i] >= 1<<31)
			}
			return out
		}()},
		{"c[i] = (i32)(x[i] // 2u)", "c", func() []int32 {
			out := make([]int32, len(x))
			for i := range x {
				out[i] = int32(x[i] / 2)
			}
			return out
		}()},
		{"l[i] = x[i] + l[i] + (i64)x[i]", "l", func() []int64 {
			out := make([]int64, len(x))
			for i := range x {
				out[i] = 2 * int64(x[i])
			}
			return out
		}()},
		{"d[i] = x[i] * 0.5 + (f64)x[i]", "d", func() []float64 {
			out := make([]float64, len(x))
			for i := range x {
				out[i] = float64(x[i])*0.5 + float64(x[i])
			}
			return out
		}()},
	}
	for _, tc := range cases {
		kern, err := ParseKernel("k.knl", []byte(head+tc.line+"\n"), nil)
		if err != nil {
			t.Errorf("%s: %v", tc.line, err)
			continue
		}
		n := len(x)
		data := map[string]any{"x": slicesClone(x), "y": slicesClone(y), "k": slicesClone(k), "fx": slicesClone(fx),
			"o": make([]uint32, n), "c": make([]int32, n), "l": make([]int64, n), "d": make([]float64, n)}
		if _, err := Run(kern, map[string]int64{"n": int64(n)}, data, nil); err != nil {
			t.Errorf("%s: %v", tc.line, err)
			continue
		}
		if got := fmt.Sprint(data[tc.array]); got != fmt.Sprint(tc.want) {
			t.Errorf("%s: %s = %s, want %v", tc.line, tc.array, got, tc.want)
		}
	}
}

func slicesClone[T any](s []T) []T { return append([]T(nil), s...) }

// What C leaves undefined or gives another type, and the spellings of
// other languages, are refused with what to write: when the kernel is
// read, or when the interpreter meets the value.
func TestUnsignedErrors(t *testing.T) {
	const decls = "kernel k\ndomain [n] -> { [i] : 0 <= i < n }\narray x u32 [n]\narray y u32 [n]\narray k i32 [n]\narray fx f32 [n]\narray o u32 [n]\narray c i32 [n]\n"
	for _, tc := range []struct{ src, msg string }{
		{decls + "o[i] = x[i] + 2147483648\n", "write 2147483648u for the u32 value"},
		{decls + "o[i] = x[i] + 1ul\n", "no u64"},
		{decls + "o[i] = x[i] + 4294967296u\n", "unsigned literal 4294967296u is out of range for u32"},
		{decls + "o[i] = x[i] << 32\n", "shift count 32 is out of range for u32 (0 to 31)"},
		{decls + "c[i] = (i32)3000000000u\n", "cannot convert 3000000000 to i32"},
		{decls + "o[i] = x[i + 1u]\n", "write 1u without its u"},
		{"const C = 4u\n" + decls + "o[i] = C\n", "constant C: write 4u without its u"},
		{"kernel k\ndomain [n] -> { [i] : 0 <= i < n }\narray x uint [n]\n", "uint is C's name: write u32"},
		{"kernel k\ndomain [n] -> { [i] : 0 <= i < n }\narray x unsigned [n]\n", "unsigned is C's name: write u32"},
		{"kernel k\ndomain [n] -> { [i] : 0 <= i < n }\nscalar m u32 = -1\narray o u32 [n]\no[i] = m\n", "value -1 of scalar m is out of range for u32"},
		{"kernel k\ndomain [n] -> { [i] : 0 <= i < n }\nscalar m u32 = 4294967296\narray o u32 [n]\no[i] = m\n", "out of range for u32"},
	} {
		if _, err := ParseKernel("k.knl", []byte(tc.src), nil); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q: error %v, want %q", tc.src, err, tc.msg)
		}
	}
	run := func(line string) error {
		k, err := ParseKernel("k.knl", []byte(decls+line+"\n"), nil)
		if err != nil {
			return err
		}
		_, err = Run(k, map[string]int64{"n": 2}, map[string]any{"x": []uint32{3000000000, 5}, "y": []uint32{0, 40}, "k": []int32{-1, 2},
			"fx": []float32{-1, 5e9}, "o": make([]uint32, 2), "c": make([]int32, 2)}, nil)
		return err
	}
	for _, tc := range []struct{ line, msg string }{
		{"c[i] = x[i]", "cannot convert 3000000000 to i32"},
		{"o[i] = x[i] // y[i]", "integer division by zero"},
		{"o[i] = x[i] % y[i]", "integer division by zero"},
		{"o[i] = x[i] >> (y[i] - 8u)", "shift count 4294967288 out of range for u32"},
		{"o[i] = (u32)fx[i]", "cannot convert -1 to u32"},
	} {
		if err := run(tc.line); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q: error %v, want %q", tc.line, err, tc.msg)
		}
	}
}

// Literal u32 arithmetic is folded modulo 2^32, as a C compiler folds it:
// x[i] + (4294967295u + 1u)*3 + ~0u + -(1u) + (u32)-5 is x[i] plus four
// literals, four additions and nothing else.
func TestUnsignedFolding(t *testing.T) {
	k, err := ParseKernel("k.knl", []byte("kernel k\ndomain [n] -> { [i] : 0 <= i < n }\narray x u32 [n]\narray o u32 [n]\n"+
		"o[i] = x[i] + (4294967295u + 1u) * 3 + ~0u + -(1u) + (u32)-5\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Count(k)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Eval(map[string]int64{"n": 10})
	if err != nil {
		t.Fatal(err)
	}
	compareProps(t, got, map[string]int64{"global.load.i32.stride=0": 10, "global.store.i32.stride=0": 10, "global.minldst.i32.stride=0": 10,
		"int.i32.add": 40, "launch.groups": 1, "launch.const": 1})
	if rhs := k.Statements[0].(*Instruction).RHS.String(); !strings.Contains(rhs, "0u") || !strings.Contains(rhs, "4294967291u") {
		t.Errorf("folded right-hand side %s, want the literals 0u, 4294967295u and 4294967291u", rhs)
	}
}

// A u32 scalar argument takes its declared value, or a Go number that
// u32 holds, which Run is given; a value out of its range is refused.
func TestUnsignedScalar(t *testing.T) {
	k, err := ParseKernel("k.knl", []byte("kernel k\ndomain [n] -> { [i] : 0 <= i < n }\nscalar m u32 = 4294967295\narray o u32 [n]\no[i] = m + i\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		m    any
		want string
	}{{nil, "[4294967295 0 1]"}, {uint32(7), "[7 8 9]"}, {int64(4294967294), "[4294967294 4294967295 0]"}} {
		o := make([]uint32, 3)
		data := map[string]any{"o": o}
		if c.m != nil {
			data["m"] = c.m
		}
		if _, err := Run(k, map[string]int64{"n": 3}, data, nil); err != nil || fmt.Sprint(o) != c.want {
			t.Errorf("m = %v: o = %v (%v), want %s", c.m, o, err, c.want)
		}
	}
	for _, m := range []any{int64(-1), int64(1) << 32} {
		if _, err := Run(k, map[string]int64{"n": 3}, map[string]any{"o": make([]uint32, 3), "m": m}, nil); err == nil || !strings.Contains(err.Error(), "out of range for u32") {
			t.Errorf("m = %v: error %v, want out of range for u32", m, err)
		}
	}
}
