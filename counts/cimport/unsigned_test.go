package cimport

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// unsigned, unsigned int, uint and uint32_t import as u32: counted by
// hand per element, 5 loads at 32 bits (a for t, b, a for >> 31, a in
// the atomic's condition and subscript) and 2 stores, as i32 operations
// a multiplication, 4 additions, t / 7 a division, t % 16 and a[i] % 8
// ANDs, >> 31 a shift; one atomic addition. What the data-dependent
// condition guards (a load, an AND, the atomic) is an upper bound. In
// the interpreter they compute what Go's uint32, C's unsigned int,
// computes, at the edges of u32.
func TestUnsignedImports(t *testing.T) {
	for _, file := range []string{"unsigned.cu", "unsigned.cl"} {
		t.Run(file, func(t *testing.T) {
			k := importOwn(t, file, "--local", "64", "--global", "n", "--array", "a=n", "--array", "b=n", "--array", "q=n", "--array", "h=8")
			for _, name := range []string{"a", "b", "q", "h"} {
				if a := k.Array(name); a == nil || a.DType != counts.U32 {
					t.Fatalf("array %s: %v, want u32", name, a)
				}
			}
			cs, err := counts.Count(k)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range []int64{300, 1000} {
				got, err := cs.Eval(map[string]int64{"n": n})
				if err != nil {
					t.Fatal(err)
				}
				want := map[string]int64{"global.load.i32.stride=1": 5 * n, "global.store.i32.stride=1": 2 * n, "global.minldst.i32.stride=1": 2 * n,
					"int.i32.mul": n, "int.i32.add": 4 * n, "int.i32.div": n, "int.i32.bitwise": 2 * n, "int.i32.shift": n,
					"global.atomic.i32.add": n, "launch.groups": (n + 63) / 64, "launch.const": 1}
				if !maps.Equal(nonzero(got), want) {
					t.Errorf("n=%d: counts\n%v\nwant\n%v", n, nonzero(got), want)
				}
			}
			if b := strings.Join(cs.Bounds(), " "); !strings.Contains(b, "global.atomic.i32.add") || !strings.Contains(b, "int.i32.bitwise") {
				t.Errorf("upper bounds %s, want the atomic and the ANDs", b)
			}
			const n = 200
			edges := []uint32{0, 1, 7, math.MaxInt32, math.MaxInt32 + 1, math.MaxUint32, 4000000000, 4000000001, 4294967291}
			a, b := make([]uint32, n), make([]uint32, n)
			for i := range n {
				a[i] = edges[i%len(edges)] + uint32(i/len(edges))*40503
				b[i] = edges[(i*4+1)%len(edges)] ^ uint32(i)*2246822519
			}
			q, b2, h := make([]uint32, n), slices.Clone(b), make([]uint32, 8)
			if _, err := counts.Run(k, map[string]int64{"n": n}, map[string]any{"a": a, "b": b2, "q": q, "h": h}, nil); err != nil {
				t.Fatal(err)
			}
			wq, wb, wh := make([]uint32, n), make([]uint32, n), make([]uint32, 8)
			for i := range n {
				tv := a[i]*2654435761 + b[i]
				wq[i] = tv/7 + a[i]>>31 + tv%16
				wb[i] = tv - uint32(i)
				if a[i] > 4000000000 {
					wh[a[i]%8]++
				}
			}
			if fmt.Sprint(q, b2, h) != fmt.Sprint(wq, wb, wh) || slices.Max(wh) == 0 {
				t.Errorf("q, b, h =\n%v\n%v\n%v\nwant\n%v\n%v\n%v", q, b2, h, wq, wb, wh)
			}
		})
	}
}

// A C literal beyond int's range is an unsigned int when it has a u
// suffix or is hexadecimal or octal, and is written as a u32 literal; a
// decimal one without u is a long, which the .knl refuses beside a u32
// with what to write.
func TestUnsignedLiterals(t *testing.T) {
	opts, err := ParseFlags([]string{"--local", "64", "--global", "n", "--array", "a=n", "--array", "q=n"})
	if err != nil {
		t.Fatal(err)
	}
	src := func(rhs string) []byte {
		return []byte("__global__ void f(unsigned *a, unsigned *q, int n) {\n int i = blockIdx.x * blockDim.x + threadIdx.x;\n if (i < n) q[i] = " + rhs + ";\n}\n")
	}
	for _, c := range []struct{ rhs, knl string }{
		{"a[i] & 0x80000000", "a[i] & 2147483648u"},
		{"a[i] + 0xFFFFFFF0u", "a[i] + 4294967280u"},
		{"a[i] ^ 4000000000U", "a[i] ^ 4000000000u"},
		{"a[i] + 017777777777", "a[i] + 2147483647"},
	} {
		r, err := Import("f.cu", src(c.rhs), opts)
		if err != nil {
			t.Errorf("%s: %v", c.rhs, err)
			continue
		}
		if !strings.Contains(string(r.Knl), c.knl) {
			t.Errorf("%s: .knl\n%s\nwant %s", c.rhs, r.Knl, c.knl)
		}
	}
	if _, err := Import("f.cu", src("a[i] + 3000000000"), opts); err == nil || !strings.Contains(err.Error(), "is a long in C") {
		t.Errorf("a decimal literal beyond int beside an unsigned: error %v, want that it is a long", err)
	}
	// An index cast to unsigned stays affine, as one declared unsigned
	// does: a stride-1 access, not a gather.
	r, err := Import("f.cu", []byte("__global__ void f(unsigned *a, unsigned *q, int n) {\n int i = blockIdx.x * blockDim.x + threadIdx.x;\n"+
		" unsigned int j = i;\n if (i < n) q[(unsigned int)i] = a[(unsigned)j + 0u];\n}\n"), opts)
	switch {
	case err != nil:
		t.Errorf("casts of an index: %v", err)
	case !strings.Contains(string(r.Knl), "q[i] = a[i]"):
		t.Errorf("casts of an index:\n%s\nwant q[i] = a[i]", r.Knl)
	}
}
