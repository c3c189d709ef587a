package counts

import (
	"fmt"
	"slices"
	"strings"
)

// Kernel is a parsed, split, typed and scheduled .knl kernel.
type Kernel struct {
	Name   string
	File   string
	Consts []Const  // compile-time constants in declaration order, after overrides
	Params []string // size parameters in order of first appearance

	Domains []*Domain
	Inames  []*Iname // in domain order: the loop nesting order
	Arrays  []*Array // global arrays and temporaries in declaration order

	// Statements holds the *Instruction and *Barrier statements in
	// textual order; Schedule arranges them in loops.
	Statements []Statement
	Schedule   []Node

	assume     dnf
	inameIndex map[string]*Iname
	arrayIndex map[string]*Array
}

// Const is a compile-time integer constant (a "const NAME = EXPR" line).
// Expr is a derived constant's expression as written ("BS - 2 * PH"),
// "" where it names no other constant.
type Const struct {
	Name  string
	Value int64
	Expr  string
	Pos   Pos // the name in its declaration
}

// Domain is one "domain" statement: a set of inames in isl notation. Its
// constraints may mention parameters and the inames of other domains
// (Outer), which is how loop bounds depend on enclosing loops.
type Domain struct {
	Inames []string
	Outer  []string
	set    dnf
	pos    Pos
}

// Constraints returns the domain's constraints in isl syntax, after
// constant substitution and splitting ("0 = 0" when there are none).
func (d *Domain) Constraints() string {
	if len(d.set) == 1 && len(d.set[0]) == 0 {
		return "0 = 0"
	}
	return d.set.String()
}

// String renders the domain as an isl set, for instance
// "[n] -> { [i_out, i_in] : 0 <= i_in <= 15 and 0 <= 16*i_out + i_in <= n - 1 }".
func (d *Domain) String() string {
	return islSet(d.Outer, d.Inames, d.Constraints())
}

func islSet(params, dims []string, constraints string) string {
	return fmt.Sprintf("[%s] -> { [%s] : %s }", strings.Join(params, ", "), strings.Join(dims, ", "), constraints)
}

// TagKind says how an iname is executed.
type TagKind uint8

// Iname tags. Seq, Unroll, ILP and Down inames are sequential loops
// (Unroll and ILP are hints for code generation and change no count; a
// Down loop runs from its largest value to its least, C's for (i = n - 1;
// i >= 0; i--), which changes no count either but may change what the
// kernel computes); Group and LocalID inames are the work-group and
// work-item indices of a hardware axis.
const (
	Seq TagKind = iota
	Group
	LocalID
	Unroll
	ILP
	Down
)

// Tag is an iname's tag; Axis is 0-2 for Group and LocalID.
type Tag struct {
	Kind TagKind
	Axis int
}

// Parallel reports whether the tag makes the iname a hardware index.
func (t Tag) Parallel() bool { return t.Kind == Group || t.Kind == LocalID }

// Unrolled reports whether the tag asks for an unrolled loop (unr or ilp).
func (t Tag) Unrolled() bool { return t.Kind == Unroll || t.Kind == ILP }

func (t Tag) String() string {
	switch t.Kind {
	case Group:
		return fmt.Sprintf("g.%d", t.Axis)
	case LocalID:
		return fmt.Sprintf("l.%d", t.Axis)
	case Unroll:
		return "unr"
	case ILP:
		return "ilp"
	case Down:
		return "down"
	}
	return "seq"
}

// Iname is a loop index; Domain is the index of the domain declaring it.
// Data, when not nil, makes it a data-bounded loop (see DataBounds).
type Iname struct {
	Name   string
	Tag    Tag
	Domain int
	Data   *DataBounds
}

// DataBounds are the bounds of a data-bounded loop, "for j = LO .. HI max
// N", C's for (j = LO; j < HI; j++): LO and HI are integer temporaries,
// scalar arguments, inames, parameters or literals, read where the loop
// starts. Where LO is data, Value is the private i32 temporary named as
// the iname that holds j's value, LO plus the trip, and the iname is the
// trip, 0 to N - 1 in its domain; where LO is a literal L, Value is nil
// and the iname is j, L to L + N - 1. Counts run the N values, an upper
// bound, and the interpreter and the generated code LO to HI - 1 (more
// than N is an error of the run).
type DataBounds struct {
	Lo, Hi Expr
	Value  *Array
	Max    Affine // N
}

// Statement is an *Instruction or a *Barrier.
type Statement interface {
	Node
	StatementID() string
}

// Instruction assigns RHS to LHS at every point of its execution domain:
// the kernel domain projected onto Within (see the package
// documentation). Within lists the inames the instruction runs in, in
// domain order: those it mentions outside reductions, those named in its
// inames= annotation, and the parallel inames of its domain on hardware
// axes it does not otherwise use. Its sequential ones are exactly its
// enclosing loops in the schedule; its parallel ones are its guards.
//
// Pred, when not nil, is the instruction's predicate, a condition (type
// Bool) evaluated first at each point of the execution domain: the
// assignment, with its right-hand side, happens only where it holds.
// Tags are loopy's instruction tags, labels that change nothing.
//
// Atomic marks atomic_add(LHS, RHS): RHS is added to the element LHS
// names in one indivisible step, as CUDA's atomicAdd and OpenCL's
// atomic_add do, so that work-items may add to one element without a
// race. LHS is then a global or local f32, i32 or u32 element.
type Instruction struct {
	ID     string
	Pos    Pos
	LHS    *Access
	RHS    Expr
	Pred   Expr
	Within []string
	Deps   []string
	Tags   []string
	Atomic bool
}

// Barrier is a local barrier executed by every work-item, inside the
// sequential loops Inames.
type Barrier struct {
	ID     string
	Pos    Pos
	Inames []string
	Deps   []string
	Tags   []string
}

// StatementID returns the instruction's id.
func (s *Instruction) StatementID() string { return s.ID }

// StatementID returns the barrier's id.
func (s *Barrier) StatementID() string { return s.ID }

func (s *Instruction) String() string {
	if s.Atomic {
		a := fmt.Sprintf("atomic_add(%s, %s)", s.LHS, s.RHS)
		if s.Pred != nil {
			return fmt.Sprintf("if %s: %s", s.Pred, a)
		}
		return a
	}
	if s.Pred != nil {
		return fmt.Sprintf("if %s: %s = %s", s.Pred, s.LHS, s.RHS)
	}
	return fmt.Sprintf("%s = %s", s.LHS, s.RHS)
}

// Iname returns the named iname, or nil.
func (k *Kernel) Iname(name string) *Iname { return k.inameIndex[name] }

// Array returns the named array or temporary, or nil.
func (k *Kernel) Array(name string) *Array { return k.arrayIndex[name] }

// Assumptions returns the kernel's assumptions on its parameters in isl
// syntax ("" when there are none).
func (k *Kernel) Assumptions() string {
	if len(k.assume) == 1 && len(k.assume[0]) == 0 {
		return ""
	}
	return k.assume.String()
}

// ConstMap returns the constant bindings as a map, as recorded in
// measurement tables.
func (k *Kernel) ConstMap() map[string]int64 {
	m := make(map[string]int64, len(k.Consts))
	for _, c := range k.Consts {
		m[c.Name] = c.Value
	}
	return m
}

// inameOrder sorts names by their position in the domain order.
func (k *Kernel) inameOrder(names []string) []string {
	out := slices.Clone(names)
	slices.SortFunc(out, func(a, b string) int {
		return slices.IndexFunc(k.Inames, func(x *Iname) bool { return x.Name == a }) -
			slices.IndexFunc(k.Inames, func(x *Iname) bool { return x.Name == b })
	})
	return out
}

// ProjectedDomain returns, in isl notation, the kernel domain projected
// onto the given inames: the intersection of the domains relevant to
// them and of the assumptions, with every other iname of those domains
// existentially quantified. All kernel parameters are listed. Loop
// bounds are ProjectedDomain of the enclosing loops' inames plus the
// loop's; an instruction's guard is ProjectedDomain(Within).
func (k *Kernel) ProjectedDomain(inames []string) string {
	set := k.assume
	var others []string
	for _, di := range k.relevantDomains(inames) {
		set = set.and(k.Domains[di].set)
		for _, n := range k.Domains[di].Inames {
			if !slices.Contains(inames, n) {
				others = append(others, n)
			}
		}
	}
	c := "0 = 0"
	if len(set) != 1 || len(set[0]) != 0 {
		c = set.String()
	}
	if len(others) > 0 {
		c = "exists (" + strings.Join(others, ", ") + " : " + c + ")"
	}
	return islSet(k.Params, inames, c)
}

// relevantDomains returns the indices of the domains that constrain the
// given inames: those declaring them, and transitively those declaring
// the inames that these mention.
func (k *Kernel) relevantDomains(inames []string) []int {
	var out []int
	var visit func(name string)
	visit = func(name string) {
		in := k.inameIndex[name]
		if in == nil || slices.Contains(out, in.Domain) {
			return
		}
		out = append(out, in.Domain)
		for _, o := range k.Domains[in.Domain].Outer {
			visit(o)
		}
	}
	for _, n := range inames {
		visit(n)
	}
	slices.Sort(out)
	return out
}

// Node is an element of a kernel's schedule: a *Loop, an *Instruction or
// a *Barrier.
//
// The schedule is the one definition of execution order, used by the
// reference interpreter and by code generation. It is built from the
// statements in textual order: a statement sits inside one loop for each
// of its sequential inames (an instruction's Within, a barrier's Inames;
// inames tagged g.* or l.* are hardware indices, not loops), nested in
// domain order. Consecutive statements whose loop lists share a leading
// part share those loops; where the lists diverge, the inner loops close
// and new ones open. Reductions are not part of the schedule: each is an
// inner loop of its instruction.
type Node interface{ scheduleNode() }

// Loop runs Body once for each value of the sequential iname Iname, in
// increasing order. The values are those of the kernel domain projected
// onto the enclosing loops' inames and Iname (parameters fixed, the
// enclosing loops' values fixed); see the package documentation.
type Loop struct {
	Iname string
	Body  []Node
}

func (*Loop) scheduleNode()        {}
func (*Instruction) scheduleNode() {}
func (*Barrier) scheduleNode()     {}
