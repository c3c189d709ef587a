package counts

import "slices"

// PoCL runs a work-group on a CPU as loops over its work-items, one loop
// for each stretch of code between barriers, so that a value one
// work-item computes before a barrier and uses after it is kept in a
// context array with a slot per work-item. The compiler makes such
// values of its own: an address that does not change across a loop that
// holds a barrier is computed once, before the loop, and every access in
// the loop loads it from its slot. Kernel Tuner's matmul on PoCL 3.1
// keeps 8-byte pointers to sA and sB for every unrolled copy of its
// loads and stores at a distinct address, TY + TX*ceil(BX/BY) +
// BX*(TX+TY) of them a work-item (132 at BX = 16, BY = 1, TX = 2,
// TY = 4; 198 at BX = BY = 32), besides its sums: a 16-item group's
// slots fit L1, a 1024-item group's take 1.6 MiB (docs/model.md).

// pointerBytes is the size of an address kept in a context slot.
const pointerBytes = 8

// ContextBytes returns the bytes a work-item keeps across barriers where
// a group runs as loops over its work-items (PoCL): for every access to
// a global or local array by an instruction inside a sequential loop
// that holds a barrier, whose subscripts depend on none of the
// instruction's sequential loops from the outermost such loop inward,
// an address (8 bytes) for each of its distinct unrolled copies (the
// product of the constant ranges of the unrolled inames, tagged unr or
// ilp, that its subscripts depend on, its instruction's and those of
// the unrolled reductions around it: copies at one address are one);
// and the bytes of every private array such an instruction reads or
// writes, whose values the loop carries across its barriers. Accesses
// inside a sequential reduction, whose addresses change in a loop of
// their own, and indirect ones are not counted. ok is false where an
// unrolled iname has no constant range; the bytes saturate at
// math.MaxInt64, as LocalBytes does.
func (k *Kernel) ContextBytes() (bytes int64, ok bool) {
	loops := k.barrierLoops()
	private := map[*Array]bool{}
	var total int64
	for _, s := range k.Statements {
		ins, isIns := s.(*Instruction)
		if !isIns {
			continue
		}
		seq := k.Loops(ins)
		first := slices.IndexFunc(seq, func(x string) bool { return loops[x] })
		if first < 0 {
			continue
		}
		inner := slices.DeleteFunc(slices.Clone(seq[first:]), func(x string) bool { return k.unrolled(x) })
		unr := slices.DeleteFunc(slices.Clone(seq), func(x string) bool { return !k.unrolled(x) })
		visit := func(acc *Access, unr []string) bool {
			if acc.Array.Space == Private {
				private[acc.Array] = true
				return true
			}
			if acc.IsIndirect() || slices.ContainsFunc(inner, func(x string) bool { return dependsOnAny(acc.Index, x) }) {
				return true
			}
			copies := int64(1)
			for _, x := range unr {
				if !dependsOnAny(acc.Index, x) {
					continue
				}
				lo, hi, ok := k.ConstantRange(x)
				if !ok {
					return false
				}
				copies = satMul(copies, satExtent(lo, hi))
			}
			total = satAdd(total, satMul(copies, pointerBytes))
			return true
		}
		if !visit(ins.LHS, unr) || !k.contextAccesses(ins.RHS, unr, visit) || !k.contextAccesses(ins.Pred, unr, visit) {
			return 0, false
		}
	}
	for a := range private {
		total = satAdd(total, a.constBytes())
	}
	return total, true
}

// barrierLoops returns the sequential, not unrolled, inames of the loops
// that hold a barrier.
func (k *Kernel) barrierLoops() map[string]bool {
	loops := map[string]bool{}
	for _, s := range k.Statements {
		if b, ok := s.(*Barrier); ok {
			for _, x := range k.Loops(b) {
				if !k.unrolled(x) {
					loops[x] = true
				}
			}
		}
	}
	return loops
}

// unrolled reports whether an iname's loop is unrolled (unr or ilp).
func (k *Kernel) unrolled(x string) bool {
	return k.inameIndex[x].Tag.Unrolled()
}

// contextAccesses calls visit on every access of e with the unrolled
// inames around it, unr and those of the unrolled reductions it is in,
// and skips the bodies of sequential reductions. It returns false as
// soon as visit does.
func (k *Kernel) contextAccesses(e Expr, unr []string, visit func(*Access, []string) bool) bool {
	if e == nil {
		return true
	}
	ok := true
	Walk(e, func(x Expr) bool {
		switch x := x.(type) {
		case *Access:
			ok = ok && visit(x, unr)
		case *Reduce:
			if !slices.ContainsFunc(x.Inames, func(n string) bool { return !k.unrolled(n) }) {
				ok = ok && k.contextAccesses(x.Body, append(slices.Clone(unr), x.Inames...), visit)
			}
			return false
		}
		return ok
	})
	return ok
}

// dependsOnAny reports whether one of the subscripts changes with x.
func dependsOnAny(index []Affine, x string) bool {
	return slices.ContainsFunc(index, func(ix Affine) bool { return dependsOn(ix, x) })
}
