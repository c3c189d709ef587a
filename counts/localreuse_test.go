package counts_test

import (
	"maps"
	"os"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// within counts the c in [0, n) with c mod period < width: the rows (or
// columns) of an n x n matrix at which a work-item of a tile period wide,
// width work-items across, starts.
func within(n, period, width int64) int64 {
	var k int64
	for c := range n {
		if c%period < width {
			k++
		}
	}
	return k
}

// registerLoadsOf parses the kernel file at consts and returns its
// RegisterLoadsAt at params.
func registerLoadsOf(t *testing.T, file string, src []byte, consts, params map[string]int64) map[string]int64 {
	t.Helper()
	if src == nil {
		var err error
		if src, err = os.ReadFile(file); err != nil {
			t.Fatal(err)
		}
	}
	k, err := counts.ParseKernel(file, src, consts)
	if err != nil {
		t.Fatal(err)
	}
	c, err := counts.Count(k)
	if err != nil {
		t.Fatal(err)
	}
	kept, err := c.RegisterLoadsAt(params)
	if err != nil {
		t.Fatal(err)
	}
	return kept
}

// TestRegisterLoadsMatmul checks RegisterLoadsAt on Kernel Tuner's
// matmul (examples/matmul_kernel.knl) against counts derived by hand.
//
// Its update runs in kk (a loop) and kb, ti, tj (unrolled, inside kk);
// the stores to sA and sB are before the barrier, outside that block.
// The update's instances are one per (row, column, k) of the n x n x n
// product, each row r = BY*TY*gy + BY*ti + ty once, each column and each
// k too: n^3 loads of sA and n^3 of sB. sA[ty + BY*ti, kb] does not
// depend on tj: its distinct copies are one per (row, k, work-item
// column (gx, tx) that has some tj), the columns c < n with
// c mod BX*TX < BX, within(n, BX*TX, BX) of them; the others are kept.
// sB[kb, tx + BX*tj] alike over ti: within(n, BY*TY, BY) work-item
// rows. Where the tiles divide n that is n^3/TX and n^3/TY distinct
// loads.
func TestRegisterLoadsMatmul(t *testing.T) {
	const file = "../examples/matmul_kernel.knl"
	for _, c := range []struct {
		bx, by, tx, ty, n int64
	}{
		{32, 8, 2, 4, 128}, // the defaults, tiles dividing n
		{32, 8, 2, 4, 100}, // edges: partial tiles and a partial slab
		{16, 4, 3, 2, 96},
		{16, 4, 3, 2, 50},
		{16, 16, 4, 1, 70}, // TY = 1: sB's copies are all distinct
	} {
		consts := map[string]int64{"BX": c.bx, "BY": c.by, "TX": c.tx, "TY": c.ty}
		n := c.n
		sA := n * n * (n - within(n, c.bx*c.tx, c.bx))
		sB := n * n * (n - within(n, c.by*c.ty, c.by))
		want := map[string]int64{"local.load.f32": sA + sB}
		if got := registerLoadsOf(t, file, nil, consts, map[string]int64{"n": n}); !maps.Equal(got, want) {
			t.Errorf("%v at n = %d: %v, want %v (sA %d, sB %d)", consts, n, got, want, sA, sB)
		}
	}
}

// registerKernel returns a kernel of 64-wide work-groups that stores a
// local cell per work-item, s[i_in], then runs body after a barrier,
// with the inames j (0 to 3) and r (0 to 2) tagged as tags says.
func registerKernel(tags, body string) string {
	return `kernel k
domain [n] -> { [i, j, r] : 0 <= i < n and 0 <= j < 4 and 0 <= r < 3 }
assume n >= 64 and n mod 64 = 0
array a f32 [n]
array b f32 [n]
local s f32 [64]
private acc f32 [4]
split i 64 i_out i_in
tag i_out g.0, i_in l.0, ` + tags + `
s[i_in] = a[i] {inames=i}
barrier
` + body
}

// TestRegisterLoadsNone checks that RegisterLoadsAt keeps nothing where
// the rule keeps nothing: the convolution port, whose sh_input subscript
// depends on both unrolled inames (yi, xi; its i and j are loops around
// them); a load that depends on its only unrolled iname (local_bank); a
// load whose block stores the array; one whose block holds a barrier;
// and a load in an unrolled loop that a loop of the code encloses
// (nothing unrolled inside the innermost loop).
func TestRegisterLoadsNone(t *testing.T) {
	for _, c := range []struct {
		name, file, src string
		consts          map[string]int64
		params          map[string]int64
	}{
		{"convolution", "../examples/convolution_kernel.knl", "", map[string]int64{"TX": 2, "TY": 2}, map[string]int64{"h": 40, "w": 40}},
		{"local_bank", "../measurekernels/library/local_bank.knl", "", nil, map[string]int64{"n": 512}},
		{"store in block", "store.knl", registerKernel("j unr", "acc[j] = s[i_in] {inames=i, id=ld}\ns[i_in] = s[i_in] + 1.0f {inames=i:j, dep=ld}\nb[i] = acc[0] + acc[3] {dep=ld}\n"), nil, map[string]int64{"n": 128}},
		{"store by itself", "self.knl", registerKernel("j unr", "s[i_in] = s[i_in] + 1.0f {inames=i:j}\nb[i] = s[i_in]\n"), nil, map[string]int64{"n": 128}},
		{"loop inside", "loop.knl", registerKernel("j unr", "acc[j] = 0 {inames=i, id=z}\nacc[j] = acc[j] + s[i_in] {inames=i:r, id=u, dep=z}\nb[i] = acc[0] {dep=u}\n"), nil, map[string]int64{"n": 128}},
		{"barrier in block", "barrier.knl", registerKernel("j unr", "acc[j] = s[i_in] {inames=i, id=ld}\nbarrier {inames=j}\nb[i] = acc[0] + acc[3] {dep=ld}\n"), nil, map[string]int64{"n": 128}},
	} {
		var src []byte
		if c.src != "" {
			src = []byte(c.src)
		}
		if got := registerLoadsOf(t, c.file, src, c.consts, c.params); len(got) != 0 {
			t.Errorf("%s: %v, want none", c.name, got)
		}
	}
}

// TestRegisterLoadsKept checks a load that does not depend on its block's
// unrolled inames, in registerKernel's kernel: each work-item
// loads s[i_in] at four j and keeps three, 3n; and a load in a reduction
// over an unrolled iname inside the unrolled j, s[i_in] again, kept at
// every (j, r) but the first, 11n.
func TestRegisterLoadsKept(t *testing.T) {
	src := registerKernel("j unr, r unr", "acc[j] = s[i_in] + sum(r, s[i_in]) {inames=i, id=ld}\nb[i] = acc[0] + acc[3] {dep=ld}\n")
	const n = 128
	want := map[string]int64{"local.load.f32": 3*n + 11*n}
	if got := registerLoadsOf(t, "kept.knl", []byte(src), nil, map[string]int64{"n": n}); !maps.Equal(got, want) {
		t.Errorf("%v, want %v", got, want)
	}
}

// TestRegisterLoadsGlobal checks that the global loads the rule of
// RegisterLoadsAt would keep are among ReuseWorkItem's already: the
// convolution port's d_filter[i*FW + j], which does not depend on its
// unrolled yi and xi, at 2 x 2 tiles of 16 x 16 blocks on a 40 x 40
// image. Its 1600 pixels load each of the 289 filter cells once, and
// each work-item with a pixel loads a cell first once: the work-items
// whose first row and column are within the image, within(40, 32, 16)
// = 24 each way, 576 of them. The repeats are (1600 - 576)*289.
func TestRegisterLoadsGlobal(t *testing.T) {
	const file = "../examples/convolution_kernel.knl"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	k, err := counts.ParseKernel(file, src, map[string]int64{"TX": 2, "TY": 2})
	if err != nil {
		t.Fatal(err)
	}
	c, err := counts.Count(k)
	if err != nil {
		t.Fatal(err)
	}
	hs, vals, err := c.HierarchyAt(map[string]int64{"h": 40, "w": 40})
	if err != nil {
		t.Fatal(err)
	}
	items := within(40, 32, 16) * within(40, 32, 16)
	want := map[string]int64{"d_filter": (1600 - items) * 289, "input": 0}
	got := map[string]int64{}
	for i, h := range hs {
		if h.Name == counts.ReuseWorkItem && h.Array != "" {
			got[h.Array] = vals[i]
		}
	}
	if !maps.Equal(got, want) {
		t.Errorf("%s by array: %v, want %v", counts.ReuseWorkItem, got, want)
	}
}
