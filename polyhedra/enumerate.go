package polyhedra

import (
	"fmt"
	"slices"
)

// Enumerate calls visit with every integer point of s at the given
// parameter values, each point once, in lexicographic order within each
// basic set of s. The point slice is reused between calls; copy it to keep
// it. Enumeration stops when visit returns false. A missing parameter or
// a dimension without bounds at these values is an error.
func (s *Set) Enumerate(params map[string]int64, visit func(point []int64) bool) (err error) {
	return s.EnumerateLimits(params, Limits{}, visit)
}

// EnumerateLimits is Enumerate within l: past l.MaxPoints candidate
// points (those of the bounding shadows, which may be far more than the
// set's own) it fails with a *BudgetError.
func (s *Set) EnumerateLimits(params map[string]int64, l Limits, visit func(point []int64) bool) (err error) {
	defer catch(&err, "enumerating set")
	l = l.withDefaults()
	steps := &enumBudget{max: l.MaxPoints}
	vals, err := paramValues(s.params, params)
	if err != nil {
		return err
	}
	var done []*bset
	point := make([]int64, len(s.dims))
	fix := make([]bool, len(vals))
	for i := range fix {
		fix[i] = true
	}
	for _, p := range s.parts {
		b := p.clone()
		b.fixParams(fix, vals)
		if !b.normalize() {
			continue
		}
		e := &enumerator{b: b, earlier: done, point: point, dims: s.dims, visit: visit, steps: steps}
		more, err := e.start()
		if err != nil || !more {
			return err
		}
		done = append(done, b)
	}
	return nil
}

// An enumerator walks the points of one parameter-free bset, taking the
// range of each dimension from the Fourier–Motzkin shadow of the bset on
// the dimensions up to it (a superset), and testing every candidate point
// exactly.
type enumerator struct {
	b       *bset
	earlier []*bset // points in these were visited already
	point   []int64
	dims    []string
	visit   func([]int64) bool
	shadows []shadow // shadows[k] constrains dimensions 0..k
	steps   *enumBudget
	cols    []int64 // contains's buffer
}

// enumBudget counts the candidate points of an enumeration; nil is no
// budget (an internal enumeration that bounds its sets itself).
type enumBudget struct{ used, max int64 }

func (b *enumBudget) charge() error {
	if b == nil {
		return nil
	}
	if b.used++; b.used > b.max {
		return &BudgetError{Limit: "points", Value: b.max}
	}
	return nil
}

type shadow struct{ eqs, ineqs [][]int64 }

// start computes the shadows and enumerates; it reports whether to go on.
func (e *enumerator) start() (bool, error) {
	nd := e.b.nd
	e.shadows = make([]shadow, nd)
	eqs, ineqs := e.b.fmRows(0)
	elim := make([]bool, e.b.width())
	for c := e.b.firstDiv(); c < len(elim); c++ {
		elim[c] = true
	}
	for k := nd - 1; k >= 0; k-- {
		outEqs, outIneqs, res := fmEliminate(eqs, ineqs, elim)
		switch res {
		case fmEmpty:
			return true, nil
		case fmGaveUp:
			return false, fmt.Errorf("dimension %s: set too complex to bound", e.dims[k])
		}
		e.shadows[k] = shadow{outEqs, outIneqs}
		eqs, ineqs = outEqs, outIneqs
		elim[e.b.firstDim()+k] = true
	}
	return e.run(0)
}

// run enumerates dimension k onwards.
func (e *enumerator) run(k int) (bool, error) {
	if k == len(e.point) {
		return e.leaf(), nil
	}
	lo, hi, err := e.bounds(k)
	if err != nil {
		return false, err
	}
	for v := lo; v <= hi; v++ {
		if err := e.steps.charge(); err != nil {
			return false, err
		}
		e.point[k] = v
		if more, err := e.run(k + 1); !more || err != nil {
			return false, err
		}
	}
	return true, nil
}

func (e *enumerator) leaf() bool {
	if !e.contains(e.b) {
		return true
	}
	for _, o := range e.earlier {
		if e.contains(o) {
			return true
		}
	}
	return e.visit(e.point)
}

// contains reports whether a parameter-free bset contains the point.
func (e *enumerator) contains(b *bset) bool {
	w := b.width()
	e.cols = slices.Grow(e.cols[:0], w)[:w]
	clear(e.cols)
	e.cols[0] = 1
	copy(e.cols[1:], e.point)
	return b.holds(e.cols)
}

// bounds returns the range of dimension k given the values of 0..k-1; an
// empty range is lo > hi.
func (e *enumerator) bounds(k int) (lo, hi int64, err error) {
	sh := e.shadows[k]
	col := e.b.firstDim() + k
	rest := func(r []int64) int64 {
		s := r[0]
		for j := 0; j < k; j++ {
			s = add64(s, mul64(r[e.b.firstDim()+j], e.point[j]))
		}
		return s
	}
	hasLo, hasHi := false, false
	lower := func(v int64) {
		if !hasLo || v > lo {
			lo, hasLo = v, true
		}
	}
	upper := func(v int64) {
		if !hasHi || v < hi {
			hi, hasHi = v, true
		}
	}
	for _, r := range sh.eqs { // a*x + rest = 0
		a, v := r[col], rest(r)
		if a < 0 {
			a, v = neg64(a), neg64(v)
		}
		switch {
		case a == 0 && v != 0, a != 0 && v%a != 0:
			return 1, 0, nil
		case a != 0:
			lower(neg64(v) / a)
			upper(neg64(v) / a)
		}
	}
	for _, r := range sh.ineqs { // a*x + rest >= 0
		a, v := r[col], rest(r)
		switch {
		case a > 0:
			lower(neg64(floorDiv(v, a)))
		case a < 0:
			upper(floorDiv(v, neg64(a)))
		case v < 0:
			return 1, 0, nil
		}
	}
	if !hasLo || !hasHi {
		return 0, 0, &UnboundedError{Dim: e.dims[k]}
	}
	return lo, hi, nil
}

// Specialize returns s with the given parameters replaced by their
// values; the result's parameters are the others, in their order. Names
// that are not parameters of s are ignored. Counting a set specialised
// to every parameter is much cheaper than counting it symbolically.
func (s *Set) Specialize(params map[string]int64) (sp *Set, err error) {
	defer catch(&err, "specializing set")
	fix := make([]bool, len(s.params))
	vals := make([]int64, len(s.params))
	var rest []string
	for i, p := range s.params {
		vals[i], fix[i] = params[p]
		if !fix[i] {
			rest = append(rest, p)
		}
	}
	sp = &Set{name: s.name, params: rest, dims: slices.Clone(s.dims)}
	for _, p := range s.parts {
		b := p.clone()
		b.fixParams(fix, vals)
		sp.parts = append(sp.parts, b)
	}
	sp.parts = cleanParts(sp.parts)
	return sp, nil
}

// fixParams replaces each parameter i with fix[i] by vals[i] and drops
// its column.
func (b *bset) fixParams(fix []bool, vals []int64) {
	for i := len(fix) - 1; i >= 0; i-- {
		if fix[i] {
			b.substitute(1+i, b.unit(0, vals[i]))
			b.deleteCol(1 + i)
		}
	}
}
