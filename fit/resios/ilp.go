package resios

import (
	"fmt"
)

// DAG is the data-flow graph of one instruction region: Deps[i] lists the
// instructions whose results instruction i uses.
type DAG struct {
	Deps [][]int
}

// ILP is (6.1): the number of instructions of the region over the length,
// in instructions, of its longest dependency chain. For e = a + b, f = c + d,
// g = e·f it is 3/2. A cycle is an error (the region is in SSA form, so its
// graph must be acyclic), as is a dependency on a missing instruction.
func ILP(g DAG) (float64, error) {
	n := len(g.Deps)
	if n == 0 {
		return 0, fmt.Errorf("resios: %w", ErrEmptyRegion)
	}
	depth := make([]int, n)  // longest chain ending at i, 0 while unknown
	state := make([]byte, n) // 0 new, 1 on the stack, 2 done
	var visit func(i int) (int, error)
	visit = func(i int) (int, error) {
		switch state[i] {
		case 1:
			return 0, fmt.Errorf("resios: instruction %d depends on itself through a cycle", i)
		case 2:
			return depth[i], nil
		}
		state[i] = 1
		longest := 0
		for _, d := range g.Deps[i] {
			if d < 0 || d >= n {
				return 0, fmt.Errorf("resios: instruction %d depends on instruction %d, which does not exist", i, d)
			}
			l, err := visit(d)
			if err != nil {
				return 0, err
			}
			longest = max(longest, l)
		}
		depth[i], state[i] = longest+1, 2
		return depth[i], nil
	}
	path := 0
	for i := range n {
		l, err := visit(i)
		if err != nil {
			return 0, err
		}
		path = max(path, l)
	}
	return float64(n) / float64(path), nil
}
