package polyhedra

import (
	"fmt"
	"slices"
)

// Intersect returns a ∩ b. Parameters and dimensions are matched by name:
// the result has a's parameters followed by b's new ones and a's
// dimensions followed by b's new ones (unconstrained in a).
func Intersect(a, b *Set) (s *Set, err error) {
	defer catch(&err, "intersecting sets")
	params := mergeNames(a.params, b.params)
	dims := mergeNames(a.dims, b.dims)
	pa, err := a.alignedTo(params, dims)
	if err != nil {
		return nil, err
	}
	pb, err := b.alignedTo(params, dims)
	if err != nil {
		return nil, err
	}
	return &Set{name: a.name, params: params, dims: dims, parts: intersectParts(pa, pb, newBudget(Limits{}))}, nil
}

// Union returns a ∪ b. Both must have the same dimension names (in any
// order; the result uses a's); parameters are merged by name.
func Union(a, b *Set) (s *Set, err error) {
	defer catch(&err, "uniting sets")
	if !sameNames(a.dims, b.dims) {
		return nil, fmt.Errorf("union of sets with different dimensions [%s] and [%s]", joinNames(a.dims), joinNames(b.dims))
	}
	params := mergeNames(a.params, b.params)
	pa, err := a.alignedTo(params, a.dims)
	if err != nil {
		return nil, err
	}
	pb, err := b.alignedTo(params, a.dims)
	if err != nil {
		return nil, err
	}
	return &Set{name: a.name, params: params, dims: a.dims, parts: append(pa, pb...)}, nil
}

func sameNames(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, n := range a {
		if !slices.Contains(b, n) {
			return false
		}
	}
	return true
}

func joinNames(ns []string) string {
	s := ""
	for i, n := range ns {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

// Project returns the set of the kept dimensions' values for which the
// other dimensions can take integer values in s: exact over the integers
// (the projection of { [i, j] : i = 2j } onto i is the even numbers, not
// all of them). The result's dimensions are keep, in that order.
func (s *Set) Project(keep []string) (p *Set, err error) {
	defer catch(&err, "projecting set")
	for i, k := range keep {
		if !slices.Contains(s.dims, k) {
			return nil, fmt.Errorf("projection onto %s: no such dimension in [%s]", k, joinNames(s.dims))
		}
		if slices.Contains(keep[:i], k) {
			return nil, fmt.Errorf("projection onto %s: dimension given twice", k)
		}
	}
	dims := slices.Clone(keep)
	for _, d := range s.dims {
		if !slices.Contains(keep, d) {
			dims = append(dims, d)
		}
	}
	parts, err := s.alignedTo(s.params, dims)
	if err != nil {
		return nil, err
	}
	parts, err = projectOutTail(parts, len(dims)-len(keep), newBudget(Limits{}))
	if err != nil {
		return nil, err
	}
	return &Set{name: s.name, params: s.params, dims: slices.Clone(keep), parts: parts}, nil
}

// A LinExpr is an affine expression sum Coeffs[name]*name + Const over
// dimensions and parameters.
type LinExpr struct {
	Coeffs map[string]int64
	Const  int64
}

// An AffineMap maps points of In to points of Out: Out[k] = Exprs[k]
// evaluated at the In values (and the parameters: every name in an
// expression that is not in In is a parameter).
type AffineMap struct {
	In    []string
	Out   []string
	Exprs []LinExpr
}

func (m *AffineMap) check() error {
	if len(m.Exprs) != len(m.Out) {
		return fmt.Errorf("affine map: %d expressions for %d output dimensions", len(m.Exprs), len(m.Out))
	}
	for _, names := range [][]string{m.In, m.Out} {
		for i, n := range names {
			if slices.Contains(names[:i], n) {
				return fmt.Errorf("affine map: dimension %s given twice", n)
			}
		}
	}
	for k, e := range m.Exprs {
		for n := range e.Coeffs {
			if slices.Contains(m.Out, n) && !slices.Contains(m.In, n) {
				return fmt.Errorf("affine map: expression for %s uses output dimension %s", m.Out[k], n)
			}
		}
	}
	return nil
}

// params returns the parameter names the expressions use, in a stable
// order, after those in base.
func (m *AffineMap) params(base []string) []string {
	out := slices.Clone(base)
	for _, e := range m.Exprs {
		var ns []string
		for n := range e.Coeffs {
			if !slices.Contains(m.In, n) && !slices.Contains(out, n) {
				ns = append(ns, n)
			}
		}
		slices.Sort(ns)
		out = append(out, ns...)
	}
	return out
}

// row writes e over a bset with the given parameters and dimensions.
func (e LinExpr) row(params, dims []string) []int64 {
	r := make([]int64, 1+len(params)+len(dims))
	r[0] = e.Const
	for n, c := range e.Coeffs {
		if i := slices.Index(dims, n); i >= 0 {
			r[1+len(params)+i] = add64(r[1+len(params)+i], c)
		} else {
			i := slices.Index(params, n)
			r[1+i] = add64(r[1+i], c)
		}
	}
	return r
}

// Image returns { m(x) : x in s }, exact over the integers. The set's
// dimensions must be m.In (by name); the result's are m.Out. The image of
// a loop domain under an array subscript is the access footprint.
func (s *Set) Image(m *AffineMap) (img *Set, err error) {
	defer catch(&err, "image of set")
	if err := m.check(); err != nil {
		return nil, err
	}
	if !sameNames(s.dims, m.In) {
		return nil, fmt.Errorf("image: set dimensions [%s] differ from the map's input [%s]", joinNames(s.dims), joinNames(m.In))
	}
	params := m.params(s.params)
	dims := append(slices.Clone(m.Out), m.In...)
	parts, err := s.alignedTo(params, dims)
	if err != nil {
		return nil, err
	}
	for _, p := range parts {
		for k, e := range m.Exprs {
			r := e.row(params, dims)
			r = negRow(r)
			r[1+len(params)+k] = 1 // out_k - expr_k = 0
			p.addEq(r)
		}
	}
	parts, err = projectOutTail(parts, len(m.In), newBudget(Limits{}))
	if err != nil {
		return nil, err
	}
	return &Set{params: params, dims: slices.Clone(m.Out), parts: parts}, nil
}

// Preimage returns { x : m(x) in s }. The set's dimensions must be m.Out
// (by name); the result's are m.In. Splitting a loop i into 16*io + ii is
// the preimage under i = 16*io + ii.
func (s *Set) Preimage(m *AffineMap) (pre *Set, err error) {
	defer catch(&err, "preimage of set")
	if err := m.check(); err != nil {
		return nil, err
	}
	if !sameNames(s.dims, m.Out) {
		return nil, fmt.Errorf("preimage: set dimensions [%s] differ from the map's output [%s]", joinNames(s.dims), joinNames(m.Out))
	}
	params := m.params(s.params)
	dims := append(slices.Clone(m.In), m.Out...)
	parts, err := s.alignedTo(params, dims)
	if err != nil {
		return nil, err
	}
	for _, p := range parts {
		for k, e := range m.Exprs {
			col := 1 + len(params) + len(m.In) + k
			p.substitute(col, e.row(params, dims))
		}
		for k := len(m.Out) - 1; k >= 0; k-- {
			p.deleteCol(1 + len(params) + len(m.In) + k)
		}
	}
	return &Set{params: params, dims: slices.Clone(m.In), parts: cleanParts(parts)}, nil
}

// IsEmpty reports whether s has no integer point for any parameter
// values. The test is exact: every variable is projected out over the
// integers.
func (s *Set) IsEmpty() (empty bool, err error) {
	defer catch(&err, "testing emptiness")
	for _, p := range s.parts {
		e, err := p.exactlyEmpty()
		if err != nil {
			return false, err
		}
		if !e {
			return false, nil
		}
	}
	return true, nil
}
