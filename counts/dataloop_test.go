package counts_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// csrKernel is SHOC's spmv_csr_scalar as written: one work-item a row,
// its loop from rowptr[row] to rowptr[row + 1], end a name.
const csrKernel = `kernel csr
const LX = 16
domain [dim, nnz, maxrl] -> { [row] : 0 <= row < dim }
array val f32 [nnz]
array cols i32 [nnz]
array rowptr i32 [dim + 1]
array vec f32 [dim]
array out f32 [dim]
split row LX row_out row_in
tag row_out g.0, row_in l.0
for row
  <f32> t = 0.0f
  <i32> start = rowptr[row]
  <i32> end = rowptr[row + 1]
  for j = start .. end max maxrl
    <i32> col = cols[j]
    t = t + val[j]*vec[col]
  end
  out[row] = t
end
`

// randomCSR makes a dim x dim matrix in CSR whose rows hold 0 to maxrl
// entries (one row maxrl), in random columns, and a vector.
func randomCSR(rng *rand.Rand, dim, maxrl int) (val []float32, cols, rowptr []int32, vec []float32) {
	rowptr = []int32{0}
	for r := range dim {
		n := rng.IntN(maxrl + 1)
		if r == dim/2 {
			n = maxrl
		}
		for range n {
			val = append(val, float32(rng.IntN(17)-8)/4)
			cols = append(cols, int32(rng.IntN(dim)))
		}
		rowptr = append(rowptr, int32(len(val)))
	}
	vec = make([]float32, dim)
	for i := range vec {
		vec[i] = float32(rng.IntN(9)) / 8
	}
	return val, cols, rowptr, vec
}

// A data-bounded loop runs C's loop from its data bounds: the
// interpreter's product equals a Go SpMV on random CSR matrices, and it
// executes one multiplication, addition, load of cols and of val and
// gather of vec per entry, nnz of each. The counts are the hand-derived
// dim*maxrl of each, marked as upper bounds, and 2*dim loads of rowptr and
// dim stores, exact.
func TestDataLoopSpMV(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 1))
	for _, lx := range []int64{16, 5} {
		k, err := counts.ParseKernel("csr.knl", []byte(csrKernel), map[string]int64{"LX": lx})
		if err != nil {
			t.Fatal(err)
		}
		c, err := counts.Count(k)
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range [][2]int{{37, 5}, {16, 1}, {1, 3}, {50, 9}} {
			dim, maxrl := size[0], size[1]
			val, cols, rowptr, vec := randomCSR(rng, dim, maxrl)
			nnz := int64(len(val))
			out := make([]float32, dim)
			params := map[string]int64{"dim": int64(dim), "nnz": max(nnz, 1), "maxrl": int64(maxrl)}
			if nnz == 0 {
				val, cols = []float32{0}, []int32{0}
			}
			tl, err := counts.Run(k, params, map[string]any{"val": val, "cols": cols, "rowptr": rowptr, "vec": vec, "out": out}, nil)
			if err != nil {
				t.Fatal(err)
			}
			for r := range dim {
				var want float32
				for j := rowptr[r]; j < rowptr[r+1]; j++ {
					want += val[j] * vec[cols[j]]
				}
				if out[r] != want {
					t.Errorf("LX %d, %v: out[%d] = %g, want %g", lx, size, r, out[r], want)
				}
			}
			run := tl.Totals()
			for _, name := range []string{"flop.f32.mul", "flop.f32.add", "global.load.indirect.f32"} {
				w := nnz
				if name == "global.load.indirect.f32" {
					w = 2 * nnz
				}
				if run[name] != w {
					t.Errorf("LX %d, %v: the interpreter ran %d %s, want %d", lx, size, run[name], name, w)
				}
			}
			got, err := c.Eval(params)
			if err != nil {
				t.Fatal(err)
			}
			d, m := int64(dim), int64(maxrl)
			for name, w := range map[string]struct {
				n     int64
				upper bool
			}{"flop.f32.mul": {d * m, true}, "flop.f32.add": {d * m, true}, "global.load.indirect.f32": {2 * d * m, true},
				"global.load.indirect.i32": {d * m, true}, "global.load.i32.stride=1": {2 * d, false}, "global.store.f32.stride=1": {d, false}} {
				if got[name] != w.n || c.UpperBound(name) != w.upper {
					t.Errorf("LX %d, %v: %s = %d (upper bound %v), want %d (%v)", lx, size, name, got[name], c.UpperBound(name), w.n, w.upper)
				}
			}
		}
	}
}

// A row longer than the loop's max stops the run with what to write,
// rather than leave entries out.
func TestDataLoopPastMax(t *testing.T) {
	k := mustParse(t, csrKernel)
	val, cols, rowptr, vec := []float32{1, 2, 3}, []int32{0, 1, 2}, []int32{0, 3, 3, 3}, []float32{1, 1, 1}
	_, err := counts.Run(k, map[string]int64{"dim": 3, "nnz": 3, "maxrl": 2},
		map[string]any{"val": val, "cols": cols, "rowptr": rowptr, "vec": vec, "out": make([]float32, 3)}, nil)
	if err == nil || !strings.Contains(err.Error(), "3 trips, more than the 2 its max allows: raise the bound after max") {
		t.Errorf("%v, want the row of 3 refused", err)
	}
}

// What C's loop would not do is refused with what to write instead.
func TestDataLoopRefusals(t *testing.T) {
	head := "kernel k\ndomain [n, m] -> { [i] : 0 <= i < n }\narray a i32 [n + 1]\narray x f32 [n]\ntag i g.0\n"
	for _, c := range []struct{ body, want string }{
		{"for j = a[i] .. a[i + 1] max m\n  x[i] = 1.0f\nend\n", "a bound is a temporary, an iname, a parameter or an integer literal: compute it into a temporary before the loop"},
		{"<i32> s = a[i]\nfor j = s .. n m\n  x[i] = 1.0f\nend\n", "expected 'max N' after the bounds"},
		{"<i32> s = a[i]\nfor j = s .. n max m\n  j = 2\nend\n", "j is the index of the loop at 7:1, which C's loop advances"},
		{"<i32> s = a[i]\nfor j = s .. n max m\n  s = 2\nend\n", "s is a bound of the loop over j"},
		{"<i32> s = a[i]\nfor j = s .. n max m\n  x[i] = 1.0f\nend\nx[i] = x[j]\n", "reads j outside the loop"},
		{"<f32> s = x[i]\nfor j = s .. n max m\n  x[i] = 1.0f\nend\n", "its bound s is f32, not an integer"},
	} {
		_, err := counts.ParseKernel("k.knl", []byte(head+c.body), nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.body, err, c.want)
		}
	}
}

// end names a temporary wherever it cannot close a block: as a
// declaration, a left-hand side and a value.
func TestEndAsName(t *testing.T) {
	k := mustParse(t, `kernel e
domain [n] -> { [i] : 0 <= i < n }
array a i32 [n]
tag i g.0
for i
  <i32> end = a[i]
  end = end + 1
  a[i] = end*2
end
`)
	a := []int32{1, -4, 7}
	if _, err := counts.Run(k, map[string]int64{"n": 3}, map[string]any{"a": a}, nil); err != nil {
		t.Fatal(err)
	}
	if a[0] != 4 || a[1] != -6 || a[2] != 16 {
		t.Errorf("a = %v, want [4 -6 16]", a)
	}
}

// A loop whose statements would run on work-items where its bounds have
// no value (C's loop outside the if (row < dim) that reads them) is
// refused with what to write.
func TestDataLoopOutsideBoundsGuard(t *testing.T) {
	src := strings.Replace(csrKernel, "for row\n", "", 1)
	src = strings.Replace(src, "  out[row] = t\nend\n", "  out[row] = t\n", 1)
	_, err := counts.ParseKernel("csr.knl", []byte(src), nil)
	if err == nil || !strings.Contains(err.Error(), "on work-items where its bound start has no value") || !strings.Contains(err.Error(), "put the loop in a for block") {
		t.Errorf("%v, want the loop refused outside the rows' guard", err)
	}
}
