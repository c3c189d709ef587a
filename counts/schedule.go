package counts

import (
	"fmt"
	"strings"
)

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
