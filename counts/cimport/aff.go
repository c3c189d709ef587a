package cimport

import (
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// poly is a polynomial in the kernel's size parameters with integer
// coefficients, keyed by monomial: "" for the constant, "n" or "n*ny"
// (names sorted) otherwise.
type poly map[string]int64

// aff is an affine expression in the inames whose coefficients are
// polynomials in the parameters: a flattened subscript i*ny + j is
// {i: ny, j: 1}. The key "" holds the part free of inames.
type aff map[string]poly

// errOverflow is what arithmetic reports past int64.
var errOverflow = &Error{Msg: "an integer constant overflows 64 bits"}

func addInt(a, b int64) (int64, bool) {
	s := a + b
	return s, (a >= 0) != (b >= 0) || (s >= 0) == (a >= 0)
}

func mulInt(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	hi, lo := bits.Mul64(uint64(abs(a)), uint64(abs(b)))
	if hi != 0 || lo > 1<<62 {
		return 0, false
	}
	p := int64(lo)
	if (a < 0) != (b < 0) {
		p = -p
	}
	return p, true
}

func abs(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}

func constPoly(c int64) poly { return poly{"": c}.trim() }

func (p poly) add(q poly, sign int64) (poly, bool) {
	out := poly{}
	for m, c := range p {
		out[m] = c
	}
	for m, c := range q {
		cs, ok := mulInt(c, sign)
		if !ok {
			return nil, false
		}
		if out[m], ok = addInt(out[m], cs); !ok {
			return nil, false
		}
	}
	return out.trim(), true
}

func (p poly) mul(q poly) (poly, bool) {
	out := poly{}
	for m1, c1 := range p {
		for m2, c2 := range q {
			c, ok := mulInt(c1, c2)
			if !ok {
				return nil, false
			}
			m := monoMul(m1, m2)
			if out[m], ok = addInt(out[m], c); !ok {
				return nil, false
			}
		}
	}
	return out.trim(), true
}

func monoMul(a, b string) string {
	var names []string
	for _, s := range []string{a, b} {
		if s != "" {
			names = append(names, strings.Split(s, "*")...)
		}
	}
	slices.Sort(names)
	return strings.Join(names, "*")
}

func (p poly) trim() poly {
	for m, c := range p {
		if c == 0 {
			delete(p, m)
		}
	}
	return p
}

// constant reports the value of a polynomial free of parameters.
func (p poly) constant() (int64, bool) {
	for m := range p {
		if m != "" {
			return 0, false
		}
	}
	return p[""], true
}

// divExact divides every coefficient by d where each divides.
func (p poly) divExact(d int64) (poly, bool) {
	out := poly{}
	for m, c := range p {
		if c%d != 0 {
			return nil, false
		}
		out[m] = c / d
	}
	return out, true
}

func (p poly) equal(q poly) bool {
	d, ok := p.add(q, -1)
	return ok && len(d) == 0
}

// String writes p in the .knl's syntax, highest degree first.
func (p poly) String() string {
	if len(p) == 0 {
		return "0"
	}
	ms := sortedMonomials(p)
	var b strings.Builder
	for k, m := range ms {
		writeTerm(&b, p[m], m, k == 0)
	}
	return b.String()
}

func sortedMonomials(p poly) []string {
	ms := make([]string, 0, len(p))
	for m := range p {
		ms = append(ms, m)
	}
	slices.SortFunc(ms, func(a, b string) int {
		da, db := degree(a), degree(b)
		if da != db {
			return db - da
		}
		return strings.Compare(a, b)
	})
	return ms
}

func degree(m string) int {
	if m == "" {
		return 0
	}
	return strings.Count(m, "*") + 1
}

// writeTerm writes c*m as a term of a sum: "n*m", "- 2*n", "+ 3".
func writeTerm(b *strings.Builder, c int64, m string, first bool) {
	switch {
	case first && c < 0:
		b.WriteString("-")
	case !first && c < 0:
		b.WriteString(" - ")
	case !first:
		b.WriteString(" + ")
	}
	a := abs(c)
	switch {
	case m == "":
		b.WriteString(strconv.FormatInt(a, 10))
	case a == 1:
		b.WriteString(m)
	default:
		b.WriteString(strconv.FormatInt(a, 10) + "*" + m)
	}
}

func affConst(p poly) aff { return aff{"": p} }

func affIname(name string) aff { return aff{name: constPoly(1)} }

func (a aff) add(b aff, sign int64) (aff, bool) {
	out := aff{}
	for k, p := range a {
		out[k] = p
	}
	for k, p := range b {
		s, ok := out[k].add(p, sign)
		if !ok {
			return nil, false
		}
		out[k] = s
	}
	return out.trim(), true
}

func (a aff) trim() aff {
	for k, p := range a {
		if len(p) == 0 {
			delete(a, k)
		}
	}
	return a
}

// poly reports a free of inames.
func (a aff) poly() (poly, bool) {
	for k := range a {
		if k != "" {
			return nil, false
		}
	}
	if a[""] == nil {
		return poly{}, true
	}
	return a[""], true
}

// constant reports a free of inames and parameters.
func (a aff) constant() (int64, bool) {
	p, ok := a.poly()
	if !ok {
		return 0, false
	}
	return p.constant()
}

func (a aff) scale(p poly) (aff, bool) {
	out := aff{}
	for k, q := range a {
		s, ok := q.mul(p)
		if !ok {
			return nil, false
		}
		out[k] = s
	}
	return out.trim(), true
}

func (a aff) divExact(d int64) (aff, bool) {
	out := aff{}
	for k, q := range a {
		s, ok := q.divExact(d)
		if !ok {
			return nil, false
		}
		out[k] = s
	}
	return out, true
}

func (a aff) equal(b aff) bool {
	d, ok := a.add(b, -1)
	return ok && len(d) == 0
}

// format writes a in the .knl's syntax, its inames in the order given
// and their names mapped by names.
func (a aff) format(order []string, names map[string]string) string {
	var b strings.Builder
	first := true
	var rest []string
	for k := range a {
		if k != "" && !slices.Contains(order, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	// Terms whose coefficients hold more parameters come first, as a
	// flattened subscript is written: i*nj + j.
	keys := append(slices.Clip(order), rest...)
	slices.SortStableFunc(keys, func(x, y string) int {
		return maxDegree(a[y]) - maxDegree(a[x])
	})
	for _, k := range keys {
		p, ok := a[k]
		if !ok || k == "" {
			continue
		}
		name := k
		if n, ok := names[k]; ok {
			name = n
		}
		if c, ok := p.constant(); ok {
			if c == 0 {
				continue
			}
			writeTerm(&b, c, name, first)
		} else if len(p) == 1 {
			m := sortedMonomials(p)[0]
			writeTerm(&b, p[m], name+"*"+m, first)
		} else {
			if !first {
				b.WriteString(" + ")
			}
			b.WriteString("(" + p.String() + ")*" + name)
		}
		first = false
	}
	if p := a[""]; len(p) > 0 {
		for _, m := range sortedMonomials(p) {
			writeTerm(&b, p[m], m, first)
			first = false
		}
	}
	if first {
		return "0"
	}
	return b.String()
}

func maxDegree(p poly) int {
	d := 0
	for m := range p {
		d = max(d, degree(m))
	}
	return d
}

func (a aff) scaleConst(c int64) aff {
	out, _ := a.scale(constPoly(c))
	return out
}

func (a aff) addConst(c int64) aff {
	out, _ := a.add(affConst(constPoly(c)), 1)
	return out
}

// errorOverflow is errOverflow for the flag whose sizes overflow.
func errorOverflow(flag string) error {
	return &Error{Msg: flag + ": " + errOverflow.Msg}
}
