package cimport

// runsOnce reports whether the loop s over v, from start by step, runs
// exactly one iteration at every size: it starts at a constant, its
// condition holds there and fails at the next value. A C compiler then
// folds the loop's variable into the body, so that arithmetic on it
// costs nothing (Kernel Tuner's tile loops at tile_size 1, for (int ti
// = 0; ti < tile_size; ti++) around if (i + block_size_x*ti < n), which
// compiles to the enclosing test i < n); forLoop unrolls such a loop,
// with the variable a constant, instead of counting that arithmetic at
// each point. A condition that is not known at import is left to
// forLoop, which reports what is wrong with it.
func (t *translator) runsOnce(s *stmt, v *variable, start aff, step poly) bool {
	first, ok1 := start.constant()
	by, ok2 := step.constant()
	next, ok3 := addInt(first, by)
	if !ok1 || !ok2 || !ok3 || s.e == nil {
		return false
	}
	kind, val := v.kind, v.val
	defer func() { v.kind, v.val = kind, val }()
	holds := func(x int64) (known, value bool) {
		v.kind, v.val = "int", affConst(constPoly(x))
		c, err := t.condition(s.e)
		if err != nil || c.op != "const" {
			return false, false
		}
		return true, c.val
	}
	known, now := holds(first)
	if !known || !now {
		return false
	}
	known, then := holds(next)
	return known && !then
}
