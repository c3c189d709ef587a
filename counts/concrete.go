package counts

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// This file is the concrete domain engine: it evaluates the kernel's
// domains at fixed parameter values. It answers two questions exactly, by
// bounded enumeration: is a point (given values for some inames) in the
// projection of a domain onto those inames, and which values of further
// inames extend a point. Launch and the reference interpreter use it; the
// symbolic counts never do.

// cexpr is a qaff compiled to slot indices: inames take slots
// 0..len(k.Inames)-1, parameters the slots after them.
type cexpr struct {
	lin    []cterm
	floors []cfloor
	c      int64
}

type cterm struct {
	slot int
	coef int64
}

type cfloor struct {
	coef int64
	num  *cexpr
	den  int64
}

// eval computes the expression. bind's magnitude check guarantees that
// no intermediate value overflows for slot values within the domain's
// bounds.
func (e *cexpr) eval(v []int64) int64 {
	s := e.c
	for _, t := range e.lin {
		s += t.coef * v[t.slot]
	}
	for _, f := range e.floors {
		s += f.coef * floorDiv(f.num.eval(v), f.den)
	}
	return s
}

// interval bounds the expression without its linear term in slot skip
// (skip < 0 keeps everything), using exact values for known slots and box
// bounds for the others.
func (e *cexpr) interval(v []int64, known []bool, box []ival, skip int) ival {
	r := point(e.c)
	for _, t := range e.lin {
		if t.slot == skip {
			continue
		}
		x := box[t.slot]
		if known[t.slot] {
			x = point(v[t.slot])
		}
		r = addIval(r, scaleIval(x, t.coef))
	}
	for _, f := range e.floors {
		n := f.num.interval(v, known, box, -1)
		r = addIval(r, scaleIval(floorIval(n, f.den), f.coef))
	}
	return r
}

func (e *cexpr) coefOf(slot int) int64 {
	for _, t := range e.lin {
		if t.slot == slot {
			return t.coef
		}
	}
	return 0
}

func (e *cexpr) slots(dst []int) []int {
	for _, t := range e.lin {
		if !slices.Contains(dst, t.slot) {
			dst = append(dst, t.slot)
		}
	}
	for _, f := range e.floors {
		dst = f.num.slots(dst)
	}
	return dst
}

// bound is the magnitude bound of the expression given per-slot value
// magnitudes, or false when it reaches limit.
func (e *cexpr) bound(mag []uint64) (uint64, bool) {
	s := absU(e.c)
	add := func(coef int64, m uint64) bool {
		hi, lo := mulU(absU(coef), m)
		if hi != 0 || lo >= limit || s+lo >= limit {
			return false
		}
		s += lo
		return true
	}
	for _, t := range e.lin {
		if !add(t.coef, mag[t.slot]) {
			return 0, false
		}
	}
	for _, f := range e.floors {
		m, ok := f.num.bound(mag)
		if !ok || !add(f.coef, m) {
			return 0, false
		}
	}
	return s, true
}

type ccons struct {
	e     cexpr
	eq    bool
	slots []int
}

func (c *ccons) holds(v []int64) bool {
	x := c.e.eval(v)
	if c.eq {
		return x == 0
	}
	return x >= 0
}

// cconj is a compiled conjunction with the bounding box of its inames at
// the engine's parameters. A dead conjunction has no points.
type cconj struct {
	cons []ccons
	box  []ival
	dead bool
}

// cdomain is the intersection of some of the kernel's domains, compiled.
type cdomain struct {
	inames []int // slots, in domain order
	conjs  []*cconj
}

// engine binds variables (a kernel's inames, or the variables of a set
// being counted) and parameters to slots, with the parameters' values.
type engine struct {
	k          *Kernel // nil when counting a set that is not a kernel domain
	file       string
	varNames   []string // slots 0..len-1
	paramNames []string // the slots after them
	slot       map[string]int
	params     map[string]int64
	base       []int64 // slot values with the parameters filled in
	doms       map[string]*cdomain
	// ownMag holds, for each local iname's slot that runs over its own
	// range (Kernel.ownRange), the largest magnitude of that range: its
	// work-items take those values, which may lie outside the domain's
	// box, and overflow checks must allow them.
	ownMag map[int]uint64
	// budget bounds the number of candidate values the enumeration may
	// try; spending past it aborts with ErrTooLarge.
	budget int64
}

func (e *engine) spend() {
	e.budget--
	if e.budget < 0 {
		panic(runError{errorf(e.file, Pos{}, "%v (at %s)", ErrTooLarge, e.paramString())})
	}
}

// maxParam bounds parameter magnitudes for concrete evaluation.
const maxParam = 1 << 40

func newEngine(k *Kernel, params map[string]int64) (*engine, error) {
	for _, p := range k.Params {
		if _, ok := params[p]; !ok {
			return nil, errorf(k.File, Pos{}, "missing parameter %s (the kernel's parameters are %s)", p, strings.Join(k.Params, ", "))
		}
	}
	for _, p := range slices.Sorted(maps.Keys(params)) {
		if !slices.Contains(k.Params, p) {
			return nil, errorf(k.File, Pos{}, "unknown parameter %s (the kernel's parameters are %s)", p, listOrNone(k.Params))
		}
		if v := params[p]; v > maxParam || v < -maxParam {
			return nil, errorf(k.File, Pos{}, "parameter %s=%d is too large to evaluate concretely (limit ±2^40)", p, v)
		}
	}
	names := make([]string, len(k.Inames))
	for i, in := range k.Inames {
		names[i] = in.Name
	}
	e := newSetEngine(k.File, names, k.Params, params)
	e.k = k
	if !e.holdsParamsOnly(k.assume) {
		return nil, errorf(k.File, Pos{}, "parameters %s violate the assumptions %s", e.paramString(), k.Assumptions())
	}
	// The own ranges are compiled first, so that every domain compiled
	// after them knows their magnitudes.
	own := map[int]uint64{}
	for _, in := range k.Inames {
		if _, ok := k.ownRange(in.Name); !ok {
			continue
		}
		d, err := e.indexDomain(in.Name)
		if err != nil {
			return nil, err
		}
		s := e.slot[in.Name]
		for _, c := range d.conjs {
			if !c.dead {
				own[s] = max(own[s], c.box[s].magnitude())
			}
		}
	}
	e.ownMag = own
	return e, nil
}

// newSetEngine binds the given variables and parameters; params must hold
// every parameter's value.
func newSetEngine(file string, vars, paramNames []string, params map[string]int64) *engine {
	e := &engine{file: file, varNames: vars, paramNames: paramNames, slot: map[string]int{}, params: params,
		doms: map[string]*cdomain{}, budget: math.MaxInt64}
	for i, n := range vars {
		e.slot[n] = i
	}
	e.base = make([]int64, len(vars)+len(paramNames))
	for i, p := range paramNames {
		e.slot[p] = len(vars) + i
		e.base[len(vars)+i] = params[p]
	}
	return e
}

func (e *engine) paramString() string {
	parts := make([]string, len(e.paramNames))
	for i, p := range e.paramNames {
		parts[i] = p + "=" + strconv.FormatInt(e.params[p], 10)
	}
	return strings.Join(parts, ", ")
}

// holdsParamsOnly evaluates a parameter-only condition with checked
// arithmetic.
func (e *engine) holdsParamsOnly(d dnf) bool { return d.holds(e.params) }

func (e *engine) compile(a qaff) cexpr {
	c := cexpr{c: a.c}
	for _, t := range a.terms {
		c.lin = append(c.lin, cterm{e.slot[t.name], t.coef})
	}
	for _, f := range a.floors {
		num := e.compile(f.num)
		c.floors = append(c.floors, cfloor{f.coef, &num, f.den})
	}
	return c
}

// domain returns the compiled intersection of the domains relevant to
// inames, with bounding boxes at the engine's parameters.
func (e *engine) domain(inames []string) (*cdomain, error) {
	idx := e.k.relevantDomains(inames)
	key := fmt.Sprint(idx)
	if d, ok := e.doms[key]; ok {
		return d, nil
	}
	d := &cdomain{}
	set := dnf{conj{}}
	for _, i := range idx {
		if len(set)*len(e.k.Domains[i].set) > maxDisjuncts {
			return nil, errorf(e.k.File, e.k.Domains[i].pos, "the intersection of the domains has more than %d disjuncts", maxDisjuncts)
		}
		set = set.and(e.k.Domains[i].set)
		for _, n := range e.k.Domains[i].Inames {
			d.inames = append(d.inames, e.slot[n])
		}
	}
	return e.compileDomain(key, d, set)
}

// compileDomain compiles the conjunctions of set into d, whose inames are
// set, and keeps d under key.
func (e *engine) compileDomain(key string, d *cdomain, set dnf) (*cdomain, error) {
	for _, c := range set {
		cc, err := e.compileConj(c, d.inames)
		if err != nil {
			return nil, err
		}
		d.conjs = append(d.conjs, cc)
	}
	e.doms[key] = d
	return d, nil
}

// indexDomain returns the compiled set of the values that tagged iname x
// takes on its hardware axis (see Kernel.IndexDomain): its own range, or
// the domain relevant to it.
func (e *engine) indexDomain(x string) (*cdomain, error) {
	own, ok := e.k.ownRange(x)
	if !ok {
		return e.domain([]string{x})
	}
	key := "own " + x
	if d, ok := e.doms[key]; ok {
		return d, nil
	}
	return e.compileDomain(key, &cdomain{inames: []int{e.slot[x]}}, own)
}

// compileConj compiles a conjunction whose variables own must be bounded
// (other variables of the engine that it does not mention are free and
// irrelevant to it), and bounds them.
func (e *engine) compileConj(c conj, own []int) (*cconj, error) {
	cc := &cconj{cons: make([]ccons, 0, len(c))}
	for _, x := range c {
		ce := e.compile(x.e)
		cc.cons = append(cc.cons, ccons{e: ce, eq: x.eq, slots: ce.slots(nil)})
	}
	return cc, e.boxConj(cc, own)
}

// boxConj bounds each iname of the conjunction by interval propagation and
// checks that concrete evaluation cannot overflow. Variables outside
// inames get the box [0, 0]: the conjunction does not constrain them.
func (e *engine) boxConj(c *cconj, inames []int) error {
	c.box = make([]ival, len(e.base))
	known := make([]bool, len(e.base))
	for i := range c.box {
		c.box[i] = point(e.base[i])
	}
	for _, s := range inames {
		c.box[s] = unbounded
	}
	for _, s := range e.paramNames {
		known[e.slot[s]] = true
	}
	if c.dead = propagate(c, e.base, known, 4*(len(inames)+2)); c.dead {
		return nil
	}
	mag := make([]uint64, len(e.base))
	for _, s := range inames {
		if !c.box[s].bounded() {
			pos := Pos{}
			if e.k != nil {
				pos = e.k.Domains[e.k.Inames[s].Domain].pos
			}
			return errorf(e.file, pos, "the domain is unbounded in iname %s (at %s)%s", e.varNames[s], e.paramString(), boundHint(e.varNames[s]))
		}
	}
	for i := range c.box {
		m := c.box[i].magnitude()
		if !known[i] {
			m = 4*m + 4 // room for work-item indices beyond this iname's extent
			m = max(m, e.ownMag[i])
		}
		if m >= limit {
			return errorf(e.file, Pos{}, "domain values are too large to evaluate concretely (at %s)", e.paramString())
		}
		mag[i] = m
	}
	for _, x := range c.cons {
		if _, ok := x.e.bound(mag); !ok {
			return errorf(e.file, Pos{}, "domain arithmetic would overflow 64-bit integers (at %s)", e.paramString())
		}
	}
	return nil
}

// propagate narrows the box of each slot that is not known by the
// constraints of c, for at most rounds rounds or until nothing changes;
// v holds the values of the known slots. It reports whether c has no
// points.
func propagate(c *cconj, v []int64, known []bool, rounds int) (dead bool) {
	for range rounds {
		changed := false
		for i := range c.cons {
			x := &c.cons[i]
			if len(x.slots) == 0 || allKnown(x.slots, known) {
				if !x.holds(v) {
					return true
				}
				continue
			}
			for _, t := range x.e.lin {
				if known[t.slot] {
					continue
				}
				b := boundFrom(x, t.slot, t.coef, v, known, c.box)
				nb := c.box[t.slot].intersect(b)
				if nb.empty() {
					return true
				}
				if nb != c.box[t.slot] {
					c.box[t.slot] = nb
					changed = true
				}
			}
		}
		if !changed {
			return false
		}
	}
	return false
}

func allKnown(slots []int, known []bool) bool {
	for _, s := range slots {
		if !known[s] {
			return false
		}
	}
	return true
}

// boundFrom derives the interval a constraint allows for slot (whose
// linear coefficient is a) given the other slots.
func boundFrom(x *ccons, slot int, a int64, v []int64, known []bool, box []ival) ival {
	rest := x.e.interval(v, known, box, slot)
	if rest.hi == math.MinInt64 || rest.lo == math.MinInt64 {
		return unbounded // cannot be negated; only loosens the bound
	}
	r := unbounded
	// a*s + rest >= 0  (or = 0)
	if a > 0 {
		if !rest.hiInf {
			r.lo, r.loInf = ceilDiv(-rest.hi, a), false
		}
		if x.eq && !rest.loInf {
			r.hi, r.hiInf = floorDiv(-rest.lo, a), false
		}
		return r
	}
	if !rest.hiInf {
		r.hi, r.hiInf = floorDiv(rest.hi, -a), false
	}
	if x.eq && !rest.loInf {
		r.lo, r.loInf = ceilDiv(rest.lo, -a), false
	}
	return r
}

// runError aborts a run or an enumeration; recoverRun turns it into the
// function's error.
type runError struct{ err error }

func recoverRun(err *error) {
	if r := recover(); r != nil {
		re, ok := r.(runError)
		if !ok {
			panic(r)
		}
		*err = re.err
	}
}
