package counts

import "strings"

// Indirect accesses: subscripts that read data, as x[col[j]] of a sparse
// matrix-vector product or hist[b] of a histogram. The resolver makes
// them, the plan counts them as properties of their own (see
// indirectProperty), and the interpreter and the code generators
// evaluate their subscripts as values.

// readsData reports whether a subscript reads an array or a temporary,
// so that its value is known only when the kernel runs. Scalar arguments
// are left to the affine path, which says to make them size parameters.
func (r *resolver) readsData(e rexpr) bool {
	switch e := e.(type) {
	case *rSub:
		return true
	case *rName:
		a := r.k.arrayIndex[e.t.text]
		return a != nil && a.Space != Argument
	case *rBin:
		return r.readsData(e.x) || r.readsData(e.y)
	case *rNeg:
		return r.readsData(e.x)
	case *rUnary:
		return r.readsData(e.x)
	case *rCast:
		return r.readsData(e.x)
	case *rCall:
		for _, a := range e.args {
			if r.readsData(a) {
				return true
			}
		}
	case *rReduce:
		return r.readsData(e.body)
	}
	return false
}

// indirect resolves the subscripts of an indirect access: each is an
// integer value, an affine one included, evaluated where the access is.
func (r *resolver) indirect(acc *Access, idx []rexpr, sc *scope) *Access {
	a := acc.Array
	if a.Space == Private {
		r.fail(acc.At, "%s is a private array, whose elements live in registers and take constant or affine subscripts; a subscript that reads data needs memory: declare %s with 'local' (one copy per work-group) or 'array'", a.Name, a.Name)
	}
	for _, x := range idx {
		v, w := r.value(x, sc)
		if w != strong || !v.Type().IsFloat() {
			v = r.coerce(v, w, I32)
		}
		if v.Type().IsFloat() {
			r.fail(x.rpos(), "subscript %s of %s is %s: subscripts are integers; convert it with (int)(...), which truncates as C does", v, a.Name, v.Type())
		}
		acc.Indirect = append(acc.Indirect, r.fold(v))
	}
	return acc
}

// indirectProperty names the traffic of indirect accesses of one space,
// direction and type: global.load.indirect.f32, local.store.indirect.i32.
// They have no stride class or bank-conflict degree: the addresses are
// data.
func indirectProperty(space Space, store bool, t DType) string {
	return space.String() + "." + direction(store) + ".indirect." + t.String()
}

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

// indirectIndexer compiles the subscripts of an indirect access, values
// evaluated (and counted) at each use, into its flattened index, failing
// with their values when one is out of bounds.
func (in *interp) indirectIndexer(acc *Access, cx *cctx, ext, strides []int64) (func(st *state) int64, error) {
	dims := make([]iexpr, len(acc.Indirect))
	for d, x := range acc.Indirect {
		v, err := in.compileExpr(x, cx)
		if err != nil {
			return nil, err
		}
		dims[d] = v.i
	}
	vals := make([]int64, len(dims))
	return func(st *state) int64 {
		flat := int64(0)
		bad := false
		for d, x := range dims {
			v := x(st)
			vals[d] = v
			if v < 0 || v >= ext[d] {
				bad = true
			}
			flat += v * strides[d]
		}
		if bad {
			in.fail(cx.ins, "%s is out of bounds for shape %s: its subscripts read data (%s)", formatIndex(acc.Array.Name, vals), formatIndex("", ext), acc)
		}
		return flat
	}, nil
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
