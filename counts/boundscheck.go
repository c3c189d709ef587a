package counts

import (
	"errors"
	"fmt"
	"slices"

	"github.com/uniperf/uniperf/polyhedra"
)

// CheckBounds reports the first array reference (global, local or
// private, temporaries included) that reaches outside its array at the
// given parameter values: an error naming the instruction, the reference,
// the dimension, the index range it takes and the extent. A count at such
// sizes would price accesses that no run can make. References under
// conditions that read data (if a[i] > 0: ...) are left to the
// interpreter, which checks every access it makes: the affine conditions
// around them bound a superset of what runs.
func (c *Counted) CheckBounds(params map[string]int64) error {
	if _, err := c.args(params); err != nil {
		return err
	}
	k := c.k
	var dom []piece
	var box *boxedDomain
	for i, b := range c.plan.bounded {
		a := b.acc.Array
		if i == 0 || !sameDomain(b, c.plan.bounded[i-1]) {
			var err error
			if dom, err = c.accessDomain(b); err != nil {
				return errorf(k.File, b.acc.At, "instruction %s: %s: %v", b.ins.ID, b.acc, err)
			}
			box = nil
		}
		b.domain = dom
		for d, ix := range b.acc.Index {
			ext, err := a.Shape[d].Eval(params)
			if err != nil {
				return errorf(k.File, a.Pos, "array %s: extent %s: %v", a.Name, a.Shape[d], err)
			}
			if box == nil {
				box = c.accessBox(b, params)
			}
			r, rok := box.enclose(ix, params, ext)
			if rok && (r.empty() || r.lo >= 0 && r.hi < ext) {
				continue
			}
			if outside, decided := c.reachesOutside(b, ix, params, ext, quickBoundsCandidates); decided && !outside {
				continue
			}
			lo, hi, ok, err := c.indexRange(b, ix, params)
			var ce *polyhedra.ComplexityError
			var be *polyhedra.BudgetError
			if rok && (errors.As(err, &ce) || errors.As(err, &be)) {
				return errorf(k.File, b.acc.At, "instruction %s: %s: cannot decide whether subscript %d (%s) stays within 0..%d at %s: it takes values within %d..%d, and finding them exactly stopped: %v; check the kernel at smaller sizes",
					b.ins.ID, b.acc, d+1, ix, ext-1, paramText(k.Params, params), r.lo, r.hi, err)
			}
			if err != nil {
				return errorf(k.File, b.acc.At, "instruction %s: %s: %v", b.ins.ID, b.acc, err)
			}
			if ok && (lo < 0 || hi >= ext) {
				return errorf(k.File, b.acc.At, "instruction %s: %s is out of bounds at %s: its subscript %d (%s) takes %d..%d, and %s has extent %d there%s",
					b.ins.ID, b.acc, paramText(k.Params, params), d+1, ix, lo, hi, a.Name, ext, pastEndHint(a, d, hi, ext))
			}
		}
	}
	return nil
}

// indexRange returns the least and greatest value of subscript ix over
// the execution domain of b at params; ok is false where b never runs.
// It scans the values inwards from both ends of their bounding range,
// which takes a few tries for most subscripts. Where that fails within
// quickBoundsCandidates (or the values are beyond what enumeration
// handles), it finds them exactly by projection (exactRange), and only
// where projection fails (its own limits, an overflow of its
// arithmetic) does it scan on, up to maxBoundsCandidates. A scan fails slowly where the domain's affine
// guards cut the range's ends away: each value near an end is refuted by
// a search of the whole domain (an imported tiled convolution whose tiles
// overhang the image, if (y < input_height && x < input_width) around a
// flattened load, took seconds a configuration, and projection
// milliseconds).
func (c *Counted) indexRange(b boundedAccess, ix Affine, params map[string]int64) (lo, hi int64, ok bool, err error) {
	if lo, hi, ok, err = c.scannedRange(b, ix, params, quickBoundsCandidates, quickBoundsCandidates); err == nil {
		return lo, hi, ok, nil
	}
	lo, hi, ok, err = c.exactRange(b, ix, params)
	if err == nil {
		return lo, hi, ok, nil
	}
	if slo, shi, sok, serr := c.scannedRange(b, ix, params, maxBoundsCandidates, 0); serr == nil {
		return slo, shi, sok, nil
	}
	return lo, hi, ok, err
}

// scannedRange is indexRange by enumeration, within budget candidate
// values and, where searches is positive, that many searches of the
// domain (see query.searches).
func (c *Counted) scannedRange(b boundedAccess, ix Affine, params map[string]int64, budget, searches int64) (lo, hi int64, ok bool, err error) {
	u, err := c.indexSet(b, ix, params)
	if err != nil {
		return 0, 0, false, err
	}
	defer recoverRun(&err)
	qu, err := u.query(c.k.File, c.k.Params, params, budget)
	if err != nil {
		return 0, 0, false, err
	}
	qu.searches, qu.limited = searches, searches > 0
	lo, hi, ok = qu.extremes(slices.Clone(qu.e.base))
	return lo, hi, ok, nil
}

// quickBoundsCandidates bounds the first scan of a subscript's values
// (milliseconds), maxBoundsCandidates the scan where projection has
// stopped (seconds).
const (
	quickBoundsCandidates = 1 << 16
	maxBoundsCandidates   = 1 << 26
)

// sameDomain reports whether a and b, accesses of one instruction in
// turn, execute in the same inames under the same conditions, so that
// the second's domain and box are the first's (the tiled convolution's
// accumulation reads and writes four arrays in one domain).
func sameDomain(a, b boundedAccess) bool {
	return a.ins == b.ins && slices.Equal(a.inames, b.inames) && len(a.conds) == len(b.conds) &&
		(len(a.conds) == 0 || &a.conds[0] == &b.conds[0])
}

// pastEndHint is what to write where subscript d of global array a
// reaches hi, past its extent ext: a tiled kernel's edge block loads its
// whole tile, halo included, and C lets it read past the logical image
// into what the host allocated beyond it, so the declared extent is the
// allocation, not the image. Local and private arrays are the kernel's
// own and get no hint; nor does a subscript below 0.
func pastEndHint(a *Array, d int, hi, ext int64) string {
	if a.Space != Global || hi < ext {
		return ""
	}
	return fmt.Sprintf(", so it reaches %d..%d past the end. %s, at least %d along subscript %d at these sizes (%s)",
		ext, hi, allocAdvice, hi+1, d+1, declareAllocation(a))
}

// allocAdvice is the first half of what to write where a global
// array's reference reaches past its extent, declareAllocation the
// forms that declare it.
const allocAdvice = "If the host allocates more (the halo or padding an edge block reads, as C allows), declare the extent the host allocates"

func declareAllocation(a *Array) string {
	return fmt.Sprintf("array %s %s [...]; in uniperf import, --array %s=EXTENT, or // uniperf: --array %s=EXTENT in the source", a.Name, a.DType, a.Name, a.Name)
}

// pastEndRun is the interpreter's advice where an affine reference to
// global array a reaches index vals, past its extents ext along some
// subscript.
func pastEndRun(a *Array, vals, ext []int64) string {
	if a.Space != Global {
		return ""
	}
	for d, v := range vals {
		if v >= ext[d] {
			return fmt.Sprintf(": %s (%s)", allocAdvice, declareAllocation(a))
		}
	}
	return ""
}
