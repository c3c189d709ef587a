package polyhedra

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// Printing in isl notation. Divs are written inline as floor((e)/m), or
// floor(e/m) where e is one term (isl writes floor((n)/2)), and a
// constraint containing k*(e - m*floor(e/m)) is written with e mod m, so
// the output parses back into the same set.

// paramNames are placeholder names for np parameters (p, p', and a prime
// more for each next one), for printing a poly where only its form
// matters.
func paramNames(np int) []string {
	out := make([]string, np)
	for i := range out {
		out[i] = "p" + strings.Repeat("'", i)
	}
	return out
}

// polyKey prints q, a poly over b's columns, with placeholder parameter
// names: equal keys are equal polys, and a key is as long as the printed
// form but for the parameters' names.
func polyKey(b *bset, q *poly) string {
	return names{params: paramNames(b.np)}.polyString(b, q)
}

// names gives the printed name of every non-div column of a bset.
type names struct {
	params, dims []string
}

func (nm names) col(b *bset, c int) string {
	switch {
	case c < b.firstDim():
		return nm.params[c-1]
	case c < b.firstDiv():
		return nm.dims[c-b.firstDim()]
	}
	d := b.divs[c-b.firstDiv()]
	e := nm.affine(b, d.num)
	if strings.Contains(e, " ") {
		e = "(" + e + ")"
	}
	return fmt.Sprintf("floor(%s/%d)", e, d.den)
}

// affine renders an affine row, constant first as isl does in floors.
func (nm names) affine(b *bset, row []int64) string {
	l := lin{c: row[0]}
	for c := 1; c < len(row); c++ {
		if row[c] != 0 {
			l.terms = append(l.terms, linTerm{row[c], nm.col(b, c), c})
		}
	}
	return l.render(true)
}

type linTerm struct {
	k    int64
	atom string
	rank int // larger ranks are preferred as the subject of a constraint
}

type lin struct {
	terms  []linTerm
	c      int64
	cStyle bool // integers as C literals (see cInt)
	wide   bool // with cStyle: coefficients other than 1 as 64-bit literals
}

// render writes the combination; constFirst puts the constant in front.
func (l lin) render(constFirst bool) string {
	var sb strings.Builder
	first := true
	put := func(k int64, atom string) {
		if strings.Contains(atom, " mod ") && (k < 0 && first || abs64(k) != 1) {
			// -i mod 3 and 2*i mod 3 would parse as (-i) mod 3, (2*i) mod 3
			atom = "(" + atom + ")"
		}
		switch {
		case first && k < 0:
			sb.WriteString("-")
		case !first && k < 0:
			sb.WriteString(" - ")
		case !first:
			sb.WriteString(" + ")
		}
		first = false
		a := strconv.FormatUint(uint64(abs64(k)), 10)
		if l.cStyle {
			a = cInt(abs64(k))
			if l.wide && atom != "" && a != "1" && !strings.HasSuffix(a, "LL") {
				a += "LL"
			}
		}
		switch {
		case atom == "":
			sb.WriteString(a)
		case a == "1":
			sb.WriteString(atom)
		default:
			sb.WriteString(a + "*" + atom)
		}
	}
	if constFirst && l.c != 0 {
		put(l.c, "")
	}
	for _, t := range l.terms {
		put(t.k, t.atom)
	}
	if !constFirst && l.c != 0 {
		put(l.c, "")
	}
	if first {
		return "0"
	}
	return sb.String()
}

// constraintLin turns a row into atoms, folding mod patterns.
func (nm names) constraintLin(b *bset, row []int64) lin {
	row = copyRow(row)
	var mods []linTerm
	for k := len(b.divs) - 1; k >= 0; k-- {
		col := b.divCol(k)
		d := b.divs[k]
		c := row[col]
		if c == 0 || c%d.den != 0 {
			continue
		}
		f := -c / d.den // row contains f*(e - den*floor(e/den))
		ok := true
		for j := 1; j < col; j++ {
			if d.num[j] != 0 && row[j] != f*d.num[j] {
				ok = false
			}
		}
		if !ok {
			continue
		}
		for j := 1; j < col; j++ {
			row[j] -= f * d.num[j]
		}
		row[0] = sub64(row[0], mul64(f, d.num[0]))
		row[col] = 0
		e := nm.affine(b, d.num)
		if strings.ContainsAny(e, " ") {
			e = "(" + e + ")"
		}
		mods = append(mods, linTerm{f, fmt.Sprintf("%s mod %d", e, d.den), 0})
	}
	l := lin{c: row[0]}
	for c := 1; c < len(row); c++ {
		if row[c] == 0 {
			continue
		}
		rank := 1
		switch {
		case c >= b.firstDiv():
			rank = 0
		case c >= b.firstDim():
			rank = 3 + c
		case c >= 1:
			rank = 2
		}
		l.terms = append(l.terms, linTerm{row[c], nm.col(b, c), rank})
	}
	l.terms = append(l.terms, mods...)
	return l
}

// constraint renders row >= 0 (or row = 0) as subject op rest.
func (nm names) constraint(b *bset, row []int64, eq bool) string {
	if eq {
		if x, _, m, t, ok := b.congruence(row); ok {
			return fmt.Sprintf("%s mod %d = %d", nm.col(b, x), m, floorMod(t, m))
		}
	}
	l := nm.constraintLin(b, row)
	if len(l.terms) == 0 {
		if (eq && l.c == 0) || (!eq && l.c >= 0) {
			return "true"
		}
		return "false"
	}
	s := 0
	for i, t := range l.terms {
		if t.rank > l.terms[s].rank || (t.rank == l.terms[s].rank && i > s) {
			s = i
		}
	}
	subj := l.terms[s]
	rest := lin{c: -l.c}
	for i, t := range l.terms {
		if i != s {
			rest.terms = append(rest.terms, linTerm{-t.k, t.atom, t.rank})
		}
	}
	op := ">="
	if subj.k < 0 {
		subj.k = -subj.k
		for i := range rest.terms {
			rest.terms[i].k = -rest.terms[i].k
		}
		rest.c = -rest.c
		op = "<="
	}
	if eq {
		op = "="
	} else if len(rest.terms) > 0 {
		// i <= n - 1 reads better as i < n.
		if op == "<=" && rest.c == -1 {
			op, rest.c = "<", 0
		} else if op == ">=" && rest.c == 1 {
			op, rest.c = ">", 0
		}
	}
	lhs := lin{terms: []linTerm{subj}}.render(false)
	return lhs + " " + op + " " + rest.render(false)
}

// conjunction renders the constraints of b joined by "and": equalities
// first, then by the variable they bound in column order, lower bounds
// before upper bounds.
func (nm names) conjunction(b *bset) string {
	type rc struct {
		eq   bool
		col  int
		up   bool
		text string
	}
	var rs []rc
	add := func(r []int64, eq bool) {
		col, up := 0, false
		for c := len(r) - 1; c >= 1; c-- {
			if r[c] != 0 && c < b.firstDiv() {
				col, up = c, r[c] < 0
				break
			}
		}
		rs = append(rs, rc{eq, col, up, nm.constraint(b, r, eq)})
	}
	for _, r := range b.eqs {
		add(r, true)
	}
	for _, r := range b.ineqs {
		add(r, false)
	}
	if len(rs) == 0 {
		return "true"
	}
	slices.SortStableFunc(rs, func(x, y rc) int {
		switch {
		case x.eq != y.eq:
			if x.eq {
				return -1
			}
			return 1
		case x.col != y.col:
			return x.col - y.col
		case x.up != y.up:
			if y.up {
				return -1
			}
			return 1
		}
		return strings.Compare(x.text, y.text)
	})
	texts := make([]string, len(rs))
	for i, r := range rs {
		texts[i] = r.text
	}
	return strings.Join(texts, " and ")
}

func paramPrefix(params []string) string {
	if len(params) == 0 {
		return ""
	}
	return "[" + strings.Join(params, ", ") + "] -> "
}

// String returns the set in isl notation; ParseSet reads it back.
func (s *Set) String() string {
	nm := names{s.params, s.dims}
	tuple := s.name + "[" + strings.Join(s.dims, ", ") + "]"
	var sb strings.Builder
	sb.WriteString(paramPrefix(s.params))
	sb.WriteString("{ ")
	sb.WriteString(tuple)
	switch {
	case len(s.parts) == 0:
		sb.WriteString(" : false")
	case len(s.parts) == 1 && len(s.parts[0].eqs)+len(s.parts[0].ineqs) == 0:
	default:
		var ds []string
		for _, p := range s.parts {
			ds = append(ds, nm.conjunction(p))
		}
		sb.WriteString(" : ")
		sb.WriteString(strings.Join(ds, " or "))
	}
	sb.WriteString(" }")
	return sb.String()
}

// polyString renders a poly of b in isl's notation: terms by degree, then
// by the powers of the parameters in column order, then by their divs'
// text; factors as parameters in column order, then divs by text. Terms
// with the same divs are written once, as (polynomial) * divs, where
// the first of them stands, as barvinok writes its answers: the floors
// are most of the text. The order depends only on the polynomial, not
// on the order of b's divs, so equal polynomials print equally and the
// text serves as a key.
func (nm names) polyString(b *bset, p *poly) string {
	if p.isZero() {
		return "0"
	}
	type pt struct {
		deg   int
		pexp  []int
		divs  string
		plain string // the parameters' factors
		c     *big.Rat
	}
	var ts []pt
	for _, t := range p.terms {
		var fs, ds []string
		deg := 0
		pexp := make([]int, b.firstDiv())
		for c, k := range t.exp {
			if k == 0 {
				continue
			}
			deg += int(k)
			f := nm.col(b, c)
			if k > 1 {
				f += fmt.Sprintf("^%d", k)
			}
			if c < b.firstDiv() {
				pexp[c] = int(k)
				fs = append(fs, f)
			} else {
				ds = append(ds, f)
			}
		}
		slices.Sort(ds)
		ts = append(ts, pt{deg, pexp, strings.Join(ds, " * "), strings.Join(fs, " * "), t.c})
	}
	slices.SortFunc(ts, func(a, b pt) int {
		if a.deg != b.deg {
			return a.deg - b.deg
		}
		for c := range a.pexp {
			if a.pexp[c] != b.pexp[c] {
				return b.pexp[c] - a.pexp[c]
			}
		}
		return strings.Compare(a.divs, b.divs)
	})
	var sum termSum
	done := map[string]bool{}
	for _, t := range ts {
		if t.divs == "" {
			sum.add(t.c, t.plain)
			continue
		}
		if done[t.divs] {
			continue
		}
		done[t.divs] = true
		var members []pt
		for _, u := range ts {
			if u.divs == t.divs {
				members = append(members, u)
			}
		}
		if len(members) == 1 {
			sum.add(t.c, strings.Join(slices.DeleteFunc([]string{t.plain, t.divs}, func(s string) bool { return s == "" }), " * "))
			continue
		}
		// The group takes its first term's sign: -(1 + n) * f, not (-1 - n) * f.
		sign := big.NewRat(int64(members[0].c.Sign()), 1)
		var group termSum
		for _, u := range members {
			group.add(new(big.Rat).Mul(u.c, sign), u.plain)
		}
		sum.add(sign, "("+group.sb.String()+") * "+t.divs)
	}
	if sum.n > 1 || sum.negative {
		return "(" + sum.sb.String() + ")"
	}
	return sum.sb.String()
}

// termSum writes a sum of terms c * mono, signs between them.
type termSum struct {
	sb       strings.Builder
	n        int
	negative bool // the first term's sign
}

func (s *termSum) add(c *big.Rat, mono string) {
	c = new(big.Rat).Set(c)
	if c.Sign() < 0 {
		if s.n == 0 {
			s.sb.WriteString("-")
			s.negative = true
		} else {
			s.sb.WriteString(" - ")
		}
		c.Neg(c)
	} else if s.n > 0 {
		s.sb.WriteString(" + ")
	}
	s.n++
	switch {
	case mono == "":
		s.sb.WriteString(c.RatString())
	case c.Cmp(big.NewRat(1, 1)) == 0:
		s.sb.WriteString(mono)
	default:
		s.sb.WriteString(c.RatString() + " * " + mono)
	}
}

// cInt writes v as a C integer literal, with LL beyond 32 bits. v is
// non-negative: render writes the signs.
func cInt(v int64) string {
	s := strconv.FormatUint(uint64(v), 10)
	if v > 1<<31-1 || v < -(1<<31) {
		s += "LL"
	}
	return s
}
