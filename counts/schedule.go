package counts

import (
	"fmt"
	"strings"
)

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

func (r *resolver) schedule() error {
	r.k.Schedule = buildSchedule(r.k)
	return nil
}

// Loops returns the sequential inames of a statement: the loops that
// enclose it in the schedule, outermost first.
func (k *Kernel) Loops(s Statement) []string {
	var names []string
	switch s := s.(type) {
	case *Instruction:
		names = s.Within
	case *Barrier:
		names = s.Inames
	}
	var loops []string
	for _, n := range names {
		if !k.inameIndex[n].Tag.Parallel() {
			loops = append(loops, n)
		}
	}
	return loops
}

func buildSchedule(k *Kernel) []Node {
	root := &Loop{}
	stack := []*Loop{root}
	var open []string
	for _, s := range k.Statements {
		loops := k.Loops(s)
		p := 0
		for p < len(open) && p < len(loops) && open[p] == loops[p] {
			p++
		}
		stack, open = stack[:p+1], open[:p]
		for _, n := range loops[p:] {
			l := &Loop{Iname: n}
			top := stack[len(stack)-1]
			top.Body = append(top.Body, l)
			stack = append(stack, l)
			open = append(open, n)
		}
		top := stack[len(stack)-1]
		top.Body = append(top.Body, s)
	}
	return root.Body
}

// FormatSchedule renders a schedule as indented text, one node per line:
// "for i" opens a loop, "end" closes it, instructions show their id and
// assignment, barriers their id.
func FormatSchedule(nodes []Node) string {
	var b strings.Builder
	var walk func([]Node, int)
	walk = func(nodes []Node, depth int) {
		ind := strings.Repeat("  ", depth)
		for _, n := range nodes {
			switch n := n.(type) {
			case *Loop:
				fmt.Fprintf(&b, "%sfor %s\n", ind, n.Iname)
				walk(n.Body, depth+1)
				fmt.Fprintf(&b, "%send\n", ind)
			case *Instruction:
				fmt.Fprintf(&b, "%s%s: %s\n", ind, n.ID, n)
			case *Barrier:
				fmt.Fprintf(&b, "%s%s: barrier\n", ind, n.ID)
			}
		}
	}
	walk(nodes, 0)
	return b.String()
}
