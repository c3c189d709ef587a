package counts

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/polyhedra"
)

// Attribution is what Breakdown splits the properties by.
type Attribution uint8

const (
	// ByInstruction splits each property by the statement that performs
	// it: an instruction, or for sync.barrier a barrier.
	ByInstruction Attribution = iota + 1
	// ByArray splits each property by array: memory traffic and
	// subscript arithmetic by the array accessed, the operations of an
	// instruction's value by the array or temporary it assigns to.
	ByArray
)

// Part is the share of a property that one instruction, barrier or array
// contributes. The parts of a property sum to it.
type Part struct {
	// Property is the property's name, as in Properties (Breakdown) or
	// PropertiesAt (BreakdownAt).
	Property string
	// Source is the statement's id or the array's name; it is "" for
	// what belongs to the kernel as a whole: launch.groups and
	// launch.const, and by array sync.barrier.
	Source string
	// Pos is where the statement is, or the array is declared.
	Pos Pos
	// Expression is the part's count, a piecewise quasi-polynomial in
	// isl notation.
	Expression string
	// Utilization, for a name with the placeholder k, says how k
	// follows from the array's footprint.
	Utilization *Utilization
}

// Breakdown splits every property that Properties lists, but the minima
// of loads and stores (a minimum of sums is no sum of parts), by
// instruction or by array. Parts that are recognisably zero are left out.
// They are sorted by property and then by source: statements in textual
// order, arrays in declaration order, the kernel as a whole last.
func (c *Counted) Breakdown(by Attribution) ([]Part, error) {
	sums, err := c.sums()
	if err != nil {
		return nil, err
	}
	var out []Part
	for i, g := range c.groups {
		if sums[i].IsZero() {
			continue
		}
		name, util := c.symbolicName(&g)
		for _, b := range c.bySource(by, [][]sourcedTerm{g.parts}) {
			f, err := c.sum(b.terms)
			if err != nil {
				return nil, errorf(c.k.File, Pos{}, "kernel %s: forming %s of %s: %v", c.k.Name, name, b.name, err)
			}
			if !f.IsZero() {
				out = append(out, Part{Property: name, Source: b.name, Pos: b.pos, Expression: f.String(), Utilization: util})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Part) int { return strings.Compare(a.Property, b.Property) })
	return out, nil
}

// BreakdownAt splits every property that PropertiesAt lists, but the
// minima of loads and stores, by instruction or by array, with the
// classes of strided accesses resolved at the given parameters. values[i]
// is the value of parts[i] there; parts that are zero there are left out.
// The order is that of Breakdown. A count at fixed sizes (CountWithAt)
// is broken down there only, each part's expression its value: the
// hierarchy model's scalar moves and chains read the parts of every
// binding a tuner predicts.
func (c *Counted) BreakdownAt(by Attribution, params map[string]int64) (parts []Part, values []int64, err error) {
	if _, err := c.Eval(params); err != nil {
		return nil, nil, err
	}
	classes, err := c.classesAt(params)
	if err != nil {
		return nil, nil, err
	}
	byName := map[string][][]sourcedTerm{}
	for _, g := range c.groups {
		name := g.name
		if g.util >= 0 {
			name = g.nameAt(classes[g.util])
		}
		byName[name] = append(byName[name], g.parts)
	}
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		for _, b := range c.bySource(by, byName[name]) {
			f, err := c.sum(b.terms)
			if err != nil {
				return nil, nil, errorf(c.k.File, Pos{}, "kernel %s: forming %s of %s: %v", c.k.Name, name, b.name, err)
			}
			v, err := evalInt64(f, params)
			if err != nil {
				return nil, nil, errorf(c.k.File, Pos{}, "kernel %s: %s of %s: %v", c.k.Name, name, b.name, err)
			}
			if v != 0 {
				parts = append(parts, Part{Property: name, Source: b.name, Pos: b.pos, Expression: f.String()})
				values = append(values, v)
			}
		}
	}
	return parts, values, nil
}

// evalInt64 evaluates f exactly and checks that the value fits in int64.
func evalInt64(f *polyhedra.PwQPolynomial, params map[string]int64) (int64, error) {
	v, err := f.Eval(params)
	if err != nil {
		return 0, err
	}
	if !v.IsInt64() {
		return 0, polyhedra.ErrOverflow
	}
	return v.Int64(), nil
}

// bucket is the terms of one source.
type bucket struct {
	name  string
	pos   Pos
	order int
	terms []prodTerm
}

// bySource gathers the terms of the given groups' parts by source, in
// the order of Breakdown.
func (c *Counted) bySource(by Attribution, groups [][]sourcedTerm) []*bucket {
	buckets := map[string]*bucket{}
	var out []*bucket
	for _, parts := range groups {
		for _, t := range parts {
			key := c.sourceOf(by, t.src)
			b := buckets[key.name]
			if b == nil {
				b = &key
				buckets[key.name] = b
				out = append(out, b)
			}
			b.terms = append(b.terms, t.prodTerm)
		}
	}
	slices.SortFunc(out, func(a, b *bucket) int { return cmp.Compare(a.order, b.order) })
	return out
}

// sourceOf names the source of a term: its statement or array, with the
// position and order of Breakdown.
func (c *Counted) sourceOf(by Attribution, s source) bucket {
	if by == ByArray {
		if i := slices.IndexFunc(c.k.Arrays, func(a *Array) bool { return a.Name == s.array }); s.array != "" && i >= 0 {
			return bucket{name: s.array, pos: c.k.Arrays[i].Pos, order: i}
		}
		return bucket{order: len(c.k.Arrays)}
	}
	if s.stmt == nil {
		return bucket{order: len(c.k.Statements)}
	}
	b := bucket{name: s.stmt.StatementID(), order: slices.Index(c.k.Statements, s.stmt)}
	switch st := s.stmt.(type) {
	case *Instruction:
		b.pos = st.Pos
	case *Barrier:
		b.pos = st.Pos
	}
	return b
}
