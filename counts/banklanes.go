package counts

import "strconv"

// lanes evaluates, lane by lane, what bankClasses asks of a local
// access: whether the lane conditions hold, and the flattened index the
// lane reaches, every name but the lane inames at zero. Where neither
// the subscripts nor the conditions hold a floor division, each is
// affine in the lane values, and lanes evaluates it as a constant plus a
// coefficient per axis (a subscript's found by evaluating it at zero and
// at one along each axis): the same numbers as the map's way, without a
// map per lane. Where a floor division, or numbers large enough that the
// forms might overflow, could make them differ, lanes takes the map's
// way.
type lanes struct {
	acc   *Access
	lane  [3]string
	vals  map[string]int64
	conds []dnf
	// affine is set where the forms hold: index, one per subscript, and
	// forms, each condition's conjunctions.
	affine bool
	index  []laneForm
	stride []int64
	forms  [][][]laneForm
}

// laneForm is c + Σ k[a]·v[a]; as a constraint, >= 0, or == 0 where eq.
type laneForm struct {
	c  int64
	k  [3]int64
	eq bool
}

// laneLimit bounds the coefficients and lane values of a form, and its
// constant by laneLimit², so that its value stays far inside int64.
const laneLimit = 1 << 20

// newLanes prepares the evaluation of acc at the lanes lane[a] = v[a]
// (an axis without a lane has ""), v[a] within lo[a]..hi[a], where conds
// hold; vals gives every other name zero.
func newLanes(acc *Access, lane [3]string, lo, hi [3]int64, conds []dnf, vals map[string]int64) *lanes {
	l := &lanes{acc: acc, lane: lane, vals: vals, conds: conds}
	for a := range 3 {
		if lane[a] != "" && (lo[a] < -laneLimit || hi[a] > laneLimit) {
			return l
		}
	}
	a := acc.Array
	for d, ix := range acc.Index {
		f, ok := l.subscriptForm(ix)
		if !ok {
			return l
		}
		l.index = append(l.index, f)
		l.stride = append(l.stride, a.stride(d))
	}
	for _, d := range conds {
		var ds [][]laneForm
		for _, c := range d {
			var cs []laneForm
			for _, x := range c {
				f, ok := l.condForm(x)
				if !ok {
					return l
				}
				cs = append(cs, f)
			}
			ds = append(ds, cs)
		}
		l.forms = append(l.forms, ds)
	}
	l.affine = true
	return l
}

// subscriptForm returns subscript ix as a form of the lane values, if it
// has no floor division and small coefficients. Affine's terms hold one
// iname at most, so that at zero parameters and other inames ix is
// affine in the lanes. Small terms keep Eval's every partial product and
// sum within int64 too, so that it fails at no lane.
func (l *lanes) subscriptForm(ix Affine) (laneForm, bool) {
	var f laneForm
	if len(ix.Floors) > 0 || len(ix.Terms) > laneLimit {
		return f, false
	}
	for _, t := range ix.Terms {
		if t.Coeff > laneLimit || t.Coeff < -laneLimit {
			return f, false
		}
	}
	var err error
	if f.c, err = l.slowEval(ix, [3]int64{}); err != nil {
		return f, false
	}
	for a := range 3 {
		if l.lane[a] == "" {
			continue
		}
		var unit [3]int64
		unit[a] = 1
		v, err := l.slowEval(ix, unit)
		if err != nil {
			return f, false
		}
		f.k[a] = v - f.c
	}
	return f, f.small()
}

// condForm returns constraint x as a form of the lane values, if it has
// no floor division and small coefficients.
func (l *lanes) condForm(x cons) (laneForm, bool) {
	f := laneForm{c: x.e.c, eq: x.eq}
	if len(x.e.floors) > 0 || len(x.e.terms) > laneLimit {
		return f, false
	}
	for _, t := range x.e.terms {
		if t.coef > laneLimit || t.coef < -laneLimit {
			return f, false
		}
		for a := range 3 {
			if l.lane[a] == t.name {
				f.k[a] += t.coef
			}
		}
		// Any other name is zero.
	}
	return f, f.small()
}

// small reports whether f's constant is within laneLimit² and its
// coefficients within laneLimit, so that with lane values within
// laneLimit no sum overflows.
func (f laneForm) small() bool {
	if f.c > laneLimit*laneLimit || f.c < -laneLimit*laneLimit {
		return false
	}
	for _, k := range f.k {
		if k > laneLimit || k < -laneLimit {
			return false
		}
	}
	return true
}

// appendKey appends the forms and strides that at evaluates where l is
// affine, for a key of the classes they make.
func (l *lanes) appendKey(b []byte) []byte {
	for d, f := range l.index {
		b = f.appendKey(b)
		b = strconv.AppendInt(b, l.stride[d], 10)
		b = append(b, ';')
	}
	for _, d := range l.forms {
		b = append(b, '|')
		for _, c := range d {
			for _, f := range c {
				b = f.appendKey(b)
			}
			b = append(b, '/')
		}
	}
	return b
}

// appendKey appends f's numbers, each followed by a comma.
func (f laneForm) appendKey(b []byte) []byte {
	for _, v := range []int64{f.c, f.k[0], f.k[1], f.k[2]} {
		b = strconv.AppendInt(b, v, 10)
		b = append(b, ',')
	}
	return strconv.AppendBool(b, f.eq)
}

func (f laneForm) at(v [3]int64) int64 { return f.c + f.k[0]*v[0] + f.k[1]*v[1] + f.k[2]*v[2] }

// at returns whether the lane at values v is active and the flattened
// index it reaches, as flatIndex computes it.
func (l *lanes) at(v [3]int64) (active bool, flat int64, err error) {
	if !l.affine {
		l.set(v)
		for _, d := range l.conds {
			if !d.holds(l.vals) {
				return false, 0, nil
			}
		}
		flat, err = l.acc.Array.flatIndex(l.acc.Index, l.vals)
		return err == nil, flat, err
	}
	for _, d := range l.forms {
		if !holdsForms(d, v) {
			return false, 0, nil
		}
	}
	for d, f := range l.index {
		flat += f.at(v) * l.stride[d]
	}
	return true, flat, nil
}

// holdsForms reports whether one of the conjunctions d holds at v.
func holdsForms(d [][]laneForm, v [3]int64) bool {
	for _, c := range d {
		ok := true
		for _, f := range c {
			if s := f.at(v); f.eq && s != 0 || !f.eq && s < 0 {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// set gives the lane inames the values v in the map.
func (l *lanes) set(v [3]int64) {
	for a := range 3 {
		if l.lane[a] != "" {
			l.vals[l.lane[a]] = v[a]
		}
	}
}

// slowEval evaluates ix at lane values v by the map's way.
func (l *lanes) slowEval(ix Affine, v [3]int64) (int64, error) {
	l.set(v)
	return ix.Eval(l.vals)
}

// flatIndex evaluates the flattened element index of subscripts of a,
// row-major unless a is column-major.
func (a *Array) flatIndex(index []Affine, vals map[string]int64) (int64, error) {
	var flat int64
	for d := range index {
		v, err := index[d].Eval(vals)
		if err != nil {
			return 0, err
		}
		flat += v * a.stride(d)
	}
	return flat, nil
}

// stride is the distance in elements between neighbours along dimension
// d of a local array (of constant extents), row-major unless a is
// column-major.
func (a *Array) stride(d int) int64 {
	stride := int64(1)
	for e := range a.Shape {
		if (!a.ColMajor && e > d) || (a.ColMajor && e < d) {
			stride *= a.Shape[e].Const
		}
	}
	return stride
}
