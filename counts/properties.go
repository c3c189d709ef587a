package counts

import (
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/polyhedra"
)

// Property is one property of a counted kernel with its symbolic count.
type Property struct {
	// Name is the property's name. For a strided global access whose
	// class follows from utilization, it has the placeholder k for the
	// class numerator, as in global.load.f32.stride=k/2.
	Name string
	// Expression is the count: a piecewise quasi-polynomial in the
	// parameters in isl notation, or for global.minldst properties
	// min(loads, stores) of two of them.
	Expression string
	// Utilization, for a name with the placeholder k, says how k
	// follows from the array's footprint.
	Utilization *Utilization
	// UpperBound is set when the count is an upper bound (see
	// Counted.UpperBound).
	UpperBound bool
	// Assumed lists, for accesses whose stride depends on the parameters
	// (b[i*ny + j] along i), the conditions under which their class >4
	// is exact ("ny > 4"); the class is >4 at every size.
	Assumed []string
}

// IsProperty reports whether name is one of the property names the
// package counts (listed in docs/counting.md): memory traffic by space,
// direction (load, ldg for readonly arrays, store, minldst), type (b8
// and b16 for the 8- and 16-bit integers) and stride class, indirect
// traffic, atomic additions, bank-conflict classes, operations, barriers
// and launches. A weight table fitted on these counts holds only such
// names; one that holds another was fitted on another naming.
func IsProperty(name string) bool { return propertyNames()[name] }

// Utilization describes the class numerator k of strided accesses to an
// array: k = round(Den × Cells / Filled), halves up, clamped to 1..Den,
// where Cells counts the footprint's cells and Filled those of its
// bounding box (both in isl notation).
type Utilization struct {
	Array         string
	Den           int64
	Cells, Filled string
}

// String renders the property as "name = " followed by its Detail.
func (p Property) String() string { return p.Name + " = " + p.Detail() }

// Detail returns the expression followed, for a class that depends on
// utilization, by how k follows from the footprint, and for an upper
// bound by a note that it is one.
func (p Property) Detail() string {
	s := p.Expression
	if u := p.Utilization; u != nil {
		s += fmt.Sprintf("; k = round(%d × cells / filled) in 1..%d over the footprint of %s: cells = %s, filled = %s",
			u.Den, u.Den, u.Array, u.Cells, u.Filled)
	}
	switch {
	case p.UpperBound && strings.Contains(p.Name, ".conflict="):
		s += "; upper bound: counted with the largest degree of any warp, every lane its conditions may leave taken as active"
	case p.UpperBound:
		s += "; upper bound: counted as if its data-dependent conditions held"
	}
	if len(p.Assumed) > 0 {
		s += "; stride class >4 where " + strings.Join(p.Assumed, " and ") + ", and taken as >4 at every size"
	}
	return s
}

// Properties returns every property of the kernel that is not
// recognisably zero, sorted by name, with its symbolic count. Strided
// accesses whose class depends on the parameters are listed once per
// array, direction, type and stride with the placeholder k.
func (c *Counted) Properties() ([]Property, error) {
	sums, err := c.sums()
	if err != nil {
		return nil, err
	}
	var out []Property
	byName := map[string]*polyhedra.PwQPolynomial{}
	upper := map[string]bool{}
	for i, g := range c.groups {
		if sums[i].IsZero() {
			continue
		}
		name, util := c.symbolicName(&g)
		p := Property{Name: name, Expression: sums[i].String(), Utilization: util, Assumed: g.assumed}
		p.UpperBound = g.upper || c.upper[name]
		upper[name] = upper[name] || p.UpperBound
		byName[name] = sums[i]
		out = append(out, p)
	}
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		if rest, ok := minLdStRest(name); ok && byName["global.store."+rest] != nil {
			// The minimum of an upper bound and a count bounds the
			// minimum of the counts.
			minName := "global.minldst." + rest
			out = append(out, Property{Name: minName, Expression: minText(name, rest, byName),
				UpperBound: c.upper[minName] || upper[name] || upper["global.store."+rest]})
		}
	}
	slices.SortStableFunc(out, func(a, b Property) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// symbolicName is the name under which Properties and Breakdown list a
// group: its fixed name, or for a class that depends on utilization the
// name with the placeholder k and how k follows from the footprint.
func (c *Counted) symbolicName(g *group) (string, *Utilization) {
	if g.util < 0 {
		return g.nameAt(0), nil
	}
	u := c.utils[g.util]
	return strings.Replace(g.nameAt(1), "stride=1/", "stride=k/", 1),
		&Utilization{Array: u.array, Den: u.den, Cells: c.values[u.cells].String(), Filled: c.values[u.fill].String()}
}

// minText renders min(loads, stores): the counts themselves for a fixed
// class, the property names for a class that depends on utilization
// (there may be several arrays in it).
func minText(load, rest string, byName map[string]*polyhedra.PwQPolynomial) string {
	if strings.Contains(rest, "=k/") {
		return "min(" + load + ", global.store." + rest + ")"
	}
	return "min(" + byName[load].String() + ", " + byName["global.store."+rest].String() + ")"
}

// PropertiesAt returns the properties that are non-zero at the given
// parameters, sorted by name, with their counts: the classes of strided
// accesses are resolved at these parameters, and each expression is the
// count of the property wherever the classes are the same. The values
// are those of Eval.
func (c *Counted) PropertiesAt(params map[string]int64) ([]Property, map[string]int64, error) {
	fns, values, err := c.functionsAt(params)
	if err != nil {
		return nil, nil, err
	}
	var out []Property
	for _, name := range slices.Sorted(maps.Keys(values)) {
		if rest, ok := strings.CutPrefix(name, "global.minldst."); ok {
			out = append(out, Property{Name: name, Expression: minText("global.load."+rest, rest, fns), UpperBound: c.upper[name]})
			continue
		}
		out = append(out, Property{Name: name, Expression: fns[name].String(), UpperBound: c.upper[name]})
	}
	return out, values, nil
}

// functionsAt returns the values of Eval and, for every property but the
// minima, the function that counts it at params: the sum of the groups
// that fall in it there.
func (c *Counted) functionsAt(params map[string]int64) (map[string]*polyhedra.PwQPolynomial, map[string]int64, error) {
	values, err := c.Eval(params)
	if err != nil {
		return nil, nil, err
	}
	classes, err := c.classesAt(params)
	if err != nil {
		return nil, nil, err
	}
	sums, err := c.sums()
	if err != nil {
		return nil, nil, err
	}
	fns := map[string]*polyhedra.PwQPolynomial{}
	for i, g := range c.groups {
		name := g.name
		if g.util >= 0 {
			name = g.nameAt(classes[g.util])
		}
		if values[name] == 0 {
			continue
		}
		if fns[name] == nil {
			fns[name] = sums[i]
		} else if fns[name], err = fns[name].Add(sums[i]); err != nil {
			return nil, nil, err
		}
	}
	return fns, values, nil
}

// classesAt returns the class numerator of each utilization at params,
// which Eval has checked.
func (c *Counted) classesAt(params map[string]int64) ([]int64, error) {
	classes := make([]int64, len(c.utils))
	for i, u := range c.utils {
		cells, err1 := c.values[u.cells].Eval(params)
		fill, err2 := c.values[u.fill].Eval(params)
		if err := errors.Join(err1, err2); err != nil {
			return nil, err
		}
		// Eval evaluated both within int64.
		classes[i] = utilClass(cells.Int64(), fill.Int64(), u.den)
	}
	return classes, nil
}

// groupSums sums the terms of each group.
func (c *Counted) groupSums() ([]*polyhedra.PwQPolynomial, error) {
	out := make([]*polyhedra.PwQPolynomial, len(c.groups))
	for i, g := range c.groups {
		var err error
		if out[i], err = c.sum(g.terms); err != nil {
			return nil, errorf(c.k.File, Pos{}, "kernel %s: forming %s: %v", c.k.Name, g.nameAt(0), err)
		}
	}
	return out, nil
}

// sum returns Σ coef × Π values as one function.
func (c *Counted) sum(terms []prodTerm) (*polyhedra.PwQPolynomial, error) {
	var s *polyhedra.PwQPolynomial
	for _, t := range terms {
		p, err := c.product(t.factors)
		if err != nil {
			return nil, err
		}
		v := p.Scale(big.NewRat(t.coef, 1))
		if s == nil {
			s = v
		} else if s, err = s.Add(v); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// product returns the product of counted values, formed once per
// Counted: the parts of a breakdown at every size share them.
func (c *Counted) product(factors []int) (*polyhedra.PwQPolynomial, error) {
	key := fmt.Sprint(factors)
	c.productsMu.Lock()
	defer c.productsMu.Unlock()
	if p, ok := c.products[key]; ok {
		return p, nil
	}
	p, err := c.value(factors[0])
	if err != nil {
		return nil, err
	}
	for _, f := range factors[1:] {
		v, err := c.value(f)
		if err != nil {
			return nil, err
		}
		if p, err = p.Mul(v); err != nil {
			return nil, err
		}
	}
	if c.products == nil {
		c.products = map[string]*polyhedra.PwQPolynomial{}
	}
	c.products[key] = p
	return p, nil
}
