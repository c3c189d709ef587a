package counts

import "strings"

// Indirect accesses: subscripts that read data, as x[col[j]] of a sparse
// matrix-vector product or hist[b] of a histogram. The resolver makes
// them (resolver.indirect), and the interpreter evaluates their
// subscripts as values (interp.indirectIndexer). This file holds what
// follows for the counts: the plan counts them as properties of their
// own (indirectProperty), the footprints refuse them, and the memory
// hierarchy and the cache lines, at given sizes, bound the cells of an
// array they touch (indirectbound.go).

// indirectAccess adds an indirect access of an instruction: what its
// subscripts evaluate (visit) and one access of its own property (add,
// which returns the term it counts), counted exactly over the execution
// domain as any access is, or an atomic addition when atomic. It records
// the access with its array's indirect accesses.
func (p *plan) indirectAccess(acc *Access, store, atomic bool, visit func(Expr) error, add func(name string) (term, error)) error {
	for _, x := range acc.Indirect {
		if err := visit(x); err != nil {
			return err
		}
	}
	a := acc.Array
	u := p.indirect[a.Name]
	if u == nil {
		u = &indirectUse{first: acc}
		p.indirect[a.Name] = u
	}
	u.loads, u.stores = u.loads || !store, u.stores || store
	name := indirectProperty(a.Space, store, a.DType)
	if atomic {
		name = atomicProperty(a.Space, a.DType)
	}
	t, err := add(name)
	u.counts = append(u.counts, t)
	return err
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
// With bounded, where the plan counts at given sizes (plan.at), the
// caller bounds those cells (indirectbound.go) and knownCells passes.
func (c *Counted) knownCells(a *Array, what string, bounded bool) error {
	u := c.plan.indirect[a.Name]
	if u == nil || bounded && c.plan.at != nil {
		return nil
	}
	how := "count the " + what + " of a kernel without indirect accesses"
	if bounded {
		how = "give every parameter a value (uniperf count --param NAME=V): the " + what + " counts there bound the cells of such an array by the executions of those accesses and by its extent"
	}
	return errorf(c.k.File, u.first.At, "kernel %s: %s of %s: %s reads its subscripts from data, so which cells of %s it touches is known only when the kernel runs (at most all of them); the reference interpreter records the cells of a run on given data (Run with RunOptions{Trace: true}: Tally.Footprints), or %s",
		c.k.Name, what, a.Name, u.first, a.Name, how)
}

// IndirectArrays lists, in declaration order, the global arrays that an
// access reads its subscripts from data for: those whose memory-hierarchy
// counts and cache lines at sizes are bounds (HierarchyCount.Approximate,
// LineCount.Approximate), not exact counts.
func (c *Counted) IndirectArrays() []string {
	var out []string
	for _, a := range c.k.Arrays {
		if a.Space == Global && c.plan.indirect[a.Name] != nil {
			out = append(out, a.Name)
		}
	}
	return out
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
