package counts

import "math"

// ival is an integer interval whose ends may be infinite. The concrete
// domain engine uses it to bound inames before enumerating them. Its
// arithmetic turns overflow into an infinite end, which only loosens a
// bound.
type ival struct {
	lo, hi       int64
	loInf, hiInf bool
}

func point(v int64) ival { return ival{lo: v, hi: v} }

var unbounded = ival{loInf: true, hiInf: true}

func (a ival) empty() bool { return !a.loInf && !a.hiInf && a.lo > a.hi }

func (a ival) bounded() bool { return !a.loInf && !a.hiInf }

func addIval(a, b ival) ival {
	r := ival{loInf: a.loInf || b.loInf, hiInf: a.hiInf || b.hiInf}
	var err error
	if !r.loInf {
		if r.lo, err = addInt(a.lo, b.lo); err != nil {
			r.loInf = true
		}
	}
	if !r.hiInf {
		if r.hi, err = addInt(a.hi, b.hi); err != nil {
			r.hiInf = true
		}
	}
	return r
}

func scaleIval(a ival, k int64) ival {
	if k == 0 {
		return point(0)
	}
	r := ival{loInf: a.loInf, hiInf: a.hiInf}
	var err error
	if !r.loInf {
		if r.lo, err = mulInt(a.lo, k); err != nil {
			r.loInf = true
		}
	}
	if !r.hiInf {
		if r.hi, err = mulInt(a.hi, k); err != nil {
			r.hiInf = true
		}
	}
	if k < 0 {
		r.lo, r.hi, r.loInf, r.hiInf = r.hi, r.lo, r.hiInf, r.loInf
	}
	return r
}

func floorIval(a ival, d int64) ival {
	return ival{lo: floorDiv(a.lo, d), hi: floorDiv(a.hi, d), loInf: a.loInf, hiInf: a.hiInf}
}

func (a ival) intersect(b ival) ival {
	r := a
	if !b.loInf && (r.loInf || b.lo > r.lo) {
		r.lo, r.loInf = b.lo, false
	}
	if !b.hiInf && (r.hiInf || b.hi < r.hi) {
		r.hi, r.hiInf = b.hi, false
	}
	return r
}

func (a ival) hull(b ival) ival {
	if a.empty() {
		return b
	}
	if b.empty() {
		return a
	}
	r := a
	if b.loInf || (!r.loInf && b.lo < r.lo) {
		r.lo, r.loInf = b.lo, b.loInf
	}
	if b.hiInf || (!r.hiInf && b.hi > r.hi) {
		r.hi, r.hiInf = b.hi, b.hiInf
	}
	return r
}

// magnitude is the largest absolute value in a bounded interval.
func (a ival) magnitude() uint64 { return max(absU(a.lo), absU(a.hi)) }

// limit bounds every value and partial sum of the concrete engine's
// unchecked evaluation; bind refuses parameters that could exceed it.
const limit = math.MaxInt64 / 4
