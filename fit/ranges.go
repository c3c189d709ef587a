package fit

import "math"

// Ranges gathers values by key: for each key how many were noted and the
// least and greatest of them, with the keys in the order they were first
// noted. It merges the warnings of many predictions into one line per
// kernel and problem ([Coverage] and uniperf validate).
type Ranges[K comparable] struct {
	keys []K
	of   map[K]*Range
}

// Range is what Ranges keeps of one key's values.
type Range struct {
	N      int
	Lo, Hi float64
}

// Note adds v to the values of k.
func (r *Ranges[K]) Note(k K, v float64) {
	if r.of == nil {
		r.of = map[K]*Range{}
	}
	g, ok := r.of[k]
	if !ok {
		g = &Range{Lo: math.Inf(1), Hi: math.Inf(-1)}
		r.of[k] = g
		r.keys = append(r.keys, k)
	}
	g.N++
	g.Lo, g.Hi = math.Min(g.Lo, v), math.Max(g.Hi, v)
}

// Keys lists the keys noted, in the order first noted.
func (r *Ranges[K]) Keys() []K { return r.keys }

// Of returns what was noted of k (N 0 where nothing was).
func (r *Ranges[K]) Of(k K) Range {
	if g, ok := r.of[k]; ok {
		return *g
	}
	return Range{}
}
