package polyhedra

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestApart checks apart's proofs of disjointness against enumeration of
// the parameter plane: two random domains on n and m (with a floor now
// and then, which apart must not misread) that it calls apart share no
// point in a box around the origin, and hand-made pairs come out as
// derived by hand.
func TestApart(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"n <= 16", "n >= 17", true},
		{"n <= 16", "n >= 16", false},
		{"n + m = 5", "n + m >= 6", true},
		{"n + m = 5", "-n - m >= -4", true},
		{"n >= 1 and m <= 3", "m >= 4 and n >= 1", true},
		{"2n <= 7", "3n >= 10", true},              // n <= 3 against n >= 4
		{"n + m <= 3", "n >= 4", false},            // they meet where m <= -1
		{"n <= 3 and m <= 0", "n + m >= 4", false}, // disjoint, but no two rows are opposite
	} {
		a, b := zeroDimPart(t, c.a), zeroDimPart(t, c.b)
		if got := apart(paramHalfSpaces(a), paramHalfSpaces(b)); got != c.want {
			t.Errorf("apart(%s, %s) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	r := rand.New(rand.NewSource(7))
	found := 0
	for range 3000 {
		a, b := randomParamDomain(r), randomParamDomain(r)
		pa, pb := zeroDimPart(t, a), zeroDimPart(t, b)
		if pa == nil || pb == nil || !apart(paramHalfSpaces(pa), paramHalfSpaces(pb)) {
			continue
		}
		found++
		for n := int64(-12); n <= 12; n++ {
			for m := int64(-12); m <= 12; m++ {
				_, inA := pa.contains([]int64{n, m})
				_, inB := pb.contains([]int64{n, m})
				if inA && inB {
					t.Fatalf("apart(%s, %s), but both hold at n = %d, m = %d", a, b, n, m)
				}
			}
		}
	}
	if found < 100 {
		t.Fatalf("only %d random pairs were apart: the test proves little", found)
	}
}

// zeroDimPart parses [n, m] -> { [] : cond } into its one basic set, or
// nil where the parser finds it empty.
func zeroDimPart(t *testing.T, cond string) *bset {
	t.Helper()
	s, err := ParseSet("[n, m] -> { [] : " + cond + " }")
	if err != nil {
		t.Fatal(err)
	}
	switch len(s.parts) {
	case 0:
		return nil
	case 1:
		return s.parts[0]
	}
	t.Fatalf("%s: %d parts, want 1", cond, len(s.parts))
	return nil
}

// randomParamDomain is a conjunction of two or three random constraints
// on n and m, with small coefficients so that opposite rows are common.
func randomParamDomain(r *rand.Rand) string {
	var cs []string
	for range 2 + r.Intn(2) {
		a, b, c := r.Intn(3)-1, r.Intn(3)-1, r.Intn(9)-4
		lhs := fmt.Sprintf("%d*n + %d*m", a, b)
		if r.Intn(5) == 0 {
			lhs = fmt.Sprintf("%d*floor((n + %d)/3) + %d*m", a, r.Intn(3), b)
		}
		op := [...]string{"<=", ">=", "="}[r.Intn(3)]
		cs = append(cs, fmt.Sprintf("%s %s %d", lhs, op, c))
	}
	return strings.Join(cs, " and ")
}
