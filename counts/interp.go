package counts

import (
	"fmt"
	"strings"
)

// interp is the reference interpreter during one run: the kernel at its
// parameters, the machine state, the counters and the memories that
// Run's compiled closures read and write.
type interp struct {
	k     *Kernel
	e     *engine
	g     *grid
	st    state
	sizes map[string][]int64 // array extents at the parameters
	trace *tracer
	// stmt is the statement being compiled, whose counters are its own;
	// countSubscripts counts subscript arithmetic.
	stmt            string
	countSubscripts bool

	counterIndex map[counterKey]int
	counterKeys  []counterKey
	groupCtr     int
	nWorkItems   int
	global       map[string]any
	localMems    map[string]*localMem
	privMems     map[string]*privMem
	scalars      map[string]Number        // the scalar arguments' values
	writes       map[string]*globalWrites // the stores to global arrays, for races
	trips        map[string]int64         // the trips of the data-bounded loops running
}

// counterKey names one tally counter.
type counterKey struct {
	space Space // Global or Local for memory traffic
	mem   MemAccess
	op    Op
	kind  uint8 // 0 memory, 1 op, 2 barrier, 3 group
	stmt  string
}

func (in *interp) counter(k counterKey) int {
	if i, ok := in.counterIndex[k]; ok {
		return i
	}
	i := len(in.counterKeys)
	in.counterIndex[k] = i
	in.counterKeys = append(in.counterKeys, k)
	in.st.counters = append(in.st.counters, 0)
	return i
}

// setWorkItem sets the local ids and the values of the l-tagged inames.
func (in *interp) setWorkItem(wi int) {
	st := &in.st
	st.wi = wi
	l := in.g.local
	st.lid[0] = int64(wi) % l[0]
	st.lid[1] = (int64(wi) / l[0]) % l[1]
	st.lid[2] = int64(wi) / (l[0] * l[1])
	for a := range 3 {
		for _, s := range in.g.tagged[1][a] {
			st.v[s] = in.g.lb[s] + st.lid[a]
		}
	}
}

// fail aborts the run with an error located at an instruction.
func (in *interp) fail(ins *Instruction, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	panic(runError{errorf(in.k.File, ins.Pos, "instruction %s: %s (at %s)", ins.ID, msg, in.where())})
}

// where describes the current point of execution: parameters, group and
// local ids.
func (in *interp) where() string {
	var b strings.Builder
	b.WriteString(in.e.paramString())
	fmt.Fprintf(&b, ", group (%d, %d, %d), local id (%d, %d, %d)", in.st.gid[0], in.st.gid[1], in.st.gid[2],
		in.st.lid[0], in.st.lid[1], in.st.lid[2])
	return b.String()
}

// opCounter is the counter of operation op in the current statement.
func (in *interp) opCounter(op Op) int { return in.counter(counterKey{kind: 1, op: op, stmt: in.stmt}) }
