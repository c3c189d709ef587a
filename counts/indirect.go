package counts

import "strings"

// Indirect accesses: subscripts that read data, as x[col[j]] of a sparse
// matrix-vector product or hist[b] of a histogram. The resolver makes
// them (resolver.indirect), and the interpreter evaluates their
// subscripts as values (interp.indirectIndexer). This file holds what
// follows for the counts: the plan counts them as properties of their
// own (indirectProperty), and the footprints and the memory hierarchy,
// which cannot know their cells, refuse them.

// indirectAccess adds an indirect access of an instruction: what its
// subscripts evaluate (visit) and one access of its own property (add),
// counted exactly over the execution domain as any access is, or an
// atomic addition when atomic. It records the array as one whose cells
// the footprints cannot know.
func (p *plan) indirectAccess(acc *Access, store, atomic bool, visit func(Expr) error, add func(name string) error) error {
	for _, x := range acc.Indirect {
		if err := visit(x); err != nil {
			return err
		}
	}
	a := acc.Array
	if _, seen := p.indirect[a.Name]; !seen {
		p.indirect[a.Name] = acc
	}
	if atomic {
		return add(atomicProperty(a.Space, a.DType))
	}
	return add(indirectProperty(a.Space, store, a.DType))
}

// minLdStRest returns the type and stride class of a global load that
// has a global.minldst correction, global.load.f32.stride=1 -> f32.stride=1.
// Indirect loads have none: they have no stride class to pair.
func minLdStRest(name string) (string, bool) {
	rest, ok := strings.CutPrefix(name, "global.load.")
	return rest, ok && strings.Contains(rest, ".stride=")
}

// knownCells fails, for what (a footprint, the memory hierarchy), when
// an array has indirect accesses: which of its cells they touch is data.
func (c *Counted) knownCells(a *Array, what string) error {
	acc := c.plan.indirect[a.Name]
	if acc == nil {
		return nil
	}
	return errorf(c.k.File, acc.At, "kernel %s: %s of %s: %s reads its subscripts from data, so which cells of %s it touches is known only when the kernel runs (at most all of them); the reference interpreter records the cells of a run on given data (Run with RunOptions{Trace: true}: Tally.Footprints), or count the %s of a kernel without indirect accesses",
		c.k.Name, what, a.Name, acc, a.Name, what)
}

// cellsOnly returns the trace recorder of an indirect global access: it
// records the cells it touches, for the footprints, and no stride, which
// only a site of affine subscripts has.
func (t *tracer) cellsOnly(a *Array, store bool) func(st *state, flat int64) {
	dir := t.loaded
	if store {
		dir = t.stored
	}
	if dir[a.Name] == nil {
		dir[a.Name] = map[int64]bool{}
	}
	cells := dir[a.Name]
	return func(st *state, flat int64) {
		cells[flat] = true
		if t.global != nil {
			t.global(a.Name, store, st.gid, st.lid, flat)
		}
	}
}
