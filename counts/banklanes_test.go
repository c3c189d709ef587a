package counts

import (
	"math/rand/v2"
	"testing"
)

// TestBankConflictsFloors checks the conflict classes of a local tile
// addressed through // and % of the lane (which lanes evaluates the
// map's way) against the interpreter's trace read by brute force: the
// store wm[tx // 2, tx % 2] reaches words tx, free of conflicts; the load
// wm[tx % 32, tx // 32] reaches words 2·(tx % 32) + tx // 32, two words
// in each even bank, degree 2 for every warp (64 lanes of each of n = 2
// groups).
func TestBankConflictsFloors(t *testing.T) {
	const src = `kernel floors
domain [n] -> { [g, tx] : 0 <= g < n and 0 <= tx < 64 }
array a f32 [64*n]
array b f32 [64*n]
local wm f32 [32, 2]
tag g g.0, tx l.0
wm[tx // 2, tx % 2] = a[64*g + tx]
barrier
b[64*g + tx] = wm[tx % 32, tx // 32]
`
	k, err := ParseKernel("floors.knl", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	cnt, err := Count(k)
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]int64{"n": 2}
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
		want := int64(0)
		if d == 2 {
			want = 128
		}
		if p := conflictProperty(F32, d); got[p] != traced[d] || got[p] != want {
			t.Errorf("%s: counted %d, traced %d, by hand %d", p, got[p], traced[d], want)
		}
	}
}

// TestLanesAffineAgainstMaps evaluates random subscripts and lane
// conditions, affine in two lanes beside other inames and parameters
// (at zero), at every lane of a box, by lanes' affine forms and by the
// map's way (Affine.Eval, dnf.holds), which must agree.
func TestLanesAffineAgainstMaps(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	coef := func() int64 { return r.Int64N(41) - 20 }
	for trial := range 200 {
		names := []string{"tx", "ty", "i", "n"}
		var index []Affine
		for range 2 {
			a := Affine{Const: coef()}
			for _, n := range names {
				if r.IntN(2) == 0 {
					a.Terms = append(a.Terms, Term{n, coef()})
				}
			}
			if r.IntN(3) == 0 {
				a.Terms = append(a.Terms, Term{"n*tx", coef()})
			}
			index = append(index, a)
		}
		acc := &Access{Array: &Array{Name: "wm", DType: F32, Space: Local, Shape: []Affine{{Const: 17}, {Const: 33}}}, Index: index}
		var conds []dnf
		for range r.IntN(3) {
			var d dnf
			for range 1 + r.IntN(2) {
				c := conj{{qaff{terms: []lterm{{"tx", coef()}, {"ty", coef()}}, c: coef() * 4}, r.IntN(5) == 0}}
				d = append(d, c)
			}
			conds = append(conds, d)
		}
		vals := map[string]int64{"tx": 0, "ty": 0, "i": 0, "n": 0}
		lane := [3]string{"tx", "ty", ""}
		lo, hi := [3]int64{0, 2, 0}, [3]int64{15, 9, 0}
		fast := newLanes(acc, lane, lo, hi, conds, vals)
		if !fast.affine {
			t.Fatalf("trial %d: no affine forms for %v", trial, index)
		}
		slow := *fast
		slow.affine = false
		for x := lo[0]; x <= hi[0]; x++ {
			for y := lo[1]; y <= hi[1]; y++ {
				v := [3]int64{x, y, 0}
				in1, f1, err1 := fast.at(v)
				in2, f2, err2 := slow.at(v)
				if in1 != in2 || in1 && f1 != f2 || err1 != nil || err2 != nil {
					t.Fatalf("trial %d at %v: affine (%v, %d, %v), maps (%v, %d, %v); index %v, conditions %v", trial, v, in1, f1, err1, in2, f2, err2, index, conds)
				}
			}
		}
	}
}
