package cimport

import "strings"

// The tunables (-D macros kept as .knl consts) are carried in
// polynomials as names, as the size parameters are; these helpers
// decide what a polynomial in them is whatever their (positive) values.

// isTunable reports whether a monomial's factor is a tunable.
func (t *translator) isTunable(name string) bool {
	_, ok := t.opts.tunables[name]
	return ok
}

// constLike reports whether p is a constant, or a polynomial in the
// tunables alone: what the .knl's consts make a constant.
func (t *translator) constLike(p poly) bool {
	for m := range p {
		if m == "" {
			continue
		}
		for _, f := range strings.Split(m, "*") {
			if !t.isTunable(f) {
				return false
			}
		}
	}
	return true
}

// value evaluates a constant-like polynomial at the tunables' values.
func (t *translator) value(p poly) (int64, bool) {
	if !t.constLike(p) {
		return 0, false
	}
	sum := int64(0)
	for m, c := range p {
		term := c
		if m != "" {
			for _, f := range strings.Split(m, "*") {
				var ok bool
				if term, ok = mulInt(term, t.opts.tunables[f]); !ok {
					return 0, false
				}
			}
		}
		var ok bool
		if sum, ok = addInt(sum, term); !ok {
			return 0, false
		}
	}
	return sum, true
}

// sign returns the sign of a constant-like polynomial that holds
// whatever the (positive) tunables: 1, -1 or 0, and false where its
// coefficients differ in sign or it is not constant-like.
func (t *translator) sign(p poly) (int, bool) {
	if !t.constLike(p) {
		return 0, false
	}
	s := 0
	for _, c := range p {
		cs := 1
		if c < 0 {
			cs = -1
		}
		if s != 0 && cs != s {
			return 0, false
		}
		s = cs
	}
	return s, true
}

// positive reports a constant-like polynomial above 0 for any tunables,
// and its value now.
func (t *translator) positive(p poly) (int64, bool) {
	s, ok := t.sign(p)
	v, _ := t.value(p)
	return v, ok && s > 0
}
