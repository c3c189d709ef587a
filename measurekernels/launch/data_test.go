package launch

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"runtime"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// hostBuffer is a gpu.Buffer in host memory, poisoned with 0xff bytes (a
// NaN as f32 or f64, -1 as an integer) so that unwritten elements show.
type hostBuffer struct{ b []byte }

func newHostBuffer(n int) *hostBuffer { return &hostBuffer{bytes.Repeat([]byte{0xff}, n)} }

func (h *hostBuffer) Size() int64 { return int64(len(h.b)) }
func (h *hostBuffer) WriteAt(src []byte, off int64) error {
	if off < 0 || off+int64(len(src)) > h.Size() {
		return fmt.Errorf("write of %d bytes at %d leaves the buffer", len(src), off)
	}
	copy(h.b[off:], src)
	return nil
}
func (h *hostBuffer) Read(dst []byte) error { copy(dst, h.b); return nil }
func (h *hostBuffer) Close() error          { return nil }

func random(t *testing.T, dt counts.DType, n int64, seed uint64, procs int) []byte {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	h := newHostBuffer(int(n) * dt.Size())
	if err := writeRandom(h, dt, n, seed); err != nil {
		t.Fatal(err)
	}
	return h.b
}

// Drawn on one core or several, an input is the same bytes; every element
// is written, lies in the documented range, and the values have the mean
// and variance of the uniform distribution (1 and 1/12 on [0.5, 1.5)),
// which a chunk drawn twice would break.
func TestWriteRandom(t *testing.T) {
	const n = 5*chunkElems + 17
	one := random(t, counts.F32, n, 42, 1)
	if !bytes.Equal(one, random(t, counts.F32, n, 42, 3)) {
		t.Fatal("the bytes depend on the number of cores drawing them")
	}
	var sum, sq float64
	for i := range n {
		v := float64(math.Float32frombits(binary.LittleEndian.Uint32(one[4*i:])))
		if !(v >= 0.5 && v <= 1.5) {
			t.Fatalf("element %d = %g, outside [0.5, 1.5]", i, v)
		}
		sum += v
		sq += (v - 1) * (v - 1)
	}
	if mean, variance := sum/n, sq/n; math.Abs(mean-1) > 0.002 || math.Abs(variance-1.0/12) > 0.001 {
		t.Errorf("mean %g and variance %g, want 1 and %g", mean, variance, 1.0/12)
	}
	if bytes.Equal(one[:4*chunkElems], one[4*chunkElems:8*chunkElems]) || bytes.Equal(random(t, counts.F32, n, 43, 2), one) {
		t.Error("chunks or seeds repeat one stream")
	}
	ints := random(t, counts.I64, chunkElems+1, 7, 2)
	for i := range chunkElems + 1 {
		if v := int64(binary.LittleEndian.Uint64(ints[8*i:])); v < 0 || v >= 16 {
			t.Fatalf("integer element %d = %d, outside [0, 16)", i, v)
		}
	}
	if err := writeRandom(newHostBuffer(8), counts.F64, 2, 1); err == nil {
		t.Error("16 bytes were written to an 8-byte buffer without an error")
	}
}

// BenchmarkWriteRandom draws a 1 GiB f32 input, the size of the largest
// stride-1 cases on a GPU, into host memory.
func BenchmarkWriteRandom(b *testing.B) {
	h := &hostBuffer{make([]byte, 1<<30)}
	b.SetBytes(1 << 30)
	for b.Loop() {
		if err := writeRandom(h, counts.F32, 1<<28, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// Equal infinities agree (b[i] = a[i] / 0 on PoCL was reported as wrong,
// "+Inf on the device and +Inf in the reference", issue 45); an infinity
// against a finite value or the other infinity does not.
func TestCompareInfinities(t *testing.T) {
	arr := func(v ...float32) hostArray { return &typedArray[float32]{f32Codec, v} }
	inf, ninf := float32(math.Inf(1)), float32(math.Inf(-1))
	if err := compare("b", counts.F32, arr(inf, ninf, 1), arr(inf, ninf, 1)); err != nil {
		t.Errorf("equal infinities: %v", err)
	}
	for _, got := range []hostArray{arr(ninf, ninf, 1), arr(3e38, ninf, 1), arr(inf, inf, 1)} {
		if err := compare("b", counts.F32, got, arr(inf, ninf, 1)); err == nil {
			t.Errorf("%v against [+Inf -Inf 1]: no error", got.slice())
		}
	}
}

// An array whose elements subscript another (perm of x[perm[k, i]]) is an
// index array, filled with runs of random permutations of the extent it
// subscripts, so that gathers stay in bounds and scatters do not collide.
func TestIndexArrays(t *testing.T) {
	src := "kernel g\ndomain [n] -> { [i, k] : 0 <= i < n and 0 <= k < 3 }\narray perm i32 [3, n]\narray q i64 [n]\narray x f32 [n]\narray y f32 [n]\narray z f32 [n]\n" +
		"y[i] = sum(k, x[perm[k, i]])\nz[(int)q[i]] = y[i]\n"
	k, err := counts.ParseKernel("g.knl", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	u := usesOf(k)
	sizes := map[string]int64{"perm": 3 * 50, "q": 50, "x": 50, "y": 50, "z": 50}
	for _, name := range []string{"perm", "q"} {
		e, err := u.indexRange(name, sizes)
		if err != nil || e != 50 {
			t.Fatalf("%s: range %d, %v; want 50", name, e, err)
		}
		h := newHostArray(k.Array(name).DType, sizes[name])
		r := rng(3)
		fillIndices(h, e, &r)
		for lo := int64(0); lo < h.len(); lo += e {
			seen := map[float64]bool{}
			for i := lo; i < lo+e; i++ {
				seen[h.at(i)] = true
			}
			for v := range e {
				if !seen[float64(v)] {
					t.Errorf("%s[%d:%d] is no permutation: %d is missing", name, lo, lo+e, v)
				}
			}
		}
	}
	if e, _ := u.indexRange("x", sizes); e != 0 {
		t.Errorf("x is no index array, but has range %d", e)
	}
}

// The arrays that a data-bounded loop's bounds are copied from get values
// from 0 to its max, so that the reference interpreter, which refuses a
// loop of more trips than its max, checks the kernel on them; an index
// copied into a temporary (col = cols[j], vec[col]) is an index array.
func TestDataLoopBoundArrays(t *testing.T) {
	for _, c := range []struct {
		file, bound, index string
		params             map[string]int64
	}{
		{"spmv_csr_scalar", "rowDelimiters", "cols", map[string]int64{"dim": 301, "nnz": 1500, "maxrl": 7}},
		{"spmv_ellpackr", "rowLengths", "cols", map[string]int64{"dim": 301, "maxrl": 7}},
	} {
		src, err := os.ReadFile("../../examples/" + c.file + ".knl")
		if err != nil {
			t.Fatal(err)
		}
		k, err := counts.ParseKernel(c.file+".knl", src, nil)
		if err != nil {
			t.Fatal(err)
		}
		u := usesOf(k)
		sizes := map[string]int64{}
		for _, a := range k.Arrays {
			if a.Space == counts.Global {
				n := int64(1)
				for _, e := range a.Shape {
					v, err := e.Eval(c.params)
					if err != nil {
						t.Fatal(err)
					}
					n *= v
				}
				sizes[a.Name] = n
			}
		}
		if e, err := u.valueRange(c.bound, sizes, c.params); err != nil || e != 8 {
			t.Errorf("%s: %s takes %d values (%v), want 0 to maxrl = 7", c.file, c.bound, e, err)
		}
		if e, err := u.valueRange(c.index, sizes, c.params); err != nil || e != 301 {
			t.Errorf("%s: %s takes %d values (%v), want the 301 of vec", c.file, c.index, e, err)
		}
	}
}
