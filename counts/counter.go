package counts

import (
	"maps"
	"slices"

	"github.com/uniperf/uniperf/polyhedra"
)

// This file turns a counting plan into the counted quantities of a
// Counted: every set of the plan counted with polyhedra, the maxima of
// extents that launch sizes need, the footprints' cells and bounding
// boxes, and each property's terms as products of those quantities.

// counter turns a plan into a Counted.
type counter struct {
	p    *plan
	c    *Counted
	unit int            // the plan's zero-dimensional set
	set  map[int]int    // plan set -> value
	max  map[string]int // factor with several sets -> value
}

func (b *counter) count() error {
	for _, name := range slices.Sorted(maps.Keys(b.p.static)) {
		terms, err := b.terms(b.p.static[name])
		if err != nil {
			return err
		}
		b.c.groups = append(b.c.groups, group{name: name, util: -1, terms: terms, parts: sourced(terms, b.p.static[name]), upper: b.p.upper[name]})
	}
	type utilKey struct {
		array string
		den   int64
	}
	utils := map[utilKey]int{}
	index := map[accessKind]int{}
	for _, g := range b.p.global {
		t, err := b.terms([]term{g.count})
		if err != nil {
			return err
		}
		kind := accessKind{store: g.store, readOnly: g.array.ReadOnly, dtype: g.array.DType, stride: g.stride}
		gr := group{util: -1, upper: g.upper}
		if g.stride == 0 || g.stride == 1 {
			gr.name = globalProperty(g.store, g.array.ReadOnly, g.array.DType, g.stride, 0)
		} else {
			kind.array = g.array.Name
			den := classDenominator(g.stride)
			key := utilKey{g.array.Name, den}
			u, ok := utils[key]
			if !ok {
				if u, err = b.util(g.array.Name, den); err != nil {
					return err
				}
				utils[key] = u
			}
			gr.util = u
		}
		parts := sourced(t, []term{g.count})
		var assumed []string
		if g.stride == strideVar {
			assumed = []string{g.coef.above4()}
		}
		if i, ok := index[kind]; ok {
			gi := &b.c.groups[i]
			gi.terms = append(gi.terms, t...)
			gi.parts = append(gi.parts, parts...)
			gi.upper = gi.upper || g.upper
			for _, a := range assumed {
				if !slices.Contains(gi.assumed, a) {
					gi.assumed = append(gi.assumed, a)
				}
			}
			continue
		}
		gr.acc, gr.terms, gr.parts, gr.assumed = kind, t, parts, assumed
		index[kind] = len(b.c.groups)
		b.c.groups = append(b.c.groups, gr)
	}
	for i := range b.c.groups {
		g := &b.c.groups[i]
		var err error
		if g.terms, err = mergeTerms(g.terms); err != nil {
			return err
		}
	}
	return nil
}

// terms counts the factors of plan terms. A term without factors gets
// the count of a zero-dimensional set, 1, so that it is a function too.
func (b *counter) terms(ts []term) ([]prodTerm, error) {
	out := make([]prodTerm, len(ts))
	for i, t := range ts {
		out[i].coef = t.coef
		factors := t.factors
		if len(factors) == 0 {
			factors = []factor{{b.unit}}
		}
		for _, f := range factors {
			v, err := b.factor(f)
			if err != nil {
				return nil, err
			}
			out[i].factors = append(out[i].factors, v)
		}
		slices.Sort(out[i].factors)
	}
	return out, nil
}

// mergeTerms adds up the coefficients of terms with the same factors (two
// barriers in the same loop, say), so that each product is formed and
// evaluated once.
func mergeTerms(ts []prodTerm) ([]prodTerm, error) {
	var out []prodTerm
	for _, t := range ts {
		i := slices.IndexFunc(out, func(o prodTerm) bool { return slices.Equal(o.factors, t.factors) })
		if i < 0 {
			out = append(out, t)
			continue
		}
		var err error
		if out[i].coef, err = addInt(out[i].coef, t.coef); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// factor returns the value of a factor: the count of its set, or the
// maximum of the counts of its sets (one-dimensional sets, whose counts
// are affine, so that polyhedra's Max applies). Should Max fail, the
// largest size is counted as the size of the union of the sets' spans.
func (b *counter) factor(f factor) (int, error) {
	if len(f) == 1 {
		return b.countSet(f[0])
	}
	key := f.key()
	if v, ok := b.max[key]; ok {
		return v, nil
	}
	r, ok := b.p.maxes[key]
	if !ok {
		r = b.p.startMax(f)
	}
	<-r.done
	if r.err != nil {
		return b.countSet(b.p.spanUnion(f))
	}
	b.max[key] = b.value(r.n)
	b.c.gisted[b.max[key]] = r.gisted
	if r.n == nil {
		b.c.assumedMax[b.max[key]] = r.assumed
	}
	return b.max[key], nil
}

// countSet returns the value of a plan set's count.
func (b *counter) countSet(i int) (int, error) {
	if v, ok := b.set[i]; ok {
		return v, nil
	}
	r := b.p.counted(i)
	if r.err != nil {
		return 0, r.err
	}
	b.set[i] = b.value(r.n)
	b.c.gisted[b.set[i]] = r.gisted
	return b.set[i], nil
}

// value registers a counted quantity; Counted.gist simplifies it later
// unless its simplified form is set meanwhile.
func (b *counter) value(v *polyhedra.PwQPolynomial) int {
	b.c.values = append(b.c.values, v)
	b.c.gisted = append(b.c.gisted, nil)
	return len(b.c.values) - 1
}

// util registers the utilization of an array's footprint for class
// denominator den: the counts of its cells and of its bounding box.
func (b *counter) util(array string, den int64) (int, error) {
	f := b.p.fp[array]
	cells, err := b.countSet(f.cells)
	if err != nil {
		return 0, err
	}
	var filled *polyhedra.PwQPolynomial
	for _, e := range f.extents {
		v, err := b.countSet(e)
		if err != nil {
			return 0, err
		}
		if filled == nil {
			filled = b.c.values[v]
		} else if filled, err = filled.Mul(b.c.values[v]); err != nil {
			return 0, err
		}
	}
	b.c.utils = append(b.c.utils, util{array: array, den: den, cells: cells, fill: b.value(filled)})
	return len(b.c.utils) - 1, nil
}
