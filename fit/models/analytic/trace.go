package analytic

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"
	"sync"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/resios"
	"github.com/uniperf/uniperf/polyhedra"
)

// Trace is a launch seen as the average work of one work-item, region by
// region in program order: the instruction stream that the analytical
// models of seeds 000 and 003 price per warp. It is derived from the same
// kernel IR as the counts, and Σ Count × (its operations and accesses) ×
// work-items reproduces the kernel's property totals (fit/models tests
// check this against counts.Eval) for kernels without conditions.
//
// Conditional code is priced as a warp runs it under SIMT: a predicated
// statement as if every work-item executed it, both branches of a
// conditional value, and the predicate's own operations. Where counts
// are exact over an affine condition, the trace is thus an upper bound,
// as counts are for conditions on data.
type Trace struct {
	Regions []Region
}

// Region is one straight-line piece of a kernel statement: an
// instruction's expression outside reductions, the body of one of its
// reductions, or a barrier. Its instructions run Count times per
// work-item, and share one instruction-level parallelism (seed 000 (6.1)).
type Region struct {
	// Name identifies the region: the statement's id and position, and
	// for a reduction body its inames, e.g. "insn_5 (31:1) sum(k_in)".
	Name string
	// Count is the region's executions per work-item launched: executions
	// over all work-items (the domain projected onto the statement's
	// inames, times the launch size of every hardware axis none of them
	// is tagged with) divided by the work-items.
	Count float64
	// ILP is instructions over the longest dependency chain of the
	// region's data-flow graph, loads, stores and operations counted.
	ILP float64
	// Ops are the region's compute operations per execution by class
	// (see OpClass), in first-appearance order.
	Ops []OpCount
	// Accesses are the region's global and local memory accesses, one
	// per array reference, per execution.
	Accesses []Access
	// Barrier marks a barrier statement, which has no operations.
	Barrier bool
}

// OpCount is a number of operations of one class.
type OpCount struct {
	Class string
	N     int
}

// Access is one array reference of a region.
type Access struct {
	// Name is "load a[i, k] (12:5)" or "store c[i, j] (12:1)".
	Name  string
	Array *counts.Array
	Store bool
	// Offsets are the element offsets, relative to the first work-item's,
	// of the elements the first warp's work-items access: work-item q of
	// the group (linear local id, axis 0 fastest) for q below the warp
	// size. Nil when an offset does not fit in int64 (the worst case is
	// then assumed).
	Offsets []int64
}

// Ops classes. A class is the operation's type and kind as in the
// property names of package counts ("f32.add", "i32.mul"), or "f32.fma"
// (and "f64.fma") for a multiplication whose result only an addition or
// subtraction uses: GPU compilers fuse the two into one multiply-add, and
// Resios's §7.1 blames its unfused madd for a 2.12× over-prediction.
const fmaKind = "fma"

// OpClass names the class of an operation of kind at type t.
func OpClass(t counts.DType, kind string) string { return t.String() + "." + kind }

// Tracer derives traces and caches the point counts it needs: one
// symbolic count per kernel and set of inames.
type Tracer struct {
	mu    sync.Mutex
	cards map[cardKey]*polyhedra.PwQPolynomial
}

type cardKey struct {
	k      *counts.Kernel
	inames string
}

// Traced gives a model the tracer of its kernels, made on first use.
type Traced struct{ tr *Tracer }

func (t *Traced) Tracer() *Tracer {
	if t.tr == nil {
		t.tr = NewTracer()
	}
	return t.tr
}

func NewTracer() *Tracer { return &Tracer{cards: map[cardKey]*polyhedra.PwQPolynomial{}} }

// card is the number of points of the kernel domain projected onto
// inames, at params.
func (t *Tracer) card(k *counts.Kernel, inames []string, params map[string]int64) (int64, error) {
	key := cardKey{k, strings.Join(inames, ",")}
	t.mu.Lock()
	q, ok := t.cards[key]
	t.mu.Unlock()
	if !ok {
		s, err := polyhedra.ParseSet(k.ProjectedDomain(inames))
		if err != nil {
			return 0, fmt.Errorf("kernel %s: domain of %v: %w", k.Name, inames, err)
		}
		if q, err = s.Card(); err != nil {
			return 0, fmt.Errorf("kernel %s: counting the domain of %v: %w", k.Name, inames, err)
		}
		t.mu.Lock()
		t.cards[key] = q
		t.mu.Unlock()
	}
	v, err := q.Eval(params)
	if err != nil {
		return 0, fmt.Errorf("kernel %s: domain of %v: %w", k.Name, inames, err)
	}
	if !v.IsInt64() {
		return 0, fmt.Errorf("kernel %s: the domain of %v has more than 2^63 points", k.Name, inames)
	}
	return v.Int64(), nil
}

// Trace derives the trace of a launch at params for a warp of warpSize
// work-items.
func (t *Tracer) Trace(in *models.Inputs, params map[string]int64, warpSize int) (*Trace, error) {
	if warpSize <= 0 {
		return nil, fmt.Errorf("warp size must be positive, have %d", warpSize)
	}
	b := &traceBuilder{t: t, in: in, params: params, warp: warpSize}
	for _, s := range in.Kernel.Statements {
		var err error
		switch s := s.(type) {
		case *counts.Instruction:
			err = b.instruction(s)
		case *counts.Barrier:
			err = b.barrier(s)
		}
		if err != nil {
			return nil, err
		}
	}
	return &Trace{Regions: b.regions}, nil
}

type traceBuilder struct {
	t       *Tracer
	in      *models.Inputs
	params  map[string]int64
	warp    int
	regions []Region
}

// perItem is the executions per work-item of something that runs once
// per point of the domain projected onto inames, redundantly along the
// hardware axes none of them is tagged with (all axes for a barrier).
func (b *traceBuilder) perItem(inames []string, allAxes bool) (float64, error) {
	n, err := b.t.card(b.in.Kernel, inames, b.params)
	if err != nil {
		return 0, err
	}
	total := float64(n)
	for kind := range 2 {
		for a := range 3 {
			if !allAxes && usesAxis(b.in.Kernel, inames, kind, a) {
				continue
			}
			if !hasAxis(b.in.Kernel, kind, a) {
				continue
			}
			if kind == 0 {
				total *= float64(b.in.Global[a] / b.in.Local[a])
			} else {
				total *= float64(b.in.Local[a])
			}
		}
	}
	return total / float64(b.in.WorkItems()), nil
}

// tagKind returns the hardware tag kind of t: 0 for groups, 1 for
// work-items, -1 for a sequential iname.
func tagKind(t counts.Tag) int {
	switch t.Kind {
	case counts.Group:
		return 0
	case counts.LocalID:
		return 1
	}
	return -1
}

func usesAxis(k *counts.Kernel, inames []string, kind, a int) bool {
	for _, n := range inames {
		if t := k.Iname(n).Tag; tagKind(t) == kind && t.Axis == a {
			return true
		}
	}
	return false
}

func hasAxis(k *counts.Kernel, kind, a int) bool {
	for _, in := range k.Inames {
		if tagKind(in.Tag) == kind && in.Tag.Axis == a {
			return true
		}
	}
	return false
}

func (b *traceBuilder) barrier(s *counts.Barrier) error {
	n, err := b.perItem(s.Inames, true)
	if err != nil {
		return err
	}
	b.regions = append(b.regions, Region{Name: fmt.Sprintf("%s (%s)", s.ID, s.Pos), Count: n, ILP: 1, Barrier: true})
	return nil
}

// instruction adds the regions of an instruction: its reductions' bodies,
// innermost last, then its own expression with the store.
func (b *traceBuilder) instruction(s *counts.Instruction) error {
	name := fmt.Sprintf("%s (%s)", s.ID, s.Pos)
	var regions []*dag
	outer := &dag{name: name, inames: s.Within}
	regions = append(regions, outer)
	var walk func(g *dag, e counts.Expr) (int, error)
	walk = func(g *dag, e counts.Expr) (int, error) {
		return b.node(g, e, s, &regions, walk)
	}
	root, err := walk(outer, s.RHS)
	if err != nil {
		return err
	}
	if s.Pred != nil {
		// A predicated statement is priced as if every warp executed
		// it: under SIMT a warp in which some work-item's predicate
		// holds does.
		pred, err := walk(outer, s.Pred)
		if err != nil {
			return err
		}
		root = outer.add(root, pred)
	}
	if sp := s.LHS.Array.Space; sp == counts.Global || sp == counts.Local {
		deps := []int{}
		if root >= 0 {
			deps = append(deps, root)
		}
		if err := b.access(outer, s, s.LHS, true, deps); err != nil {
			return err
		}
	}
	// Reductions first: the body runs before the expression that uses
	// its result.
	for _, g := range append(regions[1:], regions[0]) {
		if len(g.deps) == 0 {
			continue
		}
		r, err := g.region(b, s)
		if err != nil {
			return err
		}
		b.regions = append(b.regions, r)
	}
	return nil
}

// dag is the data-flow graph of one region under construction.
type dag struct {
	name     string
	inames   []string // the inames the region executes in
	deps     [][]int
	ops      []OpCount
	accesses []Access
}

func (g *dag) add(deps ...int) int {
	var d []int
	for _, x := range deps {
		if x >= 0 {
			d = append(d, x)
		}
	}
	g.deps = append(g.deps, d)
	return len(g.deps) - 1
}

func (g *dag) op(class string, deps ...int) int {
	for i := range g.ops {
		if g.ops[i].Class == class {
			g.ops[i].N++
			return g.add(deps...)
		}
	}
	g.ops = append(g.ops, OpCount{Class: class, N: 1})
	return g.add(deps...)
}

func (g *dag) region(b *traceBuilder, s *counts.Instruction) (Region, error) {
	n, err := b.perItem(g.inames, false)
	if err != nil {
		return Region{}, err
	}
	ilp, err := resios.ILP(resios.DAG{Deps: g.deps})
	if err != nil {
		return Region{}, fmt.Errorf("%s: %w", g.name, err)
	}
	return Region{Name: g.name, Count: n, ILP: ilp, Ops: g.ops, Accesses: g.accesses}, nil
}

// node adds expression e to g and returns its node, or -1 for a value
// that needs no instruction (a literal, an index, a register).
func (b *traceBuilder) node(g *dag, e counts.Expr, s *counts.Instruction, regions *[]*dag,
	walk func(*dag, counts.Expr) (int, error)) (int, error) {
	switch e := e.(type) {
	case *counts.Literal, *counts.Index:
		return -1, nil
	case *counts.Cast:
		return walk(g, e.X)
	case *counts.Neg:
		return walk(g, e.X)
	case *counts.Not:
		return walk(g, e.X)
	case *counts.BitNot:
		x, err := walk(g, e.X)
		if err != nil {
			return 0, err
		}
		return g.op(opClass(e), x), nil
	case *counts.Compare:
		return b.joined(g, walk, e.X, e.Y)
	case *counts.Logic:
		return b.joined(g, walk, e.X, e.Y)
	case *counts.Conditional:
		// A warp whose work-items disagree on the condition runs both
		// branches, one after the other (SIMT), so both are priced.
		return b.joined(g, walk, e.Cond, e.Then, e.Else)
	case *counts.Access:
		if sp := e.Array.Space; sp == counts.Private || sp == counts.Argument {
			return -1, nil
		}
		id := len(g.deps)
		return id, b.access(g, s, e, false, nil)
	case *counts.Call:
		var deps []int
		for _, a := range e.Args {
			d, err := walk(g, a)
			if err != nil {
				return 0, err
			}
			deps = append(deps, d)
		}
		return g.op(opClass(e), deps...), nil
	case *counts.Binary:
		return b.binary(g, e, walk)
	case *counts.Reduce:
		body := &dag{name: fmt.Sprintf("%s %s(%s)", g.name, e.Op, strings.Join(e.Inames, ",")),
			inames: append(append([]string{}, g.inames...), e.Inames...)}
		*regions = append(*regions, body)
		if m, ok := fusable(e.Op == counts.RedSum, e.Body); ok {
			x, err := walk(body, m.X)
			if err != nil {
				return 0, err
			}
			y, err := walk(body, m.Y)
			if err != nil {
				return 0, err
			}
			body.op(OpClass(e.T, fmaKind), x, y)
		} else {
			root, err := walk(body, e.Body)
			if err != nil {
				return 0, err
			}
			body.op(opClass(e), root)
		}
		// The reduction's result is a register of the enclosing region.
		return -1, nil
	}
	return 0, fmt.Errorf("statement %s: unknown expression %T", s.ID, e)
}

// joined walks es and returns a node that depends on all of them and
// costs nothing: comparisons, conditions and the choice of a value are
// free, as in package counts, but what they use must be ready first.
func (b *traceBuilder) joined(g *dag, walk func(*dag, counts.Expr) (int, error), es ...counts.Expr) (int, error) {
	deps := make([]int, len(es))
	for i, e := range es {
		var err error
		if deps[i], err = walk(g, e); err != nil {
			return 0, err
		}
	}
	return g.add(deps...), nil
}

// binary adds a binary operation, fusing a multiplication into the
// addition or subtraction that is its only use.
func (b *traceBuilder) binary(g *dag, e *counts.Binary, walk func(*dag, counts.Expr) (int, error)) (int, error) {
	if e.Op == counts.OpAdd || e.Op == counts.OpSub {
		for i, side := range []counts.Expr{e.X, e.Y} {
			m, ok := fusable(true, side)
			if !ok || m.T != e.T {
				continue
			}
			other := e.Y
			if i == 1 {
				other = e.X
			}
			var deps []int
			for _, x := range []counts.Expr{m.X, m.Y, other} {
				d, err := walk(g, x)
				if err != nil {
					return 0, err
				}
				deps = append(deps, d)
			}
			return g.op(OpClass(e.T, fmaKind), deps...), nil
		}
	}
	x, err := walk(g, e.X)
	if err != nil {
		return 0, err
	}
	y, err := walk(g, e.Y)
	if err != nil {
		return 0, err
	}
	return g.op(opClass(e), x, y), nil
}

// fusable returns e as a floating-point multiplication when an addition
// may absorb it.
func fusable(additive bool, e counts.Expr) (*counts.Binary, bool) {
	m, ok := e.(*counts.Binary)
	if !additive || !ok || m.Op != counts.OpMul || !m.T.IsFloat() {
		return nil, false
	}
	return m, true
}

// opClass is the class of the operation node e performs, as package
// counts classifies it.
func opClass(e counts.Expr) string {
	op, _ := counts.OpOf(e)
	return OpClass(op.DType, op.Kind.String())
}

// ErrDataAddressed is the error of tracing a kernel with gathers,
// scatters or atomics: the analytical models place a warp's accesses by
// their subscripts' coefficients, and these have data for subscripts.
var ErrDataAddressed = errors.New("the analytic models place each warp's accesses by their subscripts' coefficients")

// access adds a global or local array reference to g.
func (b *traceBuilder) access(g *dag, s *counts.Instruction, a *counts.Access, store bool, deps []int) error {
	dir := "load"
	if store {
		dir = "store"
	}
	if a.IsIndirect() || store && s.Atomic {
		return fmt.Errorf("%s (%s): %w, and this one is %s: predict the kernel with the linear model (--model linear), whose indirect and atomic properties the measurement classes price", s.ID, a.At, ErrDataAddressed, map[bool]string{true: "atomic", false: "indirect (its subscripts read data)"}[store && s.Atomic])
	}
	acc := Access{Name: fmt.Sprintf("%s %s (%s)", dir, a, a.At), Array: a.Array, Store: store}
	offs, err := b.warpOffsets(s, a)
	if err != nil {
		return err
	}
	acc.Offsets = offs
	g.accesses = append(g.accesses, acc)
	g.add(deps...)
	return nil
}

// warpOffsets computes the element offsets of the first warp's accesses
// relative to work-item 0's. Work-item q of a group has local ids
// (q mod L0, q/L0 mod L1, q/(L0·L1)); along axis a the access moves by
// the coefficient, in the flattened index, of the statement's iname
// tagged l.a. Inames the statement does not run in along an axis (work
// done redundantly) do not move it.
func (b *traceBuilder) warpOffsets(s *counts.Instruction, a *counts.Access) ([]int64, error) {
	strides, ok, err := flatStrides(a.Array, b.params)
	if err != nil || !ok {
		return nil, err
	}
	var coef [3]int64
	for _, n := range s.Within {
		t := b.in.Kernel.Iname(n).Tag
		if t.Kind != counts.LocalID {
			continue
		}
		for d, ix := range a.Index {
			k, err := ix.CoeffOf(n).Eval(b.params)
			if err != nil {
				return nil, nil
			}
			c, ok := mulAdd(coef[t.Axis], k, strides[d])
			if !ok {
				return nil, nil
			}
			coef[t.Axis] = c
		}
	}
	warp := int64(min(int64(b.warp), b.in.GroupSize()))
	l0, l1 := b.in.Local[0], b.in.Local[1]
	offs := make([]int64, warp)
	for q := range warp {
		ids := [3]int64{q % l0, q / l0 % l1, q / (l0 * l1)}
		var o int64
		for ax := range 3 {
			var ok bool
			if o, ok = mulAdd(o, coef[ax], ids[ax]); !ok {
				return nil, nil
			}
		}
		offs[q] = o
	}
	return offs, nil
}

// flatStrides returns the element stride of each dimension of an array at
// params (row-major, or column-major for order=F arrays); ok is false
// when one does not fit in int64.
func flatStrides(a *counts.Array, params map[string]int64) ([]int64, bool, error) {
	extents := make([]int64, len(a.Shape))
	for d, e := range a.Shape {
		v, err := e.Eval(params)
		if err != nil {
			if errors.Is(err, polyhedra.ErrOverflow) {
				return nil, false, nil
			}
			return nil, false, fmt.Errorf("array %s: extent: %w", a.Name, err)
		}
		extents[d] = v
	}
	strides := make([]int64, len(extents))
	s := int64(1)
	for i := range extents {
		d := len(extents) - 1 - i
		if a.ColMajor {
			d = i
		}
		strides[d] = s
		var ok bool
		if s, ok = mulAdd(0, s, extents[d]); !ok {
			// Only the strides already assigned are needed when this
			// is the outermost dimension.
			if i == len(extents)-1 {
				break
			}
			return nil, false, nil
		}
	}
	return strides, true, nil
}

// mulAdd returns acc + x·y and whether it fits in int64.
func mulAdd(acc, x, y int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(abs(x)), uint64(abs(y)))
	if hi != 0 || lo > 1<<62 {
		return 0, false
	}
	p := int64(lo)
	if (x < 0) != (y < 0) {
		p = -p
	}
	s := acc + p
	if (p > 0 && s < acc) || (p < 0 && s > acc) {
		return 0, false
	}
	return s, true
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// Trace derives the trace of a launch for warps of warpSize work-items,
// as the resios and xu models see it.
func TraceOf(e *models.Env, c models.Case, warpSize int) (*Trace, error) {
	in, err := e.Inputs(c)
	if err != nil {
		return nil, err
	}
	return NewTracer().Trace(in, c.Params, warpSize)
}
