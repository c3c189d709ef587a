package counts

import (
	"maps"
	"slices"
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
	// fixed holds the parameter values of a count at fixed parameters
	// (see CountWithAt), the only ones it evaluates at; nil otherwise.
	fixed  map[string]int64
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
	// hierarchy counts the memory-hierarchy counts on demand.
	hierarchy func() ([]countedHierarchy, error)
	// iterFootprints counts the per-iteration footprints on demand.
	iterFootprints func() (*iterCounts, error)
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
	store, readOnly bool
	dtype           DType
	stride          int64
	array           string
}

// nameAt names the property of a group whose class numerator is num.
func (g *group) nameAt(num int64) string {
	if g.util < 0 {
		return g.name
	}
	return globalProperty(g.acc.store, g.acc.readOnly, g.acc.dtype, g.acc.stride, num)
}

// util is the utilization of an array's footprint, which decides the
// class numerator of its accesses of stride 2 and more: round(den ×
// cells / filled), at least 1.
type util struct {
	array       string
	den         int64
	cells, fill int // indices into values
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

// UpperBound reports whether the count of a property is an upper bound
// rather than exact: some of what it counts happens under a condition
// that is not affine in the inames and parameters (one that reads an
// array or a temporary, say), and is counted as if the condition always
// held. The values of such a property may exceed what a run performs.
func (c *Counted) UpperBound(name string) bool { return c.upper[name] }

// Bounds lists, sorted, the properties whose counts are upper bounds
// (see UpperBound).
func (c *Counted) Bounds() []string { return slices.Sorted(maps.Keys(c.upper)) }

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
	for _, p := range slices.Sorted(maps.Keys(params)) {
		if !slices.Contains(c.params, p) {
			return nil, errorf(c.k.File, Pos{}, "unknown parameter %s (the kernel's parameters are %s)", p, listOrNone(c.params))
		}
	}
	if c.fixed != nil && !maps.Equal(params, c.fixed) {
		return nil, c.fixedErr("evaluated at " + paramText(c.params, params))
	}
	return args, nil
}

// fixedErr says that c, counted at fixed parameters, cannot be what.
func (c *Counted) fixedErr(what string) error {
	return errorf(c.k.File, Pos{}, "kernel %s was counted at %s only and cannot be %s; count it with CountWith", c.k.Name, paramText(c.params, c.fixed), what)
}

// symbolic returns an error where c was counted at fixed parameters, whose
// counts are no functions of the parameters to be what.
func (c *Counted) symbolic(what string) error {
	if c.fixed == nil {
		return nil
	}
	return c.fixedErr(what)
}
