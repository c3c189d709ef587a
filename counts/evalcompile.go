package counts

import (
	"fmt"
	"strings"
	"sync"

	"github.com/uniperf/uniperf/polyhedra"
)

// quantities collects the counted quantities a compiled evaluation
// needs, after the assumptions, in the order of first use.
type quantities struct {
	c     *Counted
	fns   []*polyhedra.PwQPolynomial
	local map[int]int // index in Counted.gisted -> index in fns
}

func (c *Counted) quantities() *quantities {
	return &quantities{c: c, fns: []*polyhedra.PwQPolynomial{c.assumed}, local: map[int]int{}}
}

// index returns the position of quantity v (an index into
// Counted.gisted) among those collected, adding it if it is new.
func (q *quantities) index(v int) int {
	if i, ok := q.local[v]; ok {
		return i
	}
	q.local[v] = len(q.fns)
	q.fns = append(q.fns, q.c.gisted[v])
	return q.local[v]
}

// compile compiles the collected quantities together.
func (q *quantities) compile() (*polyhedra.ProgramSet, error) {
	set, err := polyhedra.CompileSet(q.fns, q.c.params)
	if err != nil {
		return nil, errorf(q.c.k.File, Pos{}, "kernel %s: %v", q.c.k.Name, err)
	}
	return set, nil
}

// Compile returns an Evaluator of the given properties, in that order.
// Each name must be a property name of the package documentation; a
// property the kernel never has evaluates to 0.
func (c *Counted) Compile(properties []string) (*Evaluator, error) {
	if err := c.symbolic("compiled"); err != nil {
		return nil, err
	}
	return c.compile(properties)
}

func (c *Counted) compile(properties []string) (*Evaluator, error) {
	e := &Evaluator{file: c.k.File, params: c.params, assume: c.k.Assumptions()}
	q := c.quantities()
	val := q.index
	localUtil := map[int]int{}
	utilOf := func(u int) int {
		if i, ok := localUtil[u]; ok {
			return i
		}
		localUtil[u] = len(e.utils)
		e.utils = append(e.utils, evUtil{cells: val(c.utils[u].cells), fill: val(c.utils[u].fill), den: c.utils[u].den})
		return localUtil[u]
	}
	sumIndex := map[string]int{}
	sumOf := func(g *group) int {
		var ts []prodTerm
		for _, t := range g.terms {
			lt := prodTerm{coef: t.coef}
			for _, f := range t.factors {
				lt.factors = append(lt.factors, val(f))
			}
			ts = append(ts, lt)
		}
		key := fmt.Sprint(ts)
		if i, ok := sumIndex[key]; ok {
			return i
		}
		sumIndex[key] = len(e.sums)
		e.sums = append(e.sums, ts)
		return len(e.sums) - 1
	}
	parts := func(name string) []evPart {
		var out []evPart
		for i := range c.groups {
			g := &c.groups[i]
			if g.util < 0 {
				if g.name == name {
					out = append(out, evPart{sumOf(g), -1, 0})
				}
				continue
			}
			for num := int64(1); num <= c.utils[g.util].den; num++ {
				if g.nameAt(num) == name {
					out = append(out, evPart{sumOf(g), utilOf(g.util), num})
				}
			}
		}
		return out
	}
	for _, name := range properties {
		if !propertyNames()[name] {
			return nil, errorf(c.k.File, Pos{}, "unknown property %q (see the property names of package counts)", name)
		}
		if rest, ok := strings.CutPrefix(name, "global.minldst."); ok {
			e.props = append(e.props, evProp{parts: parts("global.load." + rest), other: parts("global.store." + rest), min: true})
		} else {
			e.props = append(e.props, evProp{parts: parts(name)})
		}
	}
	var err error
	if e.set, err = q.compile(); err != nil {
		return nil, err
	}
	e.stack = len(q.fns) + len(e.utils) + len(e.sums)
	return e, nil
}

// propertyNames is the set of every property name of the package
// documentation.
var propertyNames = sync.OnceValue(func() map[string]bool {
	names := map[string]bool{"sync.barrier": true, "launch.groups": true, "launch.const": true}
	classes := []string{"0", "1"}
	for s := int64(2); s <= 5; s++ {
		for k := int64(1); k <= classDenominator(s); k++ {
			classes = append(classes, strideName(s, k))
		}
	}
	for _, t := range []DType{F32, F64, I32, I64, I8, I16, F16} {
		for _, dir := range []string{"load", "store"} {
			names["local."+dir+"."+t.MemName()] = true
		}
		for d := int64(2); d <= maxBanks; d *= 2 {
			names[conflictProperty(t, d)] = true
		}
		for _, dir := range []string{"load", "ldg", "store", "minldst"} {
			for _, c := range classes {
				names["global."+dir+"."+t.MemName()+".stride="+c] = true
			}
		}
		for k := KindAdd; int(k) < len(opKindNames); k++ {
			if k.appliesTo(t) && !t.Storage() {
				names[Op{k, t}.Property()] = true
			}
		}
		for _, sp := range []Space{Global, Local} {
			names[indirectProperty(sp, false, t)] = true
			names[indirectProperty(sp, true, t)] = true
		}
	}
	for _, t := range []DType{F32, I32} {
		names[atomicProperty(Global, t)] = true
		names[atomicProperty(Local, t)] = true
	}
	return names
})
