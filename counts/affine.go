package counts

import (
	"fmt"
	"slices"
	"strings"
)

// Affine is an affine integer expression in inames and parameters: the
// form every subscript and every iname-valued expression takes after
// parsing and splitting. Terms are kept in the order the names were first
// met, without zero coefficients or repeated names.
type Affine struct {
	Terms []Term
	Const int64
}

// Term is Coeff times the iname or parameter Name.
type Term struct {
	Name  string
	Coeff int64
}

// Coeff returns the coefficient of name (0 when absent).
func (a Affine) Coeff(name string) int64 {
	for _, t := range a.Terms {
		if t.Name == name {
			return t.Coeff
		}
	}
	return 0
}

// IsConst reports whether a mentions no name.
func (a Affine) IsConst() bool { return len(a.Terms) == 0 }

func (a Affine) String() string {
	var b strings.Builder
	for i, t := range a.Terms {
		c := t.Coeff
		switch {
		case i == 0 && c < 0:
			b.WriteString("-")
		case i > 0 && c < 0:
			b.WriteString(" - ")
		case i > 0:
			b.WriteString(" + ")
		}
		if absU(c) != 1 {
			fmt.Fprintf(&b, "%d*", absU(c))
		}
		b.WriteString(t.Name)
	}
	switch {
	case len(a.Terms) == 0:
		fmt.Fprintf(&b, "%d", a.Const)
	case a.Const > 0:
		fmt.Fprintf(&b, " + %d", a.Const)
	case a.Const < 0:
		fmt.Fprintf(&b, " - %d", absU(a.Const))
	}
	return b.String()
}

// addScaled returns a + k*b.
func (a Affine) addScaled(b Affine, k int64) (Affine, error) {
	r := Affine{Terms: slices.Clone(a.Terms)}
	var err error
	if r.Const, err = addScaled(a.Const, b.Const, k); err != nil {
		return Affine{}, err
	}
	for _, t := range b.Terms {
		i := slices.IndexFunc(r.Terms, func(u Term) bool { return u.Name == t.Name })
		if i < 0 {
			r.Terms = append(r.Terms, Term{t.Name, 0})
			i = len(r.Terms) - 1
		}
		if r.Terms[i].Coeff, err = addScaled(r.Terms[i].Coeff, t.Coeff, k); err != nil {
			return Affine{}, err
		}
	}
	r.Terms = slices.DeleteFunc(r.Terms, func(t Term) bool { return t.Coeff == 0 })
	return r, nil
}

// subst replaces name by e.
func (a Affine) subst(name string, e Affine) (Affine, error) {
	k := a.Coeff(name)
	if k == 0 {
		return a, nil
	}
	r := Affine{Const: a.Const}
	for _, t := range a.Terms {
		if t.Name != name {
			r.Terms = append(r.Terms, t)
		}
	}
	return r.addScaled(e, k)
}

func (a Affine) qaff() qaff {
	q := qaff{c: a.Const}
	for _, t := range a.Terms {
		q.terms = append(q.terms, lterm{t.Name, t.Coeff})
	}
	return q
}
