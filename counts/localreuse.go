package counts

import (
	"slices"

	"github.com/uniperf/uniperf/polyhedra"
)

// A compiler keeps in a register a local load whose address does not
// change across the iterations of the unrolled loops around it: once
// unrolled, their copies of the load are one basic block, and the copies
// at one address load one value, unless a store to the array or a
// barrier comes between. In Kernel Tuner's matmul,
//
//	acc[ti, tj] = acc[ti, tj] + sA[ty + BY*ti, kb]*sB[kb, tx + BX*tj]
//
// with kb, ti and tj unrolled runs TY*TX updates per kb but loads sA's
// TY cells and sB's TX once each. The counts of local.load.T count every
// copy; RegisterLoadsAt counts the copies that repeat one.

// registerInames returns the unrolled inames (tagged unr) of a load that
// are nested inside every other loop of it: the innermost run of its
// loops, its instruction's sequential inames and its reductions', whose
// inames are all unrolled. Their iterations are one basic block once
// unrolled; a loop outside them is a loop of the code, whose iterations
// no register carries a load across.
func (k *Kernel) registerInames(l localLoad) []string {
	var loops []string
	for _, x := range l.ref.inames {
		if !k.inameIndex[x].Tag.Parallel() {
			loops = append(loops, x)
		}
	}
	i := len(loops)
	for i > 0 && k.inameIndex[loops[i-1]].Tag.Kind == Unroll {
		i--
	}
	return loops[i:]
}

// registerDrop returns the inames of a load's unrolled block
// (registerInames) that its subscripts do not depend on: the copies that
// differ only in them load one cell. It is empty where the block holds a
// store to the array or a barrier, which may change the cell between the
// copies: a statement inside the block's outermost loop, or the load's own
// instruction where it stores the array. (A statement elsewhere that
// shares that iname in a loop of its own is taken to be inside too: the
// schedule separates them only where other loops come between.)
func (k *Kernel) registerDrop(l localLoad) []string {
	block := k.registerInames(l)
	if len(block) == 0 {
		return nil
	}
	for _, s := range k.Statements {
		switch s := s.(type) {
		case *Instruction:
			if s.LHS.Array == l.acc.Array && (s == l.ins || slices.Contains(s.Within, block[0])) {
				return nil
			}
		case *Barrier:
			if slices.Contains(s.Inames, block[0]) {
				return nil
			}
		}
	}
	var drop []string
	for _, x := range block {
		if !slices.ContainsFunc(l.acc.Index, func(ix Affine) bool { return dependsOn(ix, x) }) {
			drop = append(drop, x)
		}
	}
	return drop
}

// dependsOn reports whether a subscript changes with the iname x.
func dependsOn(ix Affine, x string) bool {
	c := ix.CoeffOf(x)
	return !c.IsConst() || c.Const != 0 || ix.inFloor(x)
}

// RegisterLoadsAt returns, by load property (local.load.T), the local
// loads at params that a compiler keeps in registers: in each unrolled
// block (registerInames) without a store to the array or a barrier, a
// load's copies less its distinct copies, those that differ in the
// inames its subscripts depend on; each work-item's, counted exactly
// with the copies' set projected onto those inames. Where a load's
// subscripts depend on every iname of its block, or it has no block,
// none of its loads are kept. The parameters are checked as Eval checks
// them; where the sets have no symbolic count they are counted at params.
func (c *Counted) RegisterLoadsAt(params map[string]int64) (map[string]int64, error) {
	if err := c.checkAt(params); err != nil {
		return nil, err
	}
	// A plan of its own: the plan of c adds the hierarchy's sets, and a
	// plan is not safe for concurrent use.
	p, err := buildPlan(c.k, c.plan.opts, false)
	if err != nil {
		return nil, err
	}
	kept, err := (&Counted{k: c.k, plan: p, params: c.params}).registerLoads()
	if err != nil {
		at, aerr := c.atParams(params)
		if aerr != nil {
			return nil, aerr
		}
		if kept, err = at.registerLoads(); err != nil {
			return nil, err
		}
	}
	out := map[string]int64{}
	for _, r := range kept {
		v, err := evalInt64(r.n, params)
		if err == nil {
			out[r.property], err = addInt(out[r.property], v)
		}
		if err != nil {
			return nil, errorf(c.k.File, Pos{}, "kernel %s: loads of %s kept in registers: %v", c.k.Name, r.property, err)
		}
	}
	return out, nil
}

// registerLoads counts, for each local load with a block to keep it in
// (registerDrop), its instances less its instances with the block's
// inames it does not depend on projected out, as sharedLoads.
func (c *Counted) registerLoads() ([]sharedLoads, error) {
	items := c.k.coords(true)
	var out []sharedLoads
	for _, l := range c.plan.locals {
		drop := c.k.registerDrop(l)
		if len(drop) == 0 {
			continue
		}
		name := l.acc.Array.Name
		ims, err := c.plan.domainImages(name, l.ref)
		if err != nil {
			return nil, err
		}
		if len(ims) == 0 {
			continue
		}
		var n [2]*polyhedra.PwQPolynomial
		for i, d := range [][]string{nil, drop} {
			u, err := c.plan.instances(name, ims, nil, items, d)
			if err != nil {
				return nil, errorf(c.k.File, l.acc.At, "instruction %s: %v", l.ins.ID, err)
			}
			if n[i], err = c.countSet(u); err != nil {
				return nil, errorf(c.k.File, l.acc.At, "instruction %s: %v", l.ins.ID, err)
			}
		}
		kept, err := difference(n[0], n[1])
		if err != nil {
			return nil, err
		}
		out = append(out, sharedLoads{memProperty(Local, MemAccess{DType: l.acc.Array.DType}), kept})
	}
	return out, nil
}
