package examples_test

import (
	"os"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// spmv_ellpackr written as SHOC writes it, through int ind = i*dim + t,
// loads and stores what the shipped kernel (the subscript written out)
// does, every memory property alike: ind subscripts as its expression.
// Its counts still differ by ind's own i32 mul and add a trip, dim*maxrl
// each (upper bounds, as the loop's), which the counts keep (the
// temporary's arithmetic counts where it is assigned); so the shipped
// kernel keeps the written-out form, whose measured rows match it.
func TestEllpackrIndexTemporary(t *testing.T) {
	src, err := os.ReadFile("spmv_ellpackr.knl")
	if err != nil {
		t.Fatal(err)
	}
	const written = "    result = result + val[i*dim + t]*vec[cols[i*dim + t]]\n"
	const ind = "    <i32> ind = i*dim + t\n    result = result + val[ind]*vec[cols[ind]]\n"
	if !strings.Contains(string(src), written) {
		t.Fatalf("spmv_ellpackr.knl has no line %q", written)
	}
	count := func(src string) *counts.Counted {
		k, err := counts.ParseKernel("spmv_ellpackr.knl", []byte(src), nil)
		if err != nil {
			t.Fatal(err)
		}
		c, err := counts.Count(k)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	shipped, viaInd := count(string(src)), count(strings.Replace(string(src), written, ind, 1))
	for _, p := range []map[string]int64{{"dim": 301, "maxrl": 7}, {"dim": 1 << 16, "maxrl": 64}, {"dim": 1, "maxrl": 1}} {
		want, err := shipped.Eval(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := viaInd.Eval(p)
		if err != nil {
			t.Fatal(err)
		}
		want["int.i32.add"] += p["dim"] * p["maxrl"]
		want["int.i32.mul"] += p["dim"] * p["maxrl"]
		for name := range merged(got, want) {
			if got[name] != want[name] {
				t.Errorf("at %v: %s = %d through ind, want %d", p, name, got[name], want[name])
			}
		}
	}
}

func merged(a, b map[string]int64) map[string]bool {
	out := map[string]bool{}
	for n := range a {
		out[n] = true
	}
	for n := range b {
		out[n] = true
	}
	return out
}
