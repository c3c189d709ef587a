package counts

import (
	"fmt"
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
	plan   *plan // kept for footprints, counted on demand
	params []string
	values []*polyhedra.PwQPolynomial // the counted quantities; see value
	gisted []*polyhedra.PwQPolynomial // values where the assumptions hold
	// assumedMax holds the launch sizes that are known only where the
	// assumptions hold until value needs them (see plan.startMax).
	assumedMax map[int]*polyhedra.PwQPolynomial
	valuesMu   sync.Mutex
	// assumed is 1 where the parameters satisfy the assumptions, else 0.
	assumed *polyhedra.PwQPolynomial
	groups  []group
	utils   []util
	names   []string        // every property that can be non-zero, sorted
	upper   map[string]bool // properties whose counts are upper bounds
	all     *Evaluator      // evaluates names, for Eval
	// sums holds each group's terms summed into one function, formed on
	// demand: evaluation does not need them.
	sums func() ([]*polyhedra.PwQPolynomial, error)
	// footprints counts the footprints on demand.
	footprints func() ([]countedFootprint, error)
	// products caches the products of values that sums form, by factors.
	productsMu sync.Mutex
	products   map[string]*polyhedra.PwQPolynomial
}

// group is a sum of terms that belongs to one property: a static
// property, or the global accesses of one direction, type and stride
// (and array, for strides whose class depends on utilization).
type group struct {
	name  string // the property, when its class is fixed
	util  int    // index into Counted.utils, or -1 when name is fixed
	acc   accessKind
	terms []prodTerm
	upper bool // some term counts under a condition that is not affine
	// assumed holds, for accesses whose stride depends on the
	// parameters, the conditions under which their class >4 is theirs
	// ("ny > 4"): the class stays >4 at every size.
	assumed []string
	// parts holds the terms as they were planned, each with its source,
	// for breakdowns; terms merges those with the same factors.
	parts []sourcedTerm
}

// sourcedTerm is a term of a group and where it comes from.
type sourcedTerm struct {
	prodTerm
	src source
}

// sourced pairs counted terms with the plan terms they were counted
// from.
func sourced(ts []prodTerm, planned []term) []sourcedTerm {
	out := make([]sourcedTerm, len(ts))
	for i, t := range ts {
		out[i] = sourcedTerm{t, planned[i].src}
	}
	return out
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
func Count(k *Kernel) (*Counted, error) { return CountWith(k, Options{}) }

// CountWith counts every property of k symbolically, as Count does, with
// options.
func CountWith(k *Kernel, opts Options) (*Counted, error) {
	if opts.Banks < 0 || opts.Banks > maxBanks || opts.BankBytes < 0 || opts.BankBytes > 16 {
		return nil, fmt.Errorf("counting kernel %s: %d local-memory banks of %d bytes: want 1 to %d banks of 1 to 16 bytes (0: the default)", k.Name, opts.Banks, opts.BankBytes, maxBanks)
	}
	p, err := newCountingPlan(k, opts)
	if err != nil {
		return nil, err
	}
	b := &counter{p: p, c: &Counted{k: k, plan: p, params: slices.Clone(k.Params), assumedMax: map[int]*polyhedra.PwQPolynomial{}}, set: map[int]int{}, max: map[string]int{}}
	b.unit = p.add(&uset{pieces: []piece{{}}})
	if err := b.count(); err != nil {
		e := errorf(k.File, Pos{}, "counting kernel %s: %v", k.Name, err)
		e.Err = err
		return nil, e
	}
	p.eager = false // sets the plan registers from now on are footprints
	c := b.c
	if err = c.gist(); err != nil {
		return nil, errorf(k.File, Pos{}, "counting kernel %s: %v", k.Name, err)
	}
	c.names = c.possibleNames()
	c.upper = c.upperBounds()
	c.sums = sync.OnceValues(c.groupSums)
	c.footprints = sync.OnceValues(c.countFootprints)
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
	var err error
	if c.assumed, err = c.plan.ctx.Card(); err != nil {
		return err
	}
	for i, v := range c.values {
		if c.gisted[i] != nil {
			continue
		}
		if c.gisted[i], err = v.Gist(c.plan.ctx); err != nil {
			return err
		}
	}
	return nil
}

// value returns counted quantity i. A launch size that is known only
// where the assumptions hold is zero elsewhere, as the counts of its sets
// are: it is formed, once, as that function times the assumptions'
// indicator.
func (c *Counted) value(i int) (*polyhedra.PwQPolynomial, error) {
	c.valuesMu.Lock()
	defer c.valuesMu.Unlock()
	if c.values[i] == nil {
		v, err := c.assumedMax[i].Mul(c.assumed)
		if err != nil {
			return nil, err
		}
		c.values[i] = v
	}
	return c.values[i], nil
}

// Params returns the kernel's size parameters, the order in which an
// Evaluator takes their values.
func (c *Counted) Params() []string { return slices.Clone(c.params) }

// Names lists, sorted, every property that may be non-zero at some
// parameters, as far as the structure of the kernel tells; the others are
// zero everywhere.
func (c *Counted) Names() []string { return slices.Clone(c.names) }

// Kernel returns the kernel that was counted.
func (c *Counted) Kernel() *Kernel { return c.k }

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

// upperBounds lists the properties that some group counted under a
// condition that is not affine: every name its class may take, and the
// minima of loads and stores that involve one.
func (c *Counted) upperBounds() map[string]bool {
	up := map[string]bool{}
	for _, g := range c.groups {
		if !g.upper {
			continue
		}
		if g.util < 0 {
			up[g.name] = true
			continue
		}
		for num := int64(1); num <= c.utils[g.util].den; num++ {
			up[g.nameAt(num)] = true
		}
	}
	for _, name := range c.names {
		if rest, ok := strings.CutPrefix(name, "global.minldst."); ok && (up["global.load."+rest] || up["global.store."+rest]) {
			up[name] = true
		}
	}
	return up
}

// UpperBound reports whether the count of a property is an upper bound
// rather than exact: some of what it counts happens under a condition
// that is not affine in the inames and parameters (one that reads an
// array or a temporary, say), and is counted as if the condition always
// held. The values of such a property may exceed what a run performs.
func (c *Counted) UpperBound(name string) bool { return c.upper[name] }

// Bounds lists, sorted, the properties whose counts are upper bounds
// (see UpperBound).
func (c *Counted) Bounds() []string { return sortedKeys(c.upper) }

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
