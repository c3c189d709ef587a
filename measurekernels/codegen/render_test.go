package codegen

import (
	"slices"
	"testing"

	"github.com/uniperf/uniperf/polyhedra"
)

// Constraints read as written by hand: variables on the left, positive
// where the signs allow.
func TestConstraintC(t *testing.T) {
	s, err := polyhedra.ParseSet("[n] -> { [i, j, d] : 12*i + j <= n - 1 and j >= i and 2*j <= 3*i + 5 and n >= 14 and d = 0 }")
	if err != nil {
		t.Fatal(err)
	}
	pieces, err := s.Bounds("d", []string{"i", "j"})
	if err != nil || len(pieces) != 1 {
		t.Fatalf("%v pieces, %v", len(pieces), err)
	}
	var got []string
	for _, c := range pieces[0].Guard {
		got = append(got, constraintC(c, map[string]bool{"n": true}, nil))
	}
	for _, want := range []string{"12*i + j < n", "j >= i", "3*i >= 2*j - 5", "n >= 14"} {
		if !slices.Contains(got, want) {
			t.Errorf("no %q among %q", want, got)
		}
	}
}
