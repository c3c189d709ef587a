package polyhedra

// Fourier–Motzkin elimination with integer tightening: the rational
// relaxation of a basic set, strengthened by Chvátal–Gomory rounding (every
// column is an integer, so a.x + c >= 0 with gcd(a) = g implies
// (a/g).x + floor(c/g) >= 0). What it proves empty has no integer point;
// what it cannot prove empty may still have none. It therefore only serves
// pruning, redundancy and simplification, never the counts themselves.

// fmLimit bounds the rows FM may create before it gives up.
const fmLimit = 600

type fmResult int

const (
	fmFeasible fmResult = iota // no contradiction found
	fmEmpty                    // certainly no integer point
	fmGaveUp                   // too large or overflow: nothing known
)

// fmEliminate eliminates the columns marked in elim from eqs and ineqs.
// On fmFeasible it returns the remaining inequalities and equalities.
func fmEliminate(eqs, ineqs [][]int64, elim []bool) (outEqs, outIneqs [][]int64, res fmResult) {
	cols, outEqs, outIneqs, res := fmOnUsed(eqs, ineqs, elim)
	w := len(elim)
	return expandRows(outEqs, cols, w), expandRows(outIneqs, cols, w), res
}

// fmVerdict is fmEliminate for callers that want only the verdict.
func fmVerdict(eqs, ineqs [][]int64, elim []bool) fmResult {
	_, _, _, res := fmOnUsed(eqs, ineqs, elim)
	return res
}

// fmOnUsed runs fmCompact on the columns some row uses only (bsets carry
// many divs) and returns those columns with its results over them.
func fmOnUsed(eqs, ineqs [][]int64, elim []bool) (cols []int, outEqs, outIneqs [][]int64, res fmResult) {
	cols = usedColumns(eqs, ineqs)
	eqs, ineqs = compactRows(eqs, cols), compactRows(ineqs, cols)
	celim := make([]bool, len(cols))
	for i, c := range cols {
		celim[i] = c < len(elim) && elim[c]
	}
	outEqs, outIneqs, res = fmCompact(eqs, ineqs, celim)
	return cols, outEqs, outIneqs, res
}

// usedColumns lists column 0 and every column some row uses.
func usedColumns(sets ...[][]int64) []int {
	var used []bool
	for _, rows := range sets {
		for _, r := range rows {
			for len(used) < len(r) {
				used = append(used, false)
			}
			for c, v := range r {
				used[c] = used[c] || v != 0
			}
		}
	}
	cols := []int{0}
	for c := 1; c < len(used); c++ {
		if used[c] {
			cols = append(cols, c)
		}
	}
	return cols
}

func compactRows(rows [][]int64, cols []int) [][]int64 {
	out := make([][]int64, len(rows))
	flat := make([]int64, len(rows)*len(cols))
	for i, r := range rows {
		n := flat[i*len(cols) : (i+1)*len(cols) : (i+1)*len(cols)]
		for j, c := range cols {
			if c < len(r) {
				n[j] = r[c]
			}
		}
		out[i] = n
	}
	return out
}

func expandRows(rows [][]int64, cols []int, w int) [][]int64 {
	out := make([][]int64, len(rows))
	for i, r := range rows {
		n := make([]int64, w)
		for j, c := range cols {
			n[c] = r[j]
		}
		out[i] = n
	}
	return out
}

func fmCompact(eqs, ineqs [][]int64, elim []bool) (outEqs, outIneqs [][]int64, res fmResult) {
	var empty bool
	ok := tryNoOverflow(func() {
		s := &fmSys{eqs: eqs, ineqs: ineqs}
		if !s.tidy() {
			empty = true
			return
		}
		for {
			col := s.pick(elim)
			if col < 0 {
				break
			}
			if !s.eliminate(col) {
				empty = true
				return
			}
			if len(s.ineqs) > fmLimit {
				res = fmGaveUp
				return
			}
		}
		outEqs, outIneqs = s.eqs, s.ineqs
	})
	switch {
	case !ok:
		return nil, nil, fmGaveUp
	case empty:
		return nil, nil, fmEmpty
	}
	return outEqs, outIneqs, res
}

type fmSys struct {
	eqs, ineqs [][]int64
}

// signCounts returns how many rows have a positive and how many a
// negative coefficient in column col: its lower and upper bounds.
func signCounts(rows [][]int64, col int) (pos, neg int) {
	for _, r := range rows {
		switch {
		case r[col] > 0:
			pos++
		case r[col] < 0:
			neg++
		}
	}
	return pos, neg
}

// pick chooses the next column to eliminate: one with an equality if
// possible, else the one creating the fewest rows.
func (s *fmSys) pick(elim []bool) int {
	best, bestCost := -1, 0
	for col := 1; col < len(elim); col++ {
		if !elim[col] {
			continue
		}
		for _, r := range s.eqs {
			if r[col] != 0 {
				return col
			}
		}
		pos, neg := signCounts(s.ineqs, col)
		if pos+neg == 0 {
			continue
		}
		cost := pos*neg - pos - neg
		if best < 0 || cost < bestCost {
			best, bestCost = col, cost
		}
	}
	return best
}

func (s *fmSys) eliminate(col int) bool {
	for i, e := range s.eqs {
		a := e[col]
		if a == 0 {
			continue
		}
		if a < 0 {
			e = negRow(e)
			a = -a
		}
		s.eqs = append(s.eqs[:i:i], s.eqs[i+1:]...)
		combine := func(rows [][]int64) {
			for j, r := range rows {
				if c := r[col]; c != 0 {
					n := make([]int64, len(r))
					addScaled(n, a, r)
					addScaled(n, neg64(c), e)
					rows[j] = n
				}
			}
		}
		combine(s.eqs)
		combine(s.ineqs)
		return s.tidy()
	}
	pos, neg, rest := splitBySign(s.ineqs, col)
	for _, p := range pos {
		for _, n := range neg {
			r := make([]int64, len(p))
			addScaled(r, neg64(n[col]), p)
			addScaled(r, p[col], n)
			rest = append(rest, r)
		}
	}
	s.ineqs = rest
	return s.tidy()
}

// tidy normalises rows, removes duplicates and detects contradictions.
func (s *fmSys) tidy() bool {
	eqs := s.eqs[:0]
	for _, r := range s.eqs {
		vars, holds := tightenEq(r)
		if !holds {
			return false
		}
		if vars {
			eqs = append(eqs, r)
		}
	}
	s.eqs = eqs
	idx := newRowIndex()
	defer idx.release()
	ineqs := s.ineqs[:0]
	for _, r := range s.ineqs {
		vars, holds := tightenIneq(r)
		if !holds {
			return false
		}
		if !vars {
			continue
		}
		h := hashRow(r[1:], 1)
		if i := idx.findHash(h, r[1:], 1); i >= 0 {
			if r[0] < ineqs[i][0] {
				ineqs[i][0] = r[0]
			}
			continue
		}
		idx.addHash(h, r[1:])
		ineqs = append(ineqs, r)
	}
	s.ineqs = ineqs
	for _, r := range s.ineqs {
		if i := idx.find(r[1:], -1); i >= 0 && add64(r[0], ineqs[i][0]) < 0 {
			return false
		}
	}
	return true
}

// fmRows returns b's equalities and inequalities, the extra rows, and
// the defining rows of the divs that any of them (or column also, if
// positive) uses; a div that nothing uses constrains nothing.
func (b *bset) fmRows(also int, extra ...[]int64) (eqs, ineqs [][]int64) {
	need := make([]bool, b.width())
	if also > 0 {
		need[also] = true
	}
	for _, rows := range [][][]int64{b.eqs, b.ineqs, extra} {
		for _, r := range rows {
			for c, v := range r {
				need[c] = need[c] || v != 0
			}
		}
	}
	for k := len(b.divs) - 1; k >= 0; k-- {
		if need[b.divCol(k)] {
			for c, v := range b.divs[k].num {
				need[c] = need[c] || v != 0
			}
		}
	}
	ineqs = append(ineqs, b.ineqs...)
	for k, d := range b.divs {
		col := b.divCol(k)
		if !need[col] {
			continue
		}
		lo := copyRow(d.num)
		lo[col] = neg64(d.den)
		hi := negRow(d.num)
		hi[col] = d.den
		hi[0] = add64(hi[0], d.den-1)
		ineqs = append(ineqs, lo, hi)
	}
	return append(eqs, b.eqs...), append(ineqs, extra...)
}

// provablyEmpty reports whether b certainly has no integer point.
func (b *bset) provablyEmpty() bool {
	if b.witness(nil) || !b.fmAllowed() {
		return false
	}
	eqs, ineqs := b.fmRows(0)
	elim := make([]bool, b.width())
	for i := 1; i < len(elim); i++ {
		elim[i] = true
	}
	return fmVerdict(eqs, ineqs, elim) == fmEmpty
}

// implies reports whether every integer point of b satisfies row >= 0
// (as proved by FM on b with the negated row -row - 1 >= 0 added).
func (b *bset) implies(row []int64) bool {
	row = b.fit(copyRow(row))
	cb := b.colBounds()
	if cb.imply(row) {
		return true
	}
	neg := negRow(row)
	neg[0] = sub64(neg[0], 1)
	if b.witness(cb, neg) || !b.fmAllowed() {
		return false
	}
	eqs, ineqs := b.fmRows(0, neg)
	elim := make([]bool, b.width())
	for i := 1; i < len(elim); i++ {
		elim[i] = true
	}
	return fmVerdict(eqs, ineqs, elim) == fmEmpty
}

// impliesEq reports whether b implies row = 0.
func (b *bset) impliesEq(row []int64) bool {
	return b.implies(row) && b.implies(negRow(row))
}

// ratRange returns the bounds FM derives for column col over b.
func (b *bset) ratRange(col int) (lo, hi int64, hasLo, hasHi, empty bool) {
	if !b.fmAllowed() {
		return 0, 0, false, false, false
	}
	eqs, ineqs := b.fmRows(col)
	elim := make([]bool, b.width())
	for i := 1; i < len(elim); i++ {
		elim[i] = i != col
	}
	outEqs, outIneqs, res := fmEliminate(eqs, ineqs, elim)
	switch res {
	case fmEmpty:
		return 0, 0, false, false, true
	case fmGaveUp:
		return 0, 0, false, false, false
	}
	if len(outEqs) > 0 {
		// r[col]*x + r[0] = 0 with r[col] = ±1 after tidy (else empty).
		r := outEqs[0]
		v := r[0]
		if r[col] > 0 {
			v = neg64(v)
		}
		return v, v, true, true, false
	}
	for _, r := range outIneqs {
		if r[col] > 0 { // x + c >= 0
			if v := neg64(r[0]); !hasLo || v > lo {
				lo, hasLo = v, true
			}
		} else if v := r[0]; !hasHi || v < hi { // -x + c >= 0
			hi, hasHi = v, true
		}
	}
	return lo, hi, hasLo, hasHi, false
}

// fmLimitCalls bounds the Fourier–Motzkin runs of one operation, which
// only prune and simplify: once they are spent, the operation goes on
// without them.
const fmLimitCalls = 8000

// fmAllowed charges one Fourier–Motzkin run to b's budget and reports
// whether it may be done.
func (b *bset) fmAllowed() bool {
	if b.work == nil {
		return true
	}
	b.work.fmCalls++
	return b.work.fmCalls <= fmLimitCalls
}
