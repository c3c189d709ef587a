package counts

import (
	"errors"
	"fmt"
	"math/big"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/uniperf/uniperf/polyhedra"
)

// Counted holds the properties of a kernel counted symbolically by
// Count: piecewise quasi-polynomials in the size parameters, evaluated
// exactly at any parameter values with Eval, or fast with a compiled
// Evaluator. It is safe for concurrent use.
//
// Internally every property is a sum of terms, each a coefficient times a
// product of counted quantities (numbers of points of sets, launch sizes);
// a quantity shared by several properties is counted and evaluated once.
type Counted struct {
	k      *Kernel
	params []string
	values []*polyhedra.PwQPolynomial // the counted quantities
	gisted []*polyhedra.PwQPolynomial // values where the assumptions hold
	// assumed is 1 where the parameters satisfy the assumptions, else 0.
	assumed *polyhedra.PwQPolynomial
	groups  []group
	utils   []util
	names   []string   // every property that can be non-zero, sorted
	all     *Evaluator // evaluates names, for Eval
	// sums holds each group's terms summed into one function, formed on
	// demand: evaluation does not need them.
	sums func() ([]*polyhedra.PwQPolynomial, error)
}

// group is a sum of terms that belongs to one property: a static
// property, or the global accesses of one direction, type and stride
// (and array, for strides whose class depends on utilization).
type group struct {
	name  string // the property, when its class is fixed
	util  int    // index into Counted.utils, or -1 when name is fixed
	acc   accessKind
	terms []prodTerm
}

// accessKind is what names the stride class of a global access.
type accessKind struct {
	store  bool
	dtype  DType
	stride int64
	array  string
}

// nameAt names the property of a group whose class numerator is num.
func (g *group) nameAt(num int64) string {
	if g.util < 0 {
		return g.name
	}
	return globalProperty(g.acc.store, g.acc.dtype, g.acc.stride, num)
}

// prodTerm is coef × Π values[factors].
type prodTerm struct {
	coef    int64
	factors []int
}

// util is the utilization of an array's footprint, which decides the
// class numerator of its accesses of stride 2 and more: round(den ×
// cells / filled), at least 1.
type util struct {
	array       string
	den         int64
	cells, fill int // indices into values
}

// Count counts every property of k symbolically, once per kernel; the
// result evaluates them at any parameters. Each set of the counting plan
// is counted with package polyhedra; products and sums of counts are
// formed with its exact arithmetic, and the launch size of an axis with
// several tagged inames is the maximum of their extents.
func Count(k *Kernel) (*Counted, error) {
	p, err := newPlan(k)
	if err != nil {
		return nil, err
	}
	b := &counter{p: p, c: &Counted{k: k, params: slices.Clone(k.Params)}, set: map[int]int{}, max: map[string]int{}}
	b.unit = p.add(&uset{pieces: []piece{{}}})
	if err := b.countAll(); err != nil {
		return nil, errorf(k.File, Pos{}, "counting kernel %s: %v", k.Name, err)
	}
	if err := b.count(); err != nil {
		return nil, errorf(k.File, Pos{}, "counting kernel %s: %v", k.Name, err)
	}
	c := b.c
	if err = c.gist(); err != nil {
		return nil, errorf(k.File, Pos{}, "counting kernel %s: %v", k.Name, err)
	}
	c.names = c.possibleNames()
	c.sums = sync.OnceValues(c.groupSums)
	if c.all, err = c.Compile(c.names); err != nil {
		return nil, err
	}
	return c, nil
}

// gist prepares the counted quantities for evaluation at parameters
// that satisfy the kernel's assumptions (evaluation checks them first),
// dropping the constraints they imply, and counts the assumptions
// themselves: a set without dimensions has one point where they hold.
func (c *Counted) gist() error {
	a := c.k.Assumptions()
	if a == "" {
		a = "0 = 0"
	}
	ctx, err := polyhedra.ParseSet(islSet(c.params, nil, a))
	if err != nil {
		return err
	}
	if c.assumed, err = ctx.Card(); err != nil {
		return err
	}
	c.gisted = make([]*polyhedra.PwQPolynomial, len(c.values))
	for i, v := range c.values {
		if c.gisted[i], err = v.Gist(ctx); err != nil {
			return err
		}
	}
	return nil
}

// counter turns a plan into a Counted.
type counter struct {
	p      *plan
	c      *Counted
	unit   int                        // the plan's zero-dimensional set
	counts []*polyhedra.PwQPolynomial // of the plan's sets, by countAll
	set    map[int]int                // plan set -> value
	max    map[string]int             // factor with several sets -> value
}

// countAll counts the plan's sets, which are independent, on all
// processors.
func (b *counter) countAll() error {
	n := len(b.p.sets)
	b.counts = make([]*polyhedra.PwQPolynomial, n)
	errs := make([]error, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(n, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for i := range next {
				b.counts[i], errs[i] = countSet(b.p.sets[i], b.c.params)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return errors.Join(errs...)
}

// countSet counts the points of a set symbolically.
func countSet(u *uset, params []string) (*polyhedra.PwQPolynomial, error) {
	s, err := polyhedra.ParseSet(u.isl(params))
	if err != nil {
		return nil, err
	}
	n, err := s.Card()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s, err)
	}
	return n, nil
}

func (b *counter) count() error {
	for _, name := range sortedKeys(b.p.static) {
		terms, err := b.terms(b.p.static[name])
		if err != nil {
			return err
		}
		b.c.groups = append(b.c.groups, group{name: name, util: -1, terms: terms})
	}
	utils := map[[2]string]int{}
	index := map[accessKind]int{}
	for _, g := range b.p.global {
		t, err := b.terms([]term{g.count})
		if err != nil {
			return err
		}
		kind := accessKind{store: g.store, dtype: g.array.DType, stride: g.stride}
		gr := group{util: -1, acc: kind}
		if g.stride == 0 || g.stride == 1 {
			gr.name = globalProperty(g.store, g.array.DType, g.stride, 0)
		} else {
			kind.array = g.array.Name
			gr.acc = kind
			den := classDenominator(g.stride)
			key := [2]string{g.array.Name, fmt.Sprint(den)}
			u, ok := utils[key]
			if !ok {
				if u, err = b.util(g.array.Name, den); err != nil {
					return err
				}
				utils[key] = u
			}
			gr.util = u
		}
		if i, ok := index[kind]; ok {
			b.c.groups[i].terms = append(b.c.groups[i].terms, t...)
			continue
		}
		index[kind] = len(b.c.groups)
		b.c.groups = append(b.c.groups, gr)
		b.c.groups[len(b.c.groups)-1].terms = t
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
	key := fmt.Sprint([]int(f))
	if v, ok := b.max[key]; ok {
		return v, nil
	}
	m, err := b.maxOf(f)
	if err != nil {
		return b.countSet(b.p.spanUnion(f))
	}
	b.max[key] = b.value(m)
	return b.max[key], nil
}

// maxOf returns the maximum of the counts of sets.
func (b *counter) maxOf(sets []int) (*polyhedra.PwQPolynomial, error) {
	var m *polyhedra.PwQPolynomial
	for _, s := range sets {
		v, err := b.countSet(s)
		if err != nil {
			return nil, err
		}
		if m == nil {
			m = b.c.values[v]
		} else if m, err = m.Max(b.c.values[v]); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// countSet returns the value of a plan set's count, counting sets that
// countAll did not see.
func (b *counter) countSet(i int) (int, error) {
	if v, ok := b.set[i]; ok {
		return v, nil
	}
	var n *polyhedra.PwQPolynomial
	if i < len(b.counts) {
		n = b.counts[i]
	} else {
		var err error
		if n, err = countSet(b.p.sets[i], b.c.params); err != nil {
			return 0, err
		}
	}
	b.set[i] = b.value(n)
	return b.set[i], nil
}

func (b *counter) value(v *polyhedra.PwQPolynomial) int {
	b.c.values = append(b.c.values, v)
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
		v := c.values[t.factors[0]].Scale(big.NewRat(t.coef, 1))
		var err error
		for _, f := range t.factors[1:] {
			if v, err = v.Mul(c.values[f]); err != nil {
				return nil, err
			}
		}
		if s == nil {
			s = v
		} else if s, err = s.Add(v); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Params returns the kernel's size parameters, the order in which an
// Evaluator takes their values.
func (c *Counted) Params() []string { return slices.Clone(c.params) }

// possibleNames lists every property that is non-zero at some
// parameters, as far as the structure of the kernel tells: the fixed
// ones, every class a strided access may fall in, and the minima of
// loads and stores of a type and class that both may have.
func (c *Counted) possibleNames() []string {
	seen := map[string]bool{}
	for _, g := range c.groups {
		if g.util < 0 {
			seen[g.name] = true
			continue
		}
		for num := int64(1); num <= c.utils[g.util].den; num++ {
			seen[g.nameAt(num)] = true
		}
	}
	for name := range seen {
		if rest, ok := strings.CutPrefix(name, "global.load."); ok && seen["global.store."+rest] {
			seen["global.minldst."+rest] = true
		}
	}
	return sortedKeys(seen)
}

// Eval returns the exact value of every non-zero property at the given
// parameter values, by name (see the package documentation). Every
// parameter of the kernel must be given, and no other name; the values
// must satisfy the kernel's assumptions. A count that does not fit in
// int64 is an error, never a wrong value.
func (c *Counted) Eval(params map[string]int64) (map[string]int64, error) {
	args, err := c.args(params)
	if err != nil {
		return nil, err
	}
	vals := make([]int64, len(c.names))
	if err := c.all.evalInts(args, vals); err != nil {
		return nil, err
	}
	out := map[string]int64{}
	for i, v := range vals {
		if v != 0 {
			out[c.names[i]] = v
		}
	}
	return out, nil
}

// args orders parameter values as Params does.
func (c *Counted) args(params map[string]int64) ([]int64, error) {
	args := make([]int64, len(c.params))
	for i, p := range c.params {
		v, ok := params[p]
		if !ok {
			return nil, errorf(c.k.File, Pos{}, "missing parameter %s (the kernel's parameters are %s)", p, listOrNone(c.params))
		}
		args[i] = v
	}
	for _, p := range sortedKeys(params) {
		if !slices.Contains(c.params, p) {
			return nil, errorf(c.k.File, Pos{}, "unknown parameter %s (the kernel's parameters are %s)", p, listOrNone(c.params))
		}
	}
	return args, nil
}
