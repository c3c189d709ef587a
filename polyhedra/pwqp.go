package polyhedra

import (
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"
)

// A PwQPolynomial is a piecewise quasi-polynomial in named parameters:
// pieces, each a domain (a conjunction of affine constraints on the
// parameters and floor divs of them) with a polynomial with exact
// rational coefficients in the parameters and the divs. Its value at a
// point is the sum of the polynomials of the pieces whose domain contains
// the point, 0 outside every domain. Normally the domains are disjoint, as
// in isl; a function whose disjoint form would need too many pieces is
// kept as a sum of overlapping pieces and printed as such. It is
// immutable.
type PwQPolynomial struct {
	params   []string
	pieces   []*bset // no dimensions, poly set and non-zero
	disjoint bool    // no two domains share a point
	// shown holds the pieces as printed (see presentPieces), formed on
	// first use.
	shown func() []*bset
}

// view returns the pieces as printed.
func (p *PwQPolynomial) view() []*bset {
	if p.shown == nil {
		return p.pieces
	}
	return p.shown()
}

// present sets p up to form its printed pieces on first use.
func (p *PwQPolynomial) present() *PwQPolynomial {
	p.shown = sync.OnceValue(func() []*bset {
		var out []*bset
		if tryNoOverflow(func() { out = presentPieces(p.pieces, p.disjoint) }) {
			return out
		}
		// Simplifying the printed form overflowed (a domain at the edge of
		// int64): print the pieces as counted, which have the same value.
		return sortPieces(slices.Clone(p.pieces))
	})
	return p
}

// newPwQP builds a PwQPolynomial from pieces whose domains may overlap
// (their values add up) and simplifies it.
func newPwQP(params []string, pieces []*bset, w *budget) *PwQPolynomial {
	ps, disjoint := simplifyPieces(pieces, false, w)
	return (&PwQPolynomial{params: slices.Clone(params), pieces: ps, disjoint: disjoint}).present()
}

// newDisjointPwQP builds a PwQPolynomial from pieces with disjoint
// domains and simplifies it.
func newDisjointPwQP(params []string, pieces []*bset, w *budget) *PwQPolynomial {
	ps, _ := simplifyPieces(pieces, true, w)
	return (&PwQPolynomial{params: slices.Clone(params), pieces: ps, disjoint: true}).present()
}

// Params returns the parameter names.
func (p *PwQPolynomial) Params() []string { return slices.Clone(p.params) }

// String returns p in isl notation, e.g.
// [n] -> { (1/2 * n + 1/2 * n^2) : n >= 1 }. Pieces with equal
// polynomials are joined with "or". A function kept as a sum of
// overlapping pieces is printed as the sum of one-piece functions,
// { A : D1 } + { B : D2 }, as in isl's calculator iscc.
func (p *PwQPolynomial) String() string {
	pieces := p.view()
	if !p.disjoint && len(pieces) > 1 {
		var terms []string
		for _, pc := range pieces {
			q := &PwQPolynomial{params: p.params, pieces: []*bset{pc}, disjoint: true}
			terms = append(terms, q.String())
		}
		return strings.Join(terms, " + ")
	}
	nm := names{params: p.params}
	var polys []string
	doms := map[string][]string{}
	for _, pc := range pieces {
		ps := nm.polyString(pc, pc.poly)
		if _, ok := doms[ps]; !ok {
			polys = append(polys, ps)
		}
		doms[ps] = append(doms[ps], nm.conjunction(pc))
	}
	var sb strings.Builder
	sb.WriteString(paramPrefix(p.params))
	sb.WriteString("{ ")
	if len(polys) == 0 {
		sb.WriteString("0")
	}
	for i, ps := range polys {
		if i > 0 {
			sb.WriteString("; ")
		}
		sb.WriteString(ps)
		ds := doms[ps]
		if len(ds) == 1 && ds[0] == "true" {
			continue
		}
		sb.WriteString(" : ")
		sb.WriteString(strings.Join(ds, " or "))
	}
	sb.WriteString(" }")
	return sb.String()
}

// paramValues returns the parameter values in column order.
func paramValues(names []string, params map[string]int64) ([]int64, error) {
	vals := make([]int64, len(names))
	for i, n := range names {
		v, ok := params[n]
		if !ok {
			return nil, fmt.Errorf("missing parameter %s", n)
		}
		vals[i] = v
	}
	return vals, nil
}

// Eval returns the exact value of p at the given parameter values. A
// missing parameter is an error; extra names are ignored. A floor division
// of the domain that overflows int64 is an error, never a wrong value.
func (p *PwQPolynomial) Eval(params map[string]int64) (v *big.Int, err error) {
	defer catch(&err, "evaluating")
	vals, err := paramValues(p.params, params)
	if err != nil {
		return nil, err
	}
	return p.evalVals(vals)
}

func (p *PwQPolynomial) evalVals(vals []int64) (*big.Int, error) {
	sum := new(big.Rat)
	for _, pc := range p.pieces {
		cols, ok := pc.contains(vals)
		if !ok {
			continue
		}
		sum.Add(sum, pc.poly.evalAt(cols))
		if p.disjoint {
			break
		}
	}
	if !sum.IsInt() {
		return nil, fmt.Errorf("polyhedra: internal error: non-integer value %s", sum.RatString())
	}
	return new(big.Int).Set(sum.Num()), nil
}

// IsZero reports whether p has no pieces, which makes it 0 everywhere.
// Simplification drops pieces with a zero polynomial or a domain it
// proves empty, so this is how a function that is recognisably zero
// shows; a zero function it fails to recognise reports false.
func (p *PwQPolynomial) IsZero() bool { return len(p.view()) == 0 }

// Add returns p + q; the parameters are p's followed by q's new ones.
func (p *PwQPolynomial) Add(q *PwQPolynomial) (r *PwQPolynomial, err error) {
	defer catch(&err, "adding")
	params, ps, qs := aligned(p, q)
	return newPwQP(params, append(ps, qs...), newBudget(Limits{})), nil
}

// Mul returns p * q; the parameters are p's followed by q's new ones. Each
// pair of pieces contributes the product of its polynomials on the
// intersection of its domains, so the product of two sums of overlapping
// pieces is again one.
func (p *PwQPolynomial) Mul(q *PwQPolynomial) (r *PwQPolynomial, err error) {
	defer catch(&err, "multiplying")
	params, ps, qs := aligned(p, q)
	work := newBudget(Limits{})
	work.charge(len(ps) * len(qs))
	var pieces []*bset
	for _, a := range ps {
		for _, b := range qs {
			c, bp := meet(a, b)
			c.poly = c.poly.mul(bp)
			pieces = append(pieces, c)
		}
	}
	if p.disjoint && q.disjoint {
		return newDisjointPwQP(params, pieces, work), nil
	}
	return newPwQP(params, pieces, work), nil
}

// aligned returns the merged parameters of p and q and both functions'
// pieces over them.
func aligned(p, q *PwQPolynomial) (params []string, ps, qs []*bset) {
	params = mergeNames(p.params, q.params)
	lifted := func(x *PwQPolynomial) []*bset {
		m := make([]int, 1+len(x.params))
		for i, n := range x.params {
			m[1+i] = 1 + slices.Index(params, n)
		}
		out := make([]*bset, len(x.pieces))
		for i, pc := range x.pieces {
			out[i] = lift(pc, len(params), 0, m)
		}
		return out
	}
	return params, lifted(p), lifted(q)
}

// Scale returns c*p.
func (p *PwQPolynomial) Scale(c *big.Rat) *PwQPolynomial {
	r := &PwQPolynomial{params: p.params, disjoint: p.disjoint}
	if c.Sign() == 0 {
		return r
	}
	for _, pc := range p.pieces {
		n := pc.clone()
		n.poly = n.poly.scale(c)
		r.pieces = append(r.pieces, n)
	}
	return r.present()
}
