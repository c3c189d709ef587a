package polyhedra

import (
	"errors"
	"strings"
	"testing"
)

// dimsSet is the set of the reliability issue: per dimension 0 <= xK < n,
// xK != K and xK mod 3 != 1, and x0 + x1 + x2 <= m; each dimension
// doubles the basic sets twice.
func dimsSet(d int) string {
	var dims, conds []string
	for k := range d {
		x := "x" + string(rune('0'+k))
		dims = append(dims, x)
		conds = append(conds, "0 <= "+x+" < n and "+x+" != "+string(rune('0'+k))+" and "+x+" mod 3 != 1")
	}
	return "[n, m] -> { [" + strings.Join(dims, ", ") + "] : " + strings.Join(conds, " and ") + " and x0 + x1 + x2 <= m }"
}

// bruteDims counts the points of dimsSet(d) by nested loops over the box.
func bruteDims(d int, n, m int64) int64 {
	var count int64
	x := make([]int64, d)
	var walk func(k int)
	walk = func(k int) {
		if k == d {
			if x[0]+x[1]+x[2] <= m {
				count++
			}
			return
		}
		for v := int64(0); v < n; v++ {
			if v != int64(k) && v%3 != 1 {
				x[k] = v
				walk(k + 1)
			}
		}
	}
	walk(0)
	return count
}

// Parsing the 7-D set needs 4^7 basic sets, past the default budget; it
// stops there, and CountAt counts it at n = 5, m = 4 as the loops do (162).
func TestCountAtPastThePieceBudget(t *testing.T) {
	src := dimsSet(7)
	_, err := ParseSetLimits(src, Limits{})
	var be *BudgetError
	if !errors.As(err, &be) || be.Limit != "pieces" {
		t.Fatalf("ParseSetLimits = %v, want the piece budget", err)
	}
	for _, nm := range [][2]int64{{5, 4}, {4, 2}, {7, 9}, {1, 0}} {
		got, err := CountAt(src, map[string]int64{"n": nm[0], "m": nm[1]}, Limits{}, 1<<30)
		if want := bruteDims(7, nm[0], nm[1]); err != nil || got != want {
			t.Errorf("n=%d m=%d: CountAt = %d, %v; want %d", nm[0], nm[1], got, err, want)
		}
	}
	if want := bruteDims(7, 5, 4); want != 162 {
		t.Errorf("the loops count %d, the issue 162", want)
	}
}

// A smaller budget stops parsing sooner: 100 pieces of the 6-D set.
func TestParseSetLimitsStopsAtTheBudget(t *testing.T) {
	_, err := ParseSetLimits(dimsSet(6), Limits{MaxPieces: 100})
	var be *BudgetError
	if !errors.As(err, &be) || be.Value != 100 {
		t.Fatalf("ParseSetLimits = %v, want the budget of 100", err)
	}
	if _, err := ParseSetLimits(dimsSet(2), Limits{MaxPieces: 100}); err != nil {
		t.Errorf("2-D set: %v", err)
	}
}

// Several pieces count a shared point once; or, not, min, max, floor and
// ceil evaluate as the built set counts them.
func TestCountAtAgreesWithCard(t *testing.T) {
	for _, src := range []string{
		"[n] -> { [i, j] : 0 <= i < n and 0 <= j < n and (i != j or i mod 2 = 0); [i, j] : 0 <= i, j < 3 }",
		"[n] -> { [i] : 0 <= i <= n and not (i % 3 = 1) and floor(i/2) != ceil(n/3) and min(i, 4) < max(2, n - i) }",
		"{ [i] : 0 <= i < 10 and i != 5 }",
	} {
		s, err := ParseSet(src)
		if err != nil {
			t.Fatal(err)
		}
		for n := int64(0); n <= 9; n++ {
			p := map[string]int64{"n": n}
			c, err := s.Card()
			if err != nil {
				t.Fatal(err)
			}
			want, err := c.Eval(p)
			if err != nil {
				t.Fatal(err)
			}
			got, err := CountAt(src, p, Limits{}, 1<<20)
			if err != nil || got != want.Int64() {
				t.Errorf("%s at n=%d: CountAt = %d, %v; Card %s", src, n, got, err, want)
			}
		}
	}
}

func TestCountAtRefuses(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"[n] -> { [i] : 0 <= i < n and exists (q : i = 2q + 1) }", "exists cannot be tested"},
		{"[n] -> { [i] : 0 <= i }", "no lower or no upper bound"},
		{"[n] -> { [i] : 0 <= i < n }", "more than 5 points"},
		{"[n, m] -> { [i] : 0 <= i < n + m }", "missing parameter m"},
	} {
		_, err := CountAt(c.src, map[string]int64{"n": 10}, Limits{}, 5)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.src, err, c.want)
		}
	}
}
