package counts

import (
	"fmt"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/measurekernels/library"
)

// traceConflicts reads the bank-conflict classes off a traced run by
// brute force: each execution of a local access site by a work-group,
// split into warps of 32 work-items by linear local id, asks each of 32
// banks of 4 bytes for the distinct words its lanes' elements cover; the
// warp's degree is the largest number of words of one bank over the
// words an element covers, rounded up to a power of two. It returns, per
// degree above 1, the accesses of warps of that degree.
func traceConflicts(k *Kernel, tl *Tally) map[int64]int64 {
	out := map[int64]int64{}
	for _, s := range tl.LocalSites {
		elem := int64(k.Array(s.Array).DType.Size())
		span := max(elem/4, 1)
		for _, lanes := range s.Instances {
			words := map[int64]map[int64]map[int64]bool{} // warp -> bank -> words
			size := map[int64]int64{}
			for wi, flat := range lanes {
				w := wi / 32
				size[w]++
				if words[w] == nil {
					words[w] = map[int64]map[int64]bool{}
				}
				for x := flat * elem / 4; x < (flat+1)*elem/4 || x == flat*elem/4; x++ {
					if words[w][x%32] == nil {
						words[w][x%32] = map[int64]bool{}
					}
					words[w][x%32][x] = true
				}
			}
			for w, banks := range words {
				most := int64(0)
				for _, ws := range banks {
					most = max(most, int64(len(ws)))
				}
				degree := int64(1)
				for degree < (most+span-1)/span {
					degree *= 2
				}
				if degree > 1 {
					out[degree] += size[w]
				}
			}
		}
	}
	return out
}

// TestBankConflicts checks the conflict classes of local accesses
// against the interpreter's trace read by brute force (traceConflicts),
// and against degrees derived by hand. A warp of 32 lanes accessing f32
// words at stride S meets gcd(S, 32) lanes in a bank: degrees 1, 2, 4,
// 2 (S = 6), 8 and 32. For f64, element stride S covers words 2S·i and
// 2S·i + 1: stride 1 fills every bank twice over two passes, degree 1;
// stride 2 asks a bank for 4 words, degree 2; strides 16 and 32 ask
// banks 0 and 1 for 32 words each, degree 16. The transposing tile t[LX, LX +
// PAD], stored by rows t[r, c] and loaded by columns t[d, s] with d and c
// on l.0 and r and s on l.1: with 16 x 16 work-groups a warp spans two
// rows; unpadded, the store is free (banks c and 16 + c) and the load
// meets 8 lanes in each of banks 0, 16, 1 and 17 (16d + s), degree 8;
// padded, both address 17·x + y and lane (15, 1) meets lane (0, 0) in
// bank 0, degree 2. With 32 x 8 work-groups a warp is one row:
// unpadded, every lane of the load is in one bank (32d + s), degree 32;
// padded, no conflict.
func TestBankConflicts(t *testing.T) {
	testBankConflicts(t, func(k *Kernel, _ map[string]int64) (*Counted, error) { return Count(k) })
}

// TestBankConflictsShared counts TestBankConflicts' kernels at their
// sizes, one after the other, sharing one Shared: the classes a kernel
// finds kept by another are right only where everything they depend on
// tells the two apart (the strided kernel's accesses differ in S, the
// element's size, or nothing).
func TestBankConflictsShared(t *testing.T) {
	shared := NewShared()
	testBankConflicts(t, func(k *Kernel, params map[string]int64) (*Counted, error) {
		return CountWithAt(k, Options{Shared: shared}, params)
	})
	if len(shared.classes) == 0 {
		t.Error("no classes were shared")
	}
}

// testBankConflicts checks TestBankConflicts' cases with the counts of
// count.
func testBankConflicts(t *testing.T, count func(*Kernel, map[string]int64) (*Counted, error)) {
	const strided = `kernel strided
const S = 1
domain [n] -> { [i] : 0 <= i < n }
array a T [n]
array b T [n]
local t T [64*S]
split i 64 i_out i_in
tag i_out g.0, i_in l.0
t[S*i_in] = a[i]
barrier
b[i] = t[S*((i_in + 1) % 64)]
`
	const tile = `kernel tile
const LX = 16
const LY = 16
const PAD = 1
domain [n] -> { [bi, bj] : 0 <= bi and LX*bi < n and 0 <= bj and LX*bj < n }
domain { [r, c] : 0 <= r < LX and 0 <= c < LX and LX*bi + r < n and LX*bj + c < n }
domain { [s, d] : 0 <= s < LX and 0 <= d < LX and LX*bj + s < n and LX*bi + d < n }
array a f32 [n, n]
array b f32 [n, n]
local t f32 [LX, LX + PAD]
split r LY r_out r_in
split s LY s_out s_in
tag bi g.1, bj g.0, r_in l.1, c l.0, s_in l.1, d l.0
t[r, c] = a[LX*bi + r, LX*bj + c]
barrier
b[LX*bj + s, LX*bi + d] = t[d, s]
`
	b, err := library.Source("local_bank")
	if err != nil {
		t.Fatal(err)
	}
	bank := string(b)
	n := int64(128)
	for _, c := range []struct {
		src    string
		consts map[string]int64
		want   map[string]int64
	}{
		{strided, map[string]int64{"S": 1}, nil},
		{strided, map[string]int64{"S": 2}, map[string]int64{"local.f32.conflict=2": 2 * n}},
		{strided, map[string]int64{"S": 4}, map[string]int64{"local.f32.conflict=4": 2 * n}},
		{strided, map[string]int64{"S": 6}, map[string]int64{"local.f32.conflict=2": 2 * n}},
		{strided, map[string]int64{"S": 8}, map[string]int64{"local.f32.conflict=8": 2 * n}},
		{strided, map[string]int64{"S": 32}, map[string]int64{"local.f32.conflict=32": 2 * n}},
		{"f64" + strided, map[string]int64{"S": 1}, nil},
		{"f64" + strided, map[string]int64{"S": 2}, map[string]int64{"local.f64.conflict=2": 2 * n}},
		{"f64" + strided, map[string]int64{"S": 16}, map[string]int64{"local.f64.conflict=16": 2 * n}},
		{"f64" + strided, map[string]int64{"S": 32}, map[string]int64{"local.f64.conflict=16": 2 * n}},
		{tile, map[string]int64{"PAD": 0}, map[string]int64{"local.f32.conflict=8": n * n}},
		{tile, map[string]int64{"PAD": 1}, map[string]int64{"local.f32.conflict=2": 2 * n * n}},
		{tile, map[string]int64{"LX": 32, "LY": 8, "PAD": 0}, map[string]int64{"local.f32.conflict=32": n * n}},
		{tile, map[string]int64{"LX": 32, "LY": 8, "PAD": 1}, nil},
		// local_bank at LX = 64 (R = 32): 32 loads per element and n + n/2
		// stores, all at stride S.
		{bank, map[string]int64{"LX": 64, "S": 2}, map[string]int64{"local.f32.conflict=2": 32*n + n + n/2}},
		{bank, map[string]int64{"LX": 64, "S": 32}, map[string]int64{"local.f32.conflict=32": 32*n + n + n/2}},
		{bank, map[string]int64{"LX": 64, "S": 1}, nil},
	} {
		src, dtype := c.src, "f32"
		if src[:3] == "f64" {
			src, dtype = src[3:], "f64"
		}
		src = strings.ReplaceAll(src, " T [", " "+dtype+" [")
		name := fmt.Sprintf("%s/%s/%v", strings.Fields(src[strings.Index(src, "kernel "):])[1], dtype, c.consts)
		t.Run(name, func(t *testing.T) {
			k, err := ParseKernel("test.knl", []byte(src), c.consts)
			if err != nil {
				t.Fatal(err)
			}
			params := map[string]int64{"n": n}
			cnt, err := count(k, params)
			if err != nil {
				t.Fatal(err)
			}
			got, err := cnt.Eval(params)
			if err != nil {
				t.Fatal(err)
			}
			tl, err := Run(k, params, randomArrays(t, k, params), &RunOptions{Trace: true})
			if err != nil {
				t.Fatal(err)
			}
			traced := traceConflicts(k, tl)
			for d := int64(2); d <= 64; d *= 2 {
				p := conflictProperty(k.Array("t").DType, d)
				if got[p] != traced[d] || got[p] != c.want[p] {
					t.Errorf("%s: counted %d, traced %d, by hand %d", p, got[p], traced[d], c.want[p])
				}
			}
		})
	}
}

// TestBankConflictsPerWarp checks conflict classes that differ from warp
// to warp, against the interpreter's trace read by brute force
// (traceConflicts) and against hand counts. A 16 x 16 group reads the
// tile wm[16, 16] by columns, wm[tx, ty] (word 16tx + ty), under a
// predicate; a warp is two rows, ty = 2w and 2w + 1. Under tx == 0 each
// warp has two active lanes, words 2w and 2w + 1: no conflict (the
// worst warp's degree, 8, was once applied to them). Under tx < 2*ty, row
// 2w has lanes tx < 4w and row 2w + 1 lanes tx < 4w + 2, and bank ty + 1
// is asked for the even tx < 4w + 2 of the second row: min(2w + 1, 8)
// words. Warp 0 (2 lanes) is free, warp 1 (4 + 6 lanes) of degree 3,
// class 4, and warps 2 to 7 (18, 26, then 32 each) of class 8: per group
// 10 accesses of class 4 and 172 of class 8. The stores wm[ty, tx] are
// free. Under tx < n, a condition on a lane and a parameter, the lanes
// it leaves are not known when counting: every lane is taken as active,
// and the class is marked as an upper bound.
func TestBankConflictsPerWarp(t *testing.T) {
	const src = `kernel pred
domain [n] -> { [g, tx, ty] : 0 <= g < n and 0 <= tx < 16 and 0 <= ty < 16 }
array a f32 [256*n]
array b f32 [256*n]
local wm f32 [16, 16]
tag g g.0, tx l.0, ty l.1
wm[ty, tx] = a[256*g + 16*ty + tx]
barrier
if COND: b[256*g + 16*ty + tx] = wm[tx, ty]
`
	const n = 3
	for _, c := range []struct {
		cond  string
		want  map[int64]int64
		upper bool
	}{
		{"tx == 0", nil, false},
		{"tx < 2*ty", map[int64]int64{4: 10 * n, 8: 172 * n}, false},
		{"tx >= 0", map[int64]int64{8: 256 * n}, false},
		{"tx < n + 13", map[int64]int64{8: 256 * n}, true},
	} {
		t.Run(c.cond, func(t *testing.T) {
			k, err := ParseKernel("pred.knl", []byte(strings.Replace(src, "COND", c.cond, 1)), nil)
			if err != nil {
				t.Fatal(err)
			}
			cnt, err := Count(k)
			if err != nil {
				t.Fatal(err)
			}
			params := map[string]int64{"n": n}
			got, err := cnt.Eval(params)
			if err != nil {
				t.Fatal(err)
			}
			tl, err := Run(k, params, randomArrays(t, k, params), &RunOptions{Trace: true})
			if err != nil {
				t.Fatal(err)
			}
			traced := traceConflicts(k, tl)
			for d := int64(2); d <= 64; d *= 2 {
				p := conflictProperty(F32, d)
				if got[p] != traced[d] || got[p] != c.want[d] {
					t.Errorf("%s: counted %d, traced %d, by hand %d", p, got[p], traced[d], c.want[d])
				}
			}
			props, err := cnt.Properties()
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range props {
				if strings.Contains(p.Name, ".conflict=") && p.UpperBound != c.upper {
					t.Errorf("%s: upper bound %v, want %v", p.Name, p.UpperBound, c.upper)
				}
			}
		})
	}
}
