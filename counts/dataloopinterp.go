package counts

import "slices"

// The interpreter runs a data-bounded loop as it runs every sequential
// loop, once for all the work-items of a group, over the trips its
// domain allows (0 to N - 1); each work-item executes the statements
// inside only at trips below its own HI - LO, with the loop's temporary
// holding LO plus the trip: C's loop from LO to HI - 1. A work-item whose
// HI - LO exceeds N stops the run: the counts, which run N trips, would
// not bound it.

// dataGuard wraps body, an instruction's, so that it runs only where the
// data-bounded loops among its inames, outermost first, reach the
// current trips, and with their temporaries set.
func (in *interp) dataGuard(ins *Instruction, cx *cctx, body func(st *state)) (func(st *state), error) {
	for _, n := range slices.Backward(ins.Within) {
		d := in.k.inameIndex[n].Data
		if d == nil {
			continue
		}
		lo, err := in.compileExpr(d.Lo, cx)
		if err != nil {
			return nil, err
		}
		hi, err := in.compileExpr(d.Hi, cx)
		if err != nil {
			return nil, err
		}
		slot, inner, name := in.e.slot[n], body, n
		var p *privMem
		if d.Value != nil {
			p = in.privMems[d.Value.Name]
		}
		body = func(st *state) {
			l, h := lo.i(st), hi.i(st)
			if trips := in.trips[name]; h-l > trips {
				in.fail(ins, "the loop over %s runs from %d to %d, %d trips, more than the %d its max allows: raise the bound after max", name, l, h-1, h-l, trips)
			}
			t := st.v[slot]
			if p == nil {
				t -= l // the iname is j itself
			}
			if t >= h-l {
				return
			}
			if p != nil {
				p.i[st.wi*p.size] = l + t
			}
			inner(st)
		}
	}
	return body, nil
}
