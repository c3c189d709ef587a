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
