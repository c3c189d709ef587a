package counts_test

import (
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// dataLoopMax opens a data-bounded loop of i, inside one of t < n, up
// to its max, which a case appends with the loop's body and ends.
const dataLoopMax = "kernel k\ndomain [n] -> { [t] : 0 <= t < n }\narray r i32 [n]\narray o f32 [n]\nfor t\n<i32> rl = r[t]\nfor i = 0 .. rl max "

// TestDataLoopMaxAdvice follows the refusals of TestParseErrors: the
// max nh of a parameter tied to n by an assumption, a floor of
// constants and a quotient that divides exactly count the store o[t] = i
// max times for each of the n values of t (an upper bound, at stride 0:
// t is not tagged): n*nh, 3n for floor(7/2), n(n + 1) for (2n + 2)/2;
// 32, 24 and 72 at n = 8 (nh = 4, n // 2).
func TestDataLoopMaxAdvice(t *testing.T) {
	for _, c := range []struct {
		max, assume string
		params      map[string]int64
		want        int64
	}{
		{"nh", "assume 2*nh <= n <= 2*nh + 1\n", map[string]int64{"n": 8, "nh": 4}, 32},
		{"floor(7/2)", "", map[string]int64{"n": 8}, 24},
		{"(2*n + 2)/2", "", map[string]int64{"n": 8}, 72},
	} {
		src := dataLoopMax + c.max + "\no[t] = i\nend\nend\n" + c.assume
		k, err := counts.ParseKernel("k.knl", []byte(src), nil)
		if err != nil {
			t.Fatalf("max %s: %v", c.max, err)
		}
		cs, err := counts.Count(k)
		if err != nil {
			t.Fatal(err)
		}
		v, err := cs.Eval(c.params)
		if err != nil {
			t.Fatal(err)
		}
		if got := v["global.store.f32.stride=0"]; got != c.want {
			t.Errorf("max %s: %d stores at n = 8, nh = 5, want %d", c.max, got, c.want)
		}
	}
}
