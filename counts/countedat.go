package counts

import "fmt"

// This file counts the footprints and the memory-hierarchy counts at
// given parameter values where they have no symbolic count: a flattened
// subscript that does not split into rows (wall[row*cols + c], whose
// pitch is no chain of parameters, m[(offset + i)*matrix_dim + j]) is
// not affine in the inames and parameters together, but with every
// parameter fixed it is, and the image of the domain under it is a set
// package polyhedra counts exactly. The same holds for a set too large to count
// symbolically. The plan of such a count fixes the parameters (plan.at):
// it registers its sets with them fixed and splits the addresses of
// flattened subscripts at them (delinearizeat.go); hierarchyAtParams and
// footprintsAtParams count with it.

// atSizesHint adds to the error of a symbolic footprint or hierarchy
// count what to do instead: count it at given sizes. A kernel without
// parameters has no other sizes, and counting at them fixes nothing, so
// that its sets are the ones that failed: only a change to the kernel
// helps.
func (c *Counted) atSizesHint(err error) error {
	if len(c.k.Params) == 0 {
		return fmt.Errorf("%w; kernel %s has no parameters, so counting at given sizes would count these same sets: rewrite the accesses the message names", err, c.k.Name)
	}
	return fmt.Errorf("%w; given a value for every parameter (uniperf count --param NAME=V), it is counted exactly at those sizes", err)
}

// atParams returns a copy of c whose plan counts the footprint and
// hierarchy sets at params, every parameter given.
func (c *Counted) atParams(params map[string]int64) (*Counted, error) {
	p, err := buildPlan(c.k, c.plan.opts, false)
	if err != nil {
		return nil, err
	}
	p.at = params
	return &Counted{k: c.k, plan: p, params: c.params}, nil
}

// checkAt checks params as Eval checks them, and that inames sharing a
// hardware axis start at the same value there (checkBases), as every
// count at given sizes needs.
func (c *Counted) checkAt(params map[string]int64) error {
	if _, err := c.Eval(params); err != nil {
		return err
	}
	if err := c.k.checkBases(params); err != nil {
		return errorf(c.k.File, Pos{}, "kernel %s: %v", c.k.Name, err)
	}
	return nil
}
