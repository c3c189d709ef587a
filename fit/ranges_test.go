package fit

import (
	"slices"
	"testing"
)

func TestRanges(t *testing.T) {
	var r Ranges[string]
	for _, n := range []struct {
		k string
		v float64
	}{{"b", 0.3}, {"a", 0.5}, {"b", 0.1}, {"b", 0.7}, {"a", 0.5}} {
		r.Note(n.k, n.v)
	}
	if !slices.Equal(r.Keys(), []string{"b", "a"}) {
		t.Errorf("keys %v, want b then a, as first noted", r.Keys())
	}
	if got := r.Of("b"); got != (Range{N: 3, Lo: 0.1, Hi: 0.7}) {
		t.Errorf("b: %+v", got)
	}
	if got := r.Of("a"); got != (Range{N: 2, Lo: 0.5, Hi: 0.5}) {
		t.Errorf("a: %+v", got)
	}
	if got := r.Of("c"); got.N != 0 {
		t.Errorf("c, never noted: %+v", got)
	}
}
