package polyhedra

import (
	"fmt"
	"math/rand"
	"strings"
)

// A random set generator for the property tests. It writes a set in isl
// notation together with an independent Go predicate for membership and,
// per dimension, bounds that contain every point, so that a brute-force
// count needs neither the parser nor the package.

type env map[string]int64

type genExpr struct {
	text string
	eval func(env) int64
}

type genCond struct {
	text string
	eval func(env) bool
}

// genSet is one generated set.
type genSet struct {
	params []string
	dims   []string
	src    string
	member func(env) bool
	// bounds of dimension k given the params and dims 0..k-1
	lo, hi []func(env) int64
}

func floorDivT(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func modT(a, b int64) int64 { return a - b*floorDivT(a, b) }

type gen struct {
	r      *rand.Rand
	params []string
	dims   []string
}

func (g *gen) pick(xs []string) string { return xs[g.r.Intn(len(xs))] }

// coefText writes k*name in one of the spellings the parser accepts.
func (g *gen) coefText(k int64, name string) string {
	switch {
	case k == 1:
		return name
	case k == -1:
		return "-" + name
	}
	switch g.r.Intn(3) {
	case 0:
		return fmt.Sprintf("%d%s", k, name)
	case 1:
		return fmt.Sprintf("%d*%s", k, name)
	}
	return fmt.Sprintf("%d %s", k, name)
}

// affine returns a random affine expression over vars with coefficients
// in [-maxC, maxC] and a constant in [-maxK, maxK].
func (g *gen) affine(vars []string, maxC, maxK int64, nTerms int) genExpr {
	type tm struct {
		k    int64
		name string
	}
	var ts []tm
	for i := 0; i < nTerms; i++ {
		k := g.r.Int63n(2*maxC+1) - maxC
		if k == 0 {
			k = 1
		}
		ts = append(ts, tm{k, g.pick(vars)})
	}
	c := int64(0)
	if maxK > 0 {
		c = g.r.Int63n(2*maxK+1) - maxK
	}
	var sb strings.Builder
	for i, t := range ts {
		s := g.coefText(t.k, t.name)
		if i > 0 {
			if strings.HasPrefix(s, "-") {
				sb.WriteString(" - ")
				s = s[1:]
			} else {
				sb.WriteString(" + ")
			}
		}
		sb.WriteString(s)
	}
	if c != 0 || len(ts) == 0 {
		if len(ts) == 0 {
			fmt.Fprintf(&sb, "%d", c)
		} else if c < 0 {
			fmt.Fprintf(&sb, " - %d", -c)
		} else {
			fmt.Fprintf(&sb, " + %d", c)
		}
	}
	return genExpr{sb.String(), func(e env) int64 {
		v := c
		for _, t := range ts {
			v += t.k * e[t.name]
		}
		return v
	}}
}

func and(cs ...genCond) genCond {
	var texts []string
	for _, c := range cs {
		texts = append(texts, c.text)
	}
	return genCond{strings.Join(texts, " and "), func(e env) bool {
		for _, c := range cs {
			if !c.eval(e) {
				return false
			}
		}
		return true
	}}
}

func cmp(a genExpr, op string, b genExpr) genCond {
	f := map[string]func(x, y int64) bool{
		"<": func(x, y int64) bool { return x < y }, "<=": func(x, y int64) bool { return x <= y },
		">": func(x, y int64) bool { return x > y }, ">=": func(x, y int64) bool { return x >= y },
		"=": func(x, y int64) bool { return x == y }, "!=": func(x, y int64) bool { return x != y },
	}[op]
	return genCond{a.text + " " + op + " " + b.text, func(e env) bool { return f(a.eval(e), b.eval(e)) }}
}

func konst(c int64) genExpr {
	return genExpr{fmt.Sprint(c), func(env) int64 { return c }}
}

func variable(n string) genExpr { return genExpr{n, func(e env) int64 { return e[n] }} }

func shift(x genExpr, c int64) genExpr {
	if c == 0 {
		return x
	}
	t := fmt.Sprintf("%s + %d", x.text, c)
	if c < 0 {
		t = fmt.Sprintf("%s - %d", x.text, -c)
	}
	return genExpr{t, func(e env) int64 { return x.eval(e) + c }}
}

// box returns a bounding condition for dim k and its enumeration bounds.
// Bounds refer to params (values in [-3, 12]) and earlier dims.
func (g *gen) box(k int) (genCond, func(env) int64, func(env) int64) {
	d := g.dims[k]
	var lo, hi genExpr
	var loB, hiB func(env) int64
	switch g.r.Intn(5) {
	case 0, 1:
		c := g.r.Int63n(3) - 1
		lo = konst(c)
		loB = lo.eval
	case 2:
		if k > 0 { // triangle: d >= earlier dim
			lo = variable(g.dims[g.r.Intn(k)])
			loB = lo.eval
		} else {
			lo = konst(0)
			loB = lo.eval
		}
	case 3:
		p := g.pick(g.params)
		lo = shift(variable(p), -g.r.Int63n(8)-2)
		loB = lo.eval
	default:
		lo = konst(-2)
		loB = lo.eval
	}
	switch g.r.Intn(6) {
	case 0, 1:
		p := g.pick(g.params)
		hi = shift(variable(p), g.r.Int63n(3)-1)
		hiB = hi.eval
	case 2:
		if k > 0 {
			hi = shift(variable(g.dims[g.r.Intn(k)]), g.r.Int63n(3))
			hiB = hi.eval
		} else {
			hi = variable(g.pick(g.params))
			hiB = hi.eval
		}
	case 3:
		if len(g.params) > 1 {
			hi = genExpr{"min(" + g.params[0] + ", " + g.params[1] + " + 1)", func(e env) int64 {
				return min(e[g.params[0]], e[g.params[1]]+1)
			}}
			hiB = hi.eval
		} else {
			hi = genExpr{"min(" + g.params[0] + ", 7)", func(e env) int64 { return min(e[g.params[0]], 7) }}
			hiB = hi.eval
		}
	case 4:
		p := g.pick(g.params)
		hi = genExpr{"max(" + p + " - 3, 2)", func(e env) int64 { return max(e[p]-3, 2) }}
		hiB = hi.eval
	default:
		c := g.r.Int63n(6) + 2
		hi = konst(c)
		hiB = hi.eval
	}
	op := "<="
	if g.r.Intn(2) == 0 {
		op = "<"
		h := hiB
		hiB = func(e env) int64 { return h(e) - 1 }
	}
	dv := variable(d)
	var c genCond
	if g.r.Intn(2) == 0 {
		c = genCond{lo.text + " <= " + d + " " + op + " " + hi.text, func(e env) bool {
			return lo.eval(e) <= e[d] && cmp(dv, op, hi).eval(e)
		}}
	} else {
		c = and(cmp(dv, ">=", lo), cmp(dv, op, hi))
	}
	return c, loB, hiB
}

// extra returns a random additional condition over the dims and params.
func (g *gen) extra() genCond {
	vars := append(append([]string(nil), g.dims...), g.params...)
	switch g.r.Intn(9) {
	case 0, 1: // affine inequality
		a := g.affine(vars, 3, 4, 1+g.r.Intn(3))
		b := g.affine(vars, 2, 3, g.r.Intn(2))
		ops := []string{"<=", "<", ">=", ">", "="}
		op := ops[g.r.Intn(len(ops))]
		if op == "=" && g.r.Intn(2) == 0 {
			op = "<="
		}
		return cmp(a, op, b)
	case 2: // mod
		a := g.affine(g.dims, 2, 2, 1+g.r.Intn(2))
		m := g.r.Int63n(4) + 2
		r := g.r.Int63n(m)
		op := "="
		if g.r.Intn(3) == 0 {
			op = "!="
		}
		sp := []string{" mod ", " % "}[g.r.Intn(2)]
		return genCond{"(" + a.text + ")" + sp + fmt.Sprint(m) + " " + op + " " + fmt.Sprint(r), func(e env) bool {
			return (modT(a.eval(e), m) == r) == (op == "=")
		}}
	case 3: // stride through exists
		d := g.pick(g.dims)
		s := g.r.Int63n(3) + 2
		c := g.r.Int63n(s)
		return genCond{fmt.Sprintf("(exists q : %s = %dq + %d)", d, s, c), func(e env) bool {
			return modT(e[d]-c, s) == 0
		}}
	case 4: // bounded existential pair
		d := g.pick(g.dims)
		s := g.r.Int63n(3) + 2
		w := g.r.Int63n(s-1) + 1
		p := g.pick(g.params)
		return genCond{fmt.Sprintf("exists (q, r : %s = %d*q + r and 0 <= r < %d and q <= %s)", d, s, w, p), func(e env) bool {
			return modT(e[d], s) < w && floorDivT(e[d], s) <= e[p]
		}}
	case 5: // floor in a bound
		a := g.affine(vars, 2, 3, 1+g.r.Intn(2))
		m := g.r.Int63n(3) + 2
		b := g.affine(vars, 2, 3, 1)
		op := []string{"<=", ">=", "<"}[g.r.Intn(3)]
		fl := genExpr{fmt.Sprintf("floor((%s)/%d)", a.text, m), func(e env) int64 { return floorDivT(a.eval(e), m) }}
		return cmp(fl, op, b)
	case 6: // negation of a div-only condition
		a := g.affine(g.dims, 2, 2, 1)
		m := g.r.Int63n(3) + 2
		b := g.affine(vars, 1, 3, 1)
		inner := and(genCond{fmt.Sprintf("(%s) mod %d = 0", a.text, m), func(e env) bool { return modT(a.eval(e), m) == 0 }},
			cmp(variable(g.pick(g.dims)), ">=", b))
		return genCond{"not (" + inner.text + ")", func(e env) bool { return !inner.eval(e) }}
	case 7: // disjunction inside
		a := cmp(g.affine(vars, 2, 3, 1+g.r.Intn(2)), "<=", g.affine(vars, 1, 3, 1))
		b := cmp(g.affine(vars, 2, 3, 1+g.r.Intn(2)), ">=", g.affine(vars, 1, 3, 1))
		return genCond{"(" + a.text + " or " + b.text + ")", func(e env) bool { return a.eval(e) || b.eval(e) }}
	default: // ceil and max in a bound
		d := g.pick(g.dims)
		m := g.r.Int63n(3) + 2
		p := g.pick(g.params)
		return genCond{fmt.Sprintf("%s <= max(ceil(%s/%d), %s - 4)", d, p, m, p), func(e env) bool {
			return e[d] <= max(-floorDivT(-e[p], m), e[p]-4)
		}}
	}
}

// randomSet generates a bounded set with nd dims and np params.
func randomSet(r *rand.Rand, nd, np int) *genSet {
	g := &gen{r: r, params: []string{"n", "m"}[:np], dims: []string{"i", "j", "k", "l"}[:nd]}
	gs := &genSet{params: g.params, dims: g.dims}
	pieces := 1
	if r.Intn(4) == 0 {
		pieces = 2
	}
	var conds []genCond
	gs.lo = make([]func(env) int64, nd)
	gs.hi = make([]func(env) int64, nd)
	for p := 0; p < pieces; p++ {
		var cs []genCond
		tile := nd >= 2 && r.Intn(4) == 0
		for k := 0; k < nd; k++ {
			var c genCond
			var lo, hi func(env) int64
			if tile && k == 1 {
				c, lo, hi = g.tile()
			} else {
				c, lo, hi = g.box(k)
			}
			cs = append(cs, c)
			if p == 0 {
				gs.lo[k], gs.hi[k] = lo, hi
			} else {
				l0, h0 := gs.lo[k], gs.hi[k]
				gs.lo[k] = func(e env) int64 { return min(l0(e), lo(e)) }
				gs.hi[k] = func(e env) int64 { return max(h0(e), hi(e)) }
			}
		}
		for n := r.Intn(3); n > 0; n-- {
			cs = append(cs, g.extra())
		}
		conds = append(conds, and(cs...))
	}
	var texts []string
	for _, c := range conds {
		texts = append(texts, c.text)
	}
	sep := " or "
	if r.Intn(2) == 0 && len(conds) > 1 {
		sep = "; [" + strings.Join(g.dims, ", ") + "] : "
	}
	gs.src = fmt.Sprintf("[%s] -> { [%s] : %s }", strings.Join(g.params, ", "), strings.Join(g.dims, ", "), strings.Join(texts, sep))
	gs.member = func(e env) bool {
		for _, c := range conds {
			if c.eval(e) {
				return true
			}
		}
		return false
	}
	return gs
}

// tile makes dims 0 and 1 a tiled pair: 0 <= d1 < T and
// 0 <= T*d0 + d1 < p (or <= bound). Dim 0's own box stays generous.
func (g *gen) tile() (genCond, func(env) int64, func(env) int64) {
	t := g.r.Int63n(4) + 2
	d0, d1 := g.dims[0], g.dims[1]
	p := g.pick(g.params)
	c := genCond{fmt.Sprintf("0 <= %s < %d and 0 <= %d%s + %s < %s", d1, t, t, d0, d1, p), func(e env) bool {
		return 0 <= e[d1] && e[d1] < t && 0 <= t*e[d0]+e[d1] && t*e[d0]+e[d1] < e[p]
	}}
	return c, func(env) int64 { return 0 }, func(env) int64 { return t - 1 }
}

// count enumerates the set at the given parameter values.
func (gs *genSet) count(params env) int64 {
	e := env{}
	for k, v := range params {
		e[k] = v
	}
	var rec func(k int) int64
	rec = func(k int) int64 {
		if k == len(gs.dims) {
			if gs.member(e) {
				return 1
			}
			return 0
		}
		var n int64
		lo, hi := gs.lo[k](e), gs.hi[k](e)
		for v := lo; v <= hi; v++ {
			e[gs.dims[k]] = v
			n += rec(k + 1)
		}
		delete(e, gs.dims[k])
		return n
	}
	return rec(0)
}
