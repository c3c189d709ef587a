package counts

import (
	"slices"
	"strings"
)

// This file evaluates a counting plan at concrete parameters by
// enumerating its sets. It is the independent check of the symbolic
// counts, and is exact but slow.

// breakdown is a plan evaluated at concrete parameters.
type breakdown struct {
	props map[string]int64 // property -> value; zero values left out
	cards []int64          // number of points of each set
	// per global access: its property name and count, in plan order
	access []accessCount
}

type accessCount struct {
	property string
	count    int64
}

// CountAt evaluates every property of k at params by enumerating the
// points of the counting plan's sets, counting none symbolically: the
// fallback for a kernel whose symbolic count exceeds Options.Limits. It is
// exact, and the same evaluation the tests check the symbolic counts
// against, but its time grows with the sizes; budget bounds the candidate
// values the enumeration of all the sets together may try (past it, an
// error wrapping ErrTooLarge). It refuses parameters that
// violate the kernel's assumptions or reach outside an array, as
// Counted.PropertiesAt and Counted.CheckBounds do, and returns the value
// of every property that is not zero and the names of those that are
// upper bounds (see Counted.UpperBound).
func CountAt(k *Kernel, opts Options, params map[string]int64, budget int64) (values map[string]int64, upper map[string]bool, err error) {
	p, err := buildPlan(k, opts, false)
	if err != nil {
		return nil, nil, err
	}
	b, err := p.concrete(params, budget)
	if err != nil {
		return nil, nil, err
	}
	c := &Counted{k: k, plan: p, params: slices.Clone(k.Params)}
	if err := c.CheckBounds(params); err != nil {
		return nil, nil, err
	}
	upper = map[string]bool{}
	for name := range b.props {
		upper[name] = p.upper[name]
	}
	for i, a := range b.access { // in plan order, as p.global
		upper[a.property] = upper[a.property] || p.global[i].upper
	}
	for name := range b.props {
		if rest, ok := strings.CutPrefix(name, "global.minldst."); ok {
			upper[name] = upper[name] || upper["global.load."+rest] || upper["global.store."+rest]
		}
	}
	for name, u := range upper {
		if !u || b.props[name] == 0 {
			delete(upper, name)
		}
	}
	return b.props, upper, nil
}

func (p *plan) concrete(params map[string]int64, budget int64) (*breakdown, error) {
	if _, err := newEngine(p.k, params); err != nil {
		return nil, err
	}
	b := &breakdown{props: map[string]int64{}, cards: make([]int64, len(p.sets))}
	for i := range b.cards {
		b.cards[i] = -1
	}
	card := func(i int) (int64, error) {
		if b.cards[i] < 0 {
			n, err := countConcreteWithin(p.sets[i], p.k.File, p.k.Params, params, &budget)
			if err != nil {
				return 0, err
			}
			b.cards[i] = n
		}
		return b.cards[i], nil
	}
	value := func(t term) (int64, error) { return t.valueWith(card) }
	add := func(name string, v int64) error {
		s, err := addInt(b.props[name], v)
		b.props[name] = s
		return err
	}
	for name, terms := range p.static {
		for _, t := range terms {
			v, err := value(t)
			if err == nil {
				err = add(name, v)
			}
			if err != nil {
				return nil, errorf(p.k.File, Pos{}, "%s: %v", name, err)
			}
		}
	}
	for _, g := range p.global {
		v, err := value(g.count)
		if err != nil {
			return nil, err
		}
		num := int64(0)
		if f, ok := p.fp[g.array.Name]; ok && g.stride != 0 && g.stride != 1 {
			cells, filled, err := b.footprint(f, value)
			if err != nil {
				return nil, err
			}
			num = utilClass(cells, filled, classDenominator(g.stride))
		}
		name := globalProperty(g.store, g.array.ReadOnly, g.array.DType, g.stride, num)
		b.access = append(b.access, accessCount{name, v})
		if err := add(name, v); err != nil {
			return nil, err
		}
	}
	addMinLdSt(b.props)
	for name, v := range b.props {
		if v == 0 {
			delete(b.props, name)
		}
	}
	return b, nil
}

// valueWith evaluates the term given the sizes of the plan's sets: its
// coefficient times, for each factor, the largest of its sets.
func (t term) valueWith(card func(set int) (int64, error)) (int64, error) {
	v := t.coef
	for _, f := range t.factors {
		m := int64(0)
		for _, s := range f {
			c, err := card(s)
			if err != nil {
				return 0, err
			}
			m = max(m, c)
		}
		var err error
		if v, err = mulInt(v, m); err != nil {
			return 0, err
		}
	}
	return v, nil
}

// footprint evaluates the number of cells of a footprint and of its
// filled-in bounding box.
func (b *breakdown) footprint(f footprint, value func(term) (int64, error)) (cells, filled int64, err error) {
	if cells, err = value(term{coef: 1, factors: []factor{{f.cells}}}); err != nil {
		return 0, 0, err
	}
	filled = 1
	for _, ext := range f.extents {
		e, err := value(term{coef: 1, factors: []factor{{ext}}})
		if err == nil {
			filled, err = mulInt(filled, e)
		}
		if err != nil {
			return 0, 0, err
		}
	}
	return cells, filled, nil
}

// addMinLdSt adds global.minldst.<dtype>.stride=<class> = min(loads,
// stores) for every dtype and class with both.
func addMinLdSt(props map[string]int64) {
	for name, ld := range props {
		rest, ok := minLdStRest(name)
		if !ok {
			continue
		}
		if st := props["global.store."+rest]; st > 0 && ld > 0 {
			props["global.minldst."+rest] = min(ld, st)
		}
	}
}
