package polyhedra

import (
	"errors"
	"fmt"
	"math/big"
)

// Max returns the pointwise maximum of p and q (each 0 outside its
// domains); the parameters are p's followed by q's new ones. Where a
// piece A of p meets a piece B of q, the result is A where A - B >= 0 and
// B where B - A > 0; where only A is defined it is A where A >= 0. Both
// conditions are affine constraints when the differences are affine, as
// for the sizes of one-dimensional sets (the extents of loops): otherwise
// Max fails with an error wrapping ErrNotAffine. A function kept as a sum
// of overlapping pieces has no single polynomial per point to compare,
// and is rejected as well.
func (p *PwQPolynomial) Max(q *PwQPolynomial) (r *PwQPolynomial, err error) {
	defer catch(&err, "taking the maximum")
	for _, x := range []*PwQPolynomial{p, q} {
		if !x.disjoint && len(x.pieces) > 1 {
			return nil, errors.New("max: a function kept as a sum of overlapping pieces")
		}
	}
	params, ps, qs := aligned(p, q)
	work := newBudget(Limits{})
	work.charge(2 * len(ps) * len(qs))
	var pieces []*bset
	for _, a := range ps {
		for _, b := range qs {
			c, bp := meet(a, b)
			ge, gt, err := comparisons(c, c.poly, bp)
			if err != nil {
				return nil, err
			}
			pa, pb := c.clone(), c.clone()
			pa.addIneq(ge)
			pb.addIneq(gt)
			pb.poly = bp
			pieces = append(pieces, pa, pb)
		}
	}
	// Where only one function is defined the other is 0.
	alone := func(xs, others []*bset) error {
		for _, a := range xs {
			rest := []*bset{a.clone()}
			for _, b := range others {
				rest = subtractParts(rest, b, work)
			}
			for _, c := range rest {
				ge, _, err := comparisons(c, c.poly, &poly{})
				if err != nil {
					return err
				}
				c.addIneq(ge)
				pieces = append(pieces, c)
			}
		}
		return nil
	}
	if err := alone(ps, qs); err != nil {
		return nil, err
	}
	if err := alone(qs, ps); err != nil {
		return nil, err
	}
	return newDisjointPwQP(params, pieces, work), nil
}

// comparisons returns the constraints a - b >= 0 and b - a > 0 (as
// b - a - 1/den >= 0, scaled to integers) over the columns of c.
func comparisons(c *bset, a, b *poly) (ge, gt []int64, err error) {
	d := a.sub(b)
	den := big.NewInt(1)
	for _, t := range d.terms {
		deg := 0
		for _, k := range t.exp {
			deg += int(k)
		}
		if deg > 1 {
			return nil, nil, fmt.Errorf("max: %w", ErrNotAffine)
		}
		den.Mul(den, new(big.Int).Div(t.c.Denom(), new(big.Int).GCD(nil, nil, den, t.c.Denom())))
	}
	ge = c.newRow()
	for _, t := range d.terms {
		v := new(big.Int).Mul(t.c.Num(), new(big.Int).Div(den, t.c.Denom()))
		if !v.IsInt64() {
			panic(overflowPanic{})
		}
		col := 0
		for j, k := range t.exp {
			if k != 0 {
				col = j
			}
		}
		ge[col] = v.Int64()
	}
	gt = negRow(ge)
	gt[0] = sub64(gt[0], 1)
	return ge, gt, nil
}
