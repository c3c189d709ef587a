package models

import (
	"slices"
	"testing"

	"github.com/uniperf/uniperf/datasets"
)

// TestFolds checks the folds of three rows of two classes: one a class,
// in sorted order, each holding its class's rows and calibrating on the
// others', in the rows' order.
func TestFolds(t *testing.T) {
	row := func(class string, i int) Row { return Row{Row: datasets.Row{Class: class}, Index: i} }
	rows := []Row{row("b", 0), row("a", 1), row("b", 2)}
	got := Folds(rows)
	idx := func(rs []Row) []int {
		var out []int
		for _, r := range rs {
			out = append(out, r.Index)
		}
		return out
	}
	want := []struct {
		class      string
		held, rest []int
	}{{"a", []int{1}, []int{0, 2}}, {"b", []int{0, 2}, []int{1}}}
	if len(got) != len(want) {
		t.Fatalf("%d folds, want %d", len(got), len(want))
	}
	for i, w := range want {
		if g := got[i]; g.Class != w.class || !slices.Equal(idx(g.Held), w.held) || !slices.Equal(idx(g.Rest), w.rest) {
			t.Errorf("fold %d: class %s, held %v, rest %v; want %s, %v, %v", i, g.Class, idx(g.Held), idx(g.Rest), w.class, w.held, w.rest)
		}
	}
}
