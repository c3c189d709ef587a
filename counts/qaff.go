package counts

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// qaff is a quasi-affine integer expression: integer multiples of names
// (inames and parameters), integer multiples of floor divisions of
// quasi-affine expressions by positive constants, and a constant. It is
// the expression language of domains and assumptions.
type qaff struct {
	terms  []lterm
	floors []fterm
	c      int64
}

type lterm struct {
	name string
	coef int64
}

type fterm struct {
	coef int64
	num  qaff
	den  int64
}

func qconst(c int64) qaff { return qaff{c: c} }

func qname(name string) qaff { return qaff{terms: []lterm{{name, 1}}} }

func (a qaff) isConst() bool { return len(a.terms) == 0 && len(a.floors) == 0 }

func (a qaff) clone() qaff {
	b := qaff{c: a.c, terms: slices.Clone(a.terms)}
	for _, f := range a.floors {
		b.floors = append(b.floors, fterm{f.coef, f.num.clone(), f.den})
	}
	return b
}

func (a qaff) coefOf(name string) int64 {
	for _, t := range a.terms {
		if t.name == name {
			return t.coef
		}
	}
	return 0
}

// add returns a + k*b.
func (a qaff) addScaled(b qaff, k int64) (qaff, error) {
	r := a.clone()
	var err error
	if r.c, err = addScaled(r.c, b.c, k); err != nil {
		return qaff{}, err
	}
	for _, t := range b.terms {
		i := slices.IndexFunc(r.terms, func(u lterm) bool { return u.name == t.name })
		if i < 0 {
			r.terms = append(r.terms, lterm{t.name, 0})
			i = len(r.terms) - 1
		}
		if r.terms[i].coef, err = addScaled(r.terms[i].coef, t.coef, k); err != nil {
			return qaff{}, err
		}
	}
	r.terms = slices.DeleteFunc(r.terms, func(t lterm) bool { return t.coef == 0 })
	for _, f := range b.floors {
		c, err := mulInt(f.coef, k)
		if err != nil {
			return qaff{}, err
		}
		i := slices.IndexFunc(r.floors, func(g fterm) bool { return g.den == f.den && g.num.equal(f.num) })
		if i < 0 {
			r.floors = append(r.floors, fterm{0, f.num.clone(), f.den})
			i = len(r.floors) - 1
		}
		if r.floors[i].coef, err = addInt(r.floors[i].coef, c); err != nil {
			return qaff{}, err
		}
	}
	r.floors = slices.DeleteFunc(r.floors, func(f fterm) bool { return f.coef == 0 })
	return r, nil
}

func addScaled(a, b, k int64) (int64, error) {
	p, err := mulInt(b, k)
	if err != nil {
		return 0, err
	}
	return addInt(a, p)
}

func (a qaff) scale(k int64) (qaff, error) { return qaff{}.addScaled(a, k) }

func (a qaff) equal(b qaff) bool {
	if a.c != b.c || len(a.terms) != len(b.terms) || len(a.floors) != len(b.floors) {
		return false
	}
	for _, t := range a.terms {
		if b.coefOf(t.name) != t.coef {
			return false
		}
	}
	for _, f := range a.floors {
		if !slices.ContainsFunc(b.floors, func(g fterm) bool { return g.coef == f.coef && g.den == f.den && g.num.equal(f.num) }) {
			return false
		}
	}
	return true
}

// floorOf returns ⌊a/d⌋ for d > 0, folding constants.
func floorOf(a qaff, d int64) qaff {
	if d == 1 {
		return a
	}
	if a.isConst() {
		return qconst(floorDiv(a.c, d))
	}
	return qaff{floors: []fterm{{1, a, d}}}
}

// subst replaces name by the expression e everywhere, inside floors too.
func (a qaff) subst(name string, e qaff) (qaff, error) {
	r := qaff{c: a.c}
	var err error
	for _, t := range a.terms {
		if t.name == name {
			r, err = r.addScaled(e, t.coef)
		} else {
			r, err = r.addScaled(qaff{terms: []lterm{t}}, 1)
		}
		if err != nil {
			return qaff{}, err
		}
	}
	for _, f := range a.floors {
		num, err := f.num.subst(name, e)
		if err != nil {
			return qaff{}, err
		}
		if r, err = r.addScaled(floorOf(num, f.den), f.coef); err != nil {
			return qaff{}, err
		}
	}
	return r, nil
}

// names appends the names a mentions, inside floors too, without repeats.
func (a qaff) names(dst []string) []string {
	for _, t := range a.terms {
		if !slices.Contains(dst, t.name) {
			dst = append(dst, t.name)
		}
	}
	for _, f := range a.floors {
		dst = f.num.names(dst)
	}
	return dst
}

// String renders a in isl syntax.
func (a qaff) String() string {
	var b strings.Builder
	first := true
	put := func(coef int64, body string) {
		switch {
		case first && coef < 0:
			b.WriteString("-")
		case !first && coef < 0:
			b.WriteString(" - ")
		case !first:
			b.WriteString(" + ")
		}
		first = false
		c := absU(coef)
		if body == "" {
			b.WriteString(strconv.FormatUint(c, 10))
			return
		}
		if c != 1 {
			b.WriteString(strconv.FormatUint(c, 10))
			b.WriteString("*")
		}
		b.WriteString(body)
	}
	for _, t := range a.terms {
		put(t.coef, t.name)
	}
	for _, f := range a.floors {
		put(f.coef, fmt.Sprintf("floor((%s)/%d)", f.num, f.den))
	}
	if a.c != 0 || first {
		put(a.c, "")
	}
	return b.String()
}

// cons is one constraint: e >= 0, or e = 0 when eq is set.
type cons struct {
	e  qaff
	eq bool
}

// conj is a conjunction of constraints; dnf a disjunction of them. The
// empty dnf is the empty set; a dnf holding one empty conj is everything.
type (
	conj []cons
	dnf  []conj
)

// String renders the constraint with positive terms on the left, as in
// "16*i_out + i_in <= n - 1".
func (c cons) String() string {
	var lhs, rhs qaff
	for _, t := range c.e.terms {
		if t.coef > 0 {
			lhs.terms = append(lhs.terms, t)
		} else {
			rhs.terms = append(rhs.terms, lterm{t.name, -t.coef})
		}
	}
	for _, f := range c.e.floors {
		if f.coef > 0 {
			lhs.floors = append(lhs.floors, f)
		} else {
			rhs.floors = append(rhs.floors, fterm{-f.coef, f.num, f.den})
		}
	}
	op := ">="
	if c.eq {
		op = "="
	}
	// The side with more terms goes left, ties as upper bounds:
	// i >= 0, 16*i_out + i_in <= n - 1, i <= n - 1.
	if len(lhs.terms)+len(lhs.floors) > len(rhs.terms)+len(rhs.floors) || len(rhs.terms)+len(rhs.floors) == 0 {
		rhs.c = -c.e.c
		return lhs.String() + " " + op + " " + rhs.String()
	}
	lhs.c = c.e.c
	if c.eq {
		return rhs.String() + " = " + lhs.String()
	}
	return rhs.String() + " <= " + lhs.String()
}

func (c conj) String() string {
	parts := make([]string, 0, len(c))
	for _, x := range c {
		// Projections repeat the assumptions once per domain they meet.
		if s := x.String(); !slices.Contains(parts, s) {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " and ")
}

// String renders the disjunction in isl syntax; "false" for the empty set.
func (d dnf) String() string {
	switch len(d) {
	case 0:
		return "1 = 0"
	case 1:
		return d[0].String()
	}
	parts := make([]string, len(d))
	for i, c := range d {
		parts[i] = "(" + c.String() + ")"
		if len(c) == 0 {
			parts[i] = "(0 = 0)"
		}
	}
	return strings.Join(parts, " or ")
}

// and returns the conjunction of two disjunctions.
func (d dnf) and(e dnf) dnf {
	if len(d) == 0 || len(e) == 0 {
		return nil
	}
	// Sized up front: tune counts every binding's conditions afresh,
	// and growing these slices was the largest single allocation site.
	r := make(dnf, 0, len(d)*len(e))
	for _, a := range d {
		for _, b := range e {
			r = append(r, append(append(make(conj, 0, len(a)+len(b)), a...), b...))
		}
	}
	return r
}

func (d dnf) subst(name string, e qaff) (dnf, error) {
	r := make(dnf, len(d))
	for i, c := range d {
		r[i] = make(conj, len(c))
		for j, x := range c {
			s, err := x.e.subst(name, e)
			if err != nil {
				return nil, err
			}
			r[i][j] = cons{s, x.eq}
		}
	}
	return r, nil
}

// holds reports whether d holds at vals, evaluated with checked
// arithmetic (a constraint that overflows does not hold).
func (d dnf) holds(vals map[string]int64) bool {
	for _, c := range d {
		ok := true
		for _, x := range c {
			v, err := evalQaffChecked(x.e, vals)
			if err != nil || (x.eq && v != 0) || (!x.eq && v < 0) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func (d dnf) names() []string {
	var out []string
	for _, c := range d {
		for _, x := range c {
			out = x.e.names(out)
		}
	}
	return out
}

// evalQaffChecked evaluates a at vals, failing on an overflow.
func evalQaffChecked(a qaff, vals map[string]int64) (int64, error) {
	s := a.c
	var err error
	for _, t := range a.terms {
		if s, err = addScaled(s, vals[t.name], t.coef); err != nil {
			return 0, err
		}
	}
	for _, f := range a.floors {
		n, err := evalQaffChecked(f.num, vals)
		if err != nil {
			return 0, err
		}
		if s, err = addScaled(s, floorDiv(n, f.den), f.coef); err != nil {
			return 0, err
		}
	}
	return s, nil
}
