package hierarchy

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/fit/models"
)

// RegChainPrefix starts the features of Config.RegChain:
// chain.private.<type> counts the steps of the dependence chains that
// a value carries through a register from one iteration of a sequential
// loop to the next: each point of a reduction's body (the operator waits
// on the running value) and each execution of an instruction that
// assigns a private temporary from its own value (RegisterChains).
// Where that instruction assigns the cells of a private array along an
// unrolled (unr or ilp) loop nested inside the loop that carries them,
// acc[j] = acc[j]*c + d over l with j unrolled inside l, its cells are
// independent chains whose steps interleave, and only the chain through
// the first cell (each lane iname at its first value, whatever else the
// subscript adds) is counted: the steps a work-item waits on, not every
// operation of its chains (Lanes).
const RegChainPrefix = "chain.private."

// ScalarChainPrefix starts the features of Config.ScalarChain:
// chain.scalar.<type> counts the steps of RegChainPrefix's chains that
// PoCL runs one work-item at a time through one accumulator, each step
// waiting on the latency of the one before it. A step counts where its
// instruction runs one work-item at a time (Scalar: in a sequential
// loop without a barrier, or a reduction) and its chain is the only
// one: the instruction's Lanes each hold one value (reg_chain's K = 1,
// not K = 2 to 8), no other private is carried through the same loop
// (sharedChains), and the reduction is over some iname that is not
// unrolled (a sum over unr or ilp inames alone is straight-line code,
// no loop of its own; a reduction over an unrolled iname and a
// sequential one is still a loop through one accumulator).
const ScalarChainPrefix = "chain.scalar."

// chainSet names which register chains the skeletons count, and the
// features' prefix: every chain (Config.RegChain) or the scalar ones of
// a single accumulator (Config.ScalarChain), with those of at most lanes
// guarded lanes (Config.GuardedLanes; 0: none).
type chainSet struct {
	prefix string
	scalar bool
	lanes  int64
}

var (
	allChains    = chainSet{RegChainPrefix, false, 0}
	scalarChains = chainSet{ScalarChainPrefix, true, 0}
)

// RegisterChains returns, by statement ID, the element type of each
// instruction of k that carries a value through a private temporary
// from one iteration of an enclosing sequential loop to a later one: it
// assigns the temporary from its own value (t = t + ..., cn_pnpoly's
// c = if(c == 0, 1, 0)), read at the same cell or at the cell of an
// earlier iteration, and no statement before it in the loop's body
// assigns the temporary first (then the value it reads is the same
// iteration's). A reduction is such a chain in any instruction; it is
// counted by its points, not listed here.
func RegisterChains(k *counts.Kernel) map[string]counts.DType {
	out := map[string]counts.DType{}
	// walk returns the private arrays that nodes assign.
	var walk func(nodes []counts.Node, loops []string) map[*counts.Array]bool
	walk = func(nodes []counts.Node, loops []string) map[*counts.Array]bool {
		assigned := map[*counts.Array]bool{}
		for _, n := range nodes {
			switch n := n.(type) {
			case *counts.Loop:
				maps.Copy(assigned, walk(n.Body, append(loops[:len(loops):len(loops)], n.Iname)))
			case *counts.Instruction:
				lhs := n.LHS.Array
				if lhs.Space != counts.Private {
					continue
				}
				if !assigned[lhs] && readsOwn(n, loops) {
					out[n.StatementID()] = lhs.DType
				}
				assigned[lhs] = true
			}
		}
		return assigned
	}
	walk(k.Schedule, nil)
	return out
}

// readsOwn reports whether s reads the cell it assigns, or the cell it
// assigned at an earlier iteration of one of loops.
func readsOwn(s *counts.Instruction, loops []string) bool {
	if len(loops) == 0 || s.LHS.IsIndirect() {
		return false
	}
	found := false
	for _, e := range []counts.Expr{s.RHS, s.Pred} {
		if e == nil {
			continue
		}
		counts.Walk(e, func(e counts.Expr) bool {
			a, ok := e.(*counts.Access)
			if ok && a.Array == s.LHS.Array && !a.IsIndirect() && len(a.Index) == len(s.LHS.Index) {
				for _, l := range loops {
					found = found || earlier(s.LHS.Index, a.Index, l)
				}
			}
			return !found
		})
	}
	return found
}

// The two kernels whose difference counts a kernel's register chain
// steps: in with, each instruction's value keeps only its reductions
// (their bodies emptied) and, for a RegisterChains instruction, one
// operation of its type; in without, neither. Both keep every
// instruction's predicate, left-hand side and the conditions around
// its reductions, so that only the chain steps differ.
type regSkeletons struct {
	with, without *counts.Kernel
	// counted are the symbolic counts of with and without; nil where
	// they exceed the counting budget, and then each launch counts at
	// its sizes.
	counted [2]*counts.Counted
	none    bool // no reduction and no register chain
	err     error
}

var regSkeletonCache sync.Map // skeletonKey -> *regSkeletons

type skeletonKey struct {
	k   *counts.Counted
	set chainSet
}

// skeletonsOf returns k's skeletons of the chains of set, built and
// counted once per kernel.
func skeletonsOf(k *counts.Counted, set chainSet) *regSkeletons {
	key := skeletonKey{k, set}
	if s, ok := regSkeletonCache.Load(key); ok {
		return s.(*regSkeletons)
	}
	s := buildSkeletons(k.Kernel(), set)
	if s.err == nil && !s.none {
		for i, sk := range []*counts.Kernel{s.with, s.without} {
			if c, err := counts.Count(sk); err == nil {
				s.counted[i] = c
			}
		}
	}
	got, _ := regSkeletonCache.LoadOrStore(key, s)
	return got.(*regSkeletons)
}

func buildSkeletons(k *counts.Kernel, set chainSet) *regSkeletons {
	chains := RegisterChains(k)
	var scalar, shared map[string]bool
	keep := func(*counts.Reduce) bool { return true }
	if set.scalar {
		scalar, shared = Scalar(k), sharedChains(k, chains)
		keep = loopReduce(k)
	}
	with, without := map[string]*counts.Instruction{}, map[string]*counts.Instruction{}
	found := false
	for _, st := range k.Statements {
		in, ok := st.(*counts.Instruction)
		if !ok {
			continue
		}
		if in.Pred != nil && containsReduce(in.Pred) {
			return &regSkeletons{err: fmt.Errorf("register chains: instruction %s: a reduction in a predicate is not counted", in.ID)}
		}
		w, err := skeleton(in.RHS, true, keep)
		if err != nil {
			return &regSkeletons{err: fmt.Errorf("register chains: instruction %s: %w", in.ID, err)}
		}
		wo, _ := skeleton(in.RHS, false, keep)
		counted := !set.scalar || scalar[in.StatementID()]
		if !counted {
			w = wo
		}
		found = found || containsReduce(w)
		if t, ok := chains[in.ID]; ok && counted && (!set.scalar || (oneLane(k, in) || guardedLanes(k, in, set.lanes)) && !shared[in.ID]) {
			found = true
			var step counts.Expr = &counts.Binary{Op: counts.OpAdd, X: zero(t), Y: zero(t), T: t}
			if cond := firstLane(k, in); cond != nil {
				step = &counts.Conditional{Cond: cond, Then: step, Else: zero(t), T: t}
			}
			w = join(w, step)
		}
		cw, cwo := *in, *in
		cw.RHS, cwo.RHS = w, wo
		with[in.ID], without[in.ID] = &cw, &cwo
	}
	if !found {
		return &regSkeletons{none: true}
	}
	return &regSkeletons{with: withInstructions(k, with), without: withInstructions(k, without)}
}

// Lanes returns the dimensions of s's left-hand side that hold
// independent chains: those whose subscript names an unrolled (unr or
// ilp) iname nested inside every sequential loop of s that the
// subscripts do not name (the loops that carry the chains). The
// generated code runs such an iname's values one after another inside
// each iteration of the innermost carrying loop, so that their chains'
// steps are in flight together. Where a carrying loop is nested inside
// the unrolled iname (a k loop inside unrolled tile loops), each cell's
// chain runs through that loop before the next cell's starts, and its
// cells are no lanes. An iname whose first value is no single affine
// bound (counts.Kernel.FirstValue) is no lane either: its chains are
// all counted.
func Lanes(k *counts.Kernel, s *counts.Instruction) []int {
	lane := laneInames(k, s)
	var out []int
	for d, ix := range s.LHS.Index {
		if slices.ContainsFunc(ix.Terms, func(t counts.Term) bool { return lane[t.Name] }) {
			out = append(out, d)
		}
	}
	return out
}

// oneLane reports whether each lane iname of s (Lanes) takes one value
// whatever the parameters (counts.Kernel.ConstantRange): then s's cells
// along the lanes are one chain (reg_chain's K = 1), not several in
// flight together. An iname whose range depends on the parameters
// counts as several.
func oneLane(k *counts.Kernel, s *counts.Instruction) bool {
	for name := range laneInames(k, s) {
		if lo, hi, ok := k.ConstantRange(name); !ok || lo != hi {
			return false
		}
	}
	return true
}

// guardedLanes reports whether s's lanes (Lanes) hold at most most
// values together (the product of their inames' constant ranges,
// counts.Kernel.ConstantRange) and one of their inames is bounded by a
// condition that differs by work-item (counts.Kernel.ItemBounded):
// Config.GuardedLanes's chains, whose first lane counts as one
// accumulator's chain does. An iname whose range depends on the
// parameters counts as too many values.
func guardedLanes(k *counts.Kernel, s *counts.Instruction, most int64) bool {
	values, guarded := int64(1), false
	for name := range laneInames(k, s) {
		lo, hi, ok := k.ConstantRange(name)
		if !ok || hi-lo+1 > most {
			return false
		}
		if values *= max(hi-lo+1, 1); values > most {
			return false
		}
		guarded = guarded || k.ItemBounded(name)
	}
	return guarded
}

// sharedChains returns the instructions of chains (RegisterChains) whose
// loop carries another chain too, through another private: their steps
// are in flight together, as reg_chain's K accumulators are
// (arith_int's x0 to x3 in each of its loops), rather than each waiting
// on the one before it.
func sharedChains(k *counts.Kernel, chains map[string]counts.DType) map[string]bool {
	out := map[string]bool{}
	var walk func(nodes []counts.Node)
	walk = func(nodes []counts.Node) {
		var ids []string
		carried := map[*counts.Array]bool{}
		for _, n := range nodes {
			switch n := n.(type) {
			case *counts.Loop:
				walk(n.Body)
			case *counts.Instruction:
				if _, ok := chains[n.StatementID()]; ok {
					ids = append(ids, n.StatementID())
					carried[n.LHS.Array] = true
				}
			}
		}
		if len(carried) > 1 {
			for _, id := range ids {
				out[id] = true
			}
		}
	}
	walk(k.Schedule)
	return out
}

// laneInames returns the inames of Lanes' dimensions.
func laneInames(k *counts.Kernel, s *counts.Instruction) map[string]bool {
	named := map[string]bool{}
	for _, ix := range s.LHS.Index {
		for _, t := range ix.Terms {
			named[t.Name] = true
		}
	}
	lane := map[string]bool{}
	carried := false
	for _, name := range s.Within {
		in := k.Iname(name)
		switch {
		case in == nil || in.Tag.Parallel():
		case !named[name]:
			carried = true
			clear(lane)
		case carried && in.Tag.Unrolled():
			if _, ok := k.FirstValue(name); ok {
				lane[name] = true
			}
		}
	}
	return lane
}

// firstLane is the condition that each lane iname of s is at its first
// value, so that of the chains through the cells along the lanes only
// the first is counted, whatever else the subscripts add (acc[j+1],
// acc[4*r + j] with r outside the carrying loop: each r its own chains);
// nil where s has no lanes.
func firstLane(k *counts.Kernel, s *counts.Instruction) counts.Expr {
	lane := laneInames(k, s)
	var cond counts.Expr
	for _, name := range slices.Sorted(maps.Keys(lane)) {
		first, _ := k.FirstValue(name)
		c := &counts.Compare{Op: counts.CmpEQ, X: &counts.Index{Value: counts.Affine{Terms: []counts.Term{{Name: name, Coeff: 1}}}}, Y: &counts.Index{Value: first}}
		if cond == nil {
			cond = c
			continue
		}
		cond = &counts.Logic{X: cond, Y: c}
	}
	return cond
}

func zero(t counts.DType) counts.Expr { return &counts.Literal{T: t} }

// join evaluates both a and b at no cost of its own: a comparison is
// free in the counts.
func join(a, b counts.Expr) counts.Expr {
	if _, ok := a.(*counts.Literal); ok {
		return b
	}
	return &counts.Compare{Op: counts.CmpLT, X: a, Y: b}
}

// skeleton returns e reduced to its reductions that keep accepts (with,
// their bodies reduced likewise) or to nothing of cost (without),
// keeping the conditional values around them with their conditions; a
// literal where e has no reduction. A reduction inside a condition, an indirect
// subscript or the body of another reduction behind a condition that
// costs something is refused: the two kernels would differ by more than
// the reductions' points.
func skeleton(e counts.Expr, with bool, keep func(*counts.Reduce) bool) (counts.Expr, error) {
	if !containsReduce(e) {
		return zero(e.Type()), nil
	}
	switch e := e.(type) {
	case *counts.Reduce:
		if !with || !keep(e) {
			return zero(e.T), nil
		}
		body, err := skeleton(e.Body, true, keep)
		if err != nil {
			return nil, err
		}
		if costs(body) {
			return nil, fmt.Errorf("a reduction behind a condition inside the reduction at %s is not counted", e.At)
		}
		return &counts.Reduce{Op: e.Op, Inames: e.Inames, Body: body, T: e.T, At: e.At}, nil
	case *counts.Conditional:
		if containsReduce(e.Cond) {
			return nil, fmt.Errorf("a reduction in the condition at %s is not counted", e.At)
		}
		then, err := skeleton(e.Then, with, keep)
		if err != nil {
			return nil, err
		}
		els, err := skeleton(e.Else, with, keep)
		if err != nil {
			return nil, err
		}
		return &counts.Conditional{Cond: e.Cond, Then: then, Else: els, Eager: e.Eager, T: e.T, At: e.At}, nil
	case *counts.Logic, *counts.Not, *counts.Compare, *counts.Access:
		return nil, fmt.Errorf("a reduction in the condition or subscript at %s is not counted", e.Pos())
	}
	var out counts.Expr = zero(e.Type())
	for _, x := range children(e) {
		s, err := skeleton(x, with, keep)
		if err != nil {
			return nil, err
		}
		out = join(out, s)
	}
	return out, nil
}

// children are the operands of the value nodes that have no condition.
func children(e counts.Expr) []counts.Expr {
	switch e := e.(type) {
	case *counts.Binary:
		return []counts.Expr{e.X, e.Y}
	case *counts.Neg:
		return []counts.Expr{e.X}
	case *counts.BitNot:
		return []counts.Expr{e.X}
	case *counts.Call:
		return e.Args
	case *counts.Cast:
		return []counts.Expr{e.X}
	}
	return nil
}

// costs reports whether a skeleton performs anything besides its
// reductions: an operation or an access, in a condition it kept.
func costs(e counts.Expr) bool {
	found := false
	counts.Walk(e, func(e counts.Expr) bool {
		if _, ok := e.(*counts.Reduce); !ok {
			_, op := counts.OpOf(e)
			_, acc := e.(*counts.Access)
			found = found || op || acc
		}
		return !found
	})
	return found
}

// withInstructions returns a copy of k whose instructions are repl's
// (by statement ID), in the same statements and schedule.
func withInstructions(k *counts.Kernel, repl map[string]*counts.Instruction) *counts.Kernel {
	c := *k
	swap := func(n counts.Node) counts.Node {
		if in, ok := n.(*counts.Instruction); ok {
			return repl[in.ID]
		}
		return n
	}
	c.Statements = make([]counts.Statement, len(k.Statements))
	for i, s := range k.Statements {
		c.Statements[i] = swap(s).(counts.Statement)
	}
	var nodes func([]counts.Node) []counts.Node
	nodes = func(ns []counts.Node) []counts.Node {
		out := make([]counts.Node, len(ns))
		for i, n := range ns {
			if l, ok := n.(*counts.Loop); ok {
				out[i] = &counts.Loop{Iname: l.Iname, Body: nodes(l.Body)}
				continue
			}
			out[i] = swap(n)
		}
		return out
	}
	c.Schedule = nodes(k.Schedule)
	return &c
}

// regChainSteps returns a launch's features of the chains of set: by
// set's prefix and type, the operations the skeleton with the chains
// performs beyond the one without.
func regChainSteps(k *counts.Counted, params map[string]int64, set chainSet) (map[string]int64, error) {
	s := skeletonsOf(k, set)
	if s.err != nil || s.none {
		return nil, s.err
	}
	var vals [2]map[string]int64
	for i, sk := range []*counts.Kernel{s.with, s.without} {
		c := s.counted[i]
		if c == nil {
			var err error
			if c, err = counts.CountWithAt(sk, counts.Options{}, params); err != nil {
				return nil, fmt.Errorf("register chains: %w", err)
			}
		}
		v, err := c.Eval(params)
		if err != nil {
			return nil, fmt.Errorf("register chains: %w", err)
		}
		vals[i] = v
	}
	out := map[string]int64{}
	for _, p := range slices.Sorted(maps.Keys(vals[0])) {
		t, ok := opType(p)
		if d := vals[0][p] - vals[1][p]; ok && d != 0 {
			out[set.prefix+t] += d
		}
	}
	return out, nil
}

// opType is the type of an operation property (flop.f32.add: f32).
func opType(p string) (string, bool) {
	for _, pre := range []string{"flop.", "int."} {
		if rest, ok := strings.CutPrefix(p, pre); ok {
			t, _, ok := strings.Cut(rest, ".")
			return t, ok
		}
	}
	return "", false
}

// isRegChain reports a feature of either register chain set.
func isRegChain(p string) bool {
	return strings.HasPrefix(p, RegChainPrefix) || strings.HasPrefix(p, ScalarChainPrefix)
}

// regChainStepsOf is regChainSteps of a case, counted once per launch
// and set: the cache's name holds the guarded lanes as well as the
// prefix, since one process (hierstudy) calibrates forms that differ in
// Config.GuardedLanes alone.
func regChainStepsOf(env *models.Env, c models.Case, set chainSet) (map[string]int64, error) {
	k, err := env.Counter.Kernel(c.Kernel, c.Consts)
	if err != nil {
		return nil, err
	}
	name := fmt.Sprintf("%slanes=%d", set.prefix, set.lanes)
	return once(name, k, c.Params, func() (map[string]int64, error) { return regChainSteps(k, c.Params, set) })
}
