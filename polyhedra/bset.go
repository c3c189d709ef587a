package polyhedra

// A bset is a basic set: a conjunction of affine constraints with integer
// coefficients. Every row, constraint or div numerator, has one entry per
// column, in the order
//
//	[constant | parameters | set dimensions | divs]
//
// A div is floor(num/den) for an affine num over the columns before its own
// and den > 1; it is a function of the other columns, so a bset has no
// existential variables left. The implicit constraints
// den*d <= num <= den*d + den - 1 that define a div are never stored.
//
// While counting, a bset also carries the summand poly, a polynomial over
// the same columns, and a basic set with no dimensions left together with
// its poly is one piece of a piecewise quasi-polynomial.
type bset struct {
	np, nd int
	divs   []div
	eqs    [][]int64 // row = 0
	ineqs  [][]int64 // row >= 0
	poly   *poly     // nil unless counting
	lifts  int       // divs lifted into dimensions so far (see liftDiv)
	work   *budget   // shared by the bsets of one operation; nil: unlimited
}

type div struct {
	num []int64
	den int64
}

func newBset(np, nd int) *bset { return &bset{np: np, nd: nd} }

func (b *bset) width() int       { return 1 + b.np + b.nd + len(b.divs) }
func (b *bset) firstDim() int    { return 1 + b.np }
func (b *bset) firstDiv() int    { return 1 + b.np + b.nd }
func (b *bset) divCol(k int) int { return b.firstDiv() + k }
func (b *bset) newRow() []int64  { return make([]int64, b.width()) }

// unit returns the row of column col with coefficient k.
func (b *bset) unit(col int, k int64) []int64 {
	r := b.newRow()
	r[col] = k
	return r
}

// fit pads a row computed before divs were added to the current width.
func (b *bset) fit(row []int64) []int64 {
	if len(row) < b.width() {
		row = append(row, make([]int64, b.width()-len(row))...)
	}
	return row
}

func (b *bset) clone() *bset {
	c := &bset{np: b.np, nd: b.nd, poly: b.poly.clone(), lifts: b.lifts, work: b.work}
	var nums [][]int64
	nums, c.eqs, c.ineqs = cloneRows(b.divNums(), b.eqs, b.ineqs)
	c.divs = make([]div, len(b.divs))
	for k, num := range nums {
		c.divs[k] = div{num, b.divs[k].den}
	}
	return c
}

// divNums returns the numerators of b's divs.
func (b *bset) divNums() [][]int64 {
	if len(b.divs) == 0 {
		return nil
	}
	nums := make([][]int64, len(b.divs))
	for k, d := range b.divs {
		nums[k] = d.num
	}
	return nums
}

// cloneSharingDivs is clone for a bset whose divs, and its copy's,
// will not change: the copy shares them and the poly. disjointSum's
// cells only gain constraints, and copying the pieces' common divs was
// most of the cost of a split.
func (b *bset) cloneSharingDivs() *bset {
	c := *b
	_, c.eqs, c.ineqs = cloneRows(nil, b.eqs, b.ineqs)
	return &c
}

// cloneRows copies three lists of rows with one allocation for the
// numbers and one for the lists: sets are cloned far more often than
// they grow. Each row's and each list's capacity ends where it does, so
// that appending a column to a row (padRows) or a row to a list moves
// it rather than overwriting the next.
func cloneRows(a, b, c [][]int64) (ca, cb, cc [][]int64) {
	n := 0
	for _, rows := range [...][][]int64{a, b, c} {
		for _, r := range rows {
			n += len(r)
		}
	}
	flat := make([]int64, n)
	all := make([][]int64, len(a)+len(b)+len(c))
	list := func(rows [][]int64) [][]int64 {
		out := all[:len(rows):len(rows)]
		all = all[len(rows):]
		for i, r := range rows {
			k := copy(flat, r)
			out[i], flat = flat[:k:k], flat[k:]
		}
		return out
	}
	return list(a), list(b), list(c)
}

func (b *bset) addIneq(row []int64) { b.ineqs = append(b.ineqs, b.fit(row)) }
func (b *bset) addEq(row []int64)   { b.eqs = append(b.eqs, b.fit(row)) }

// appendDivCol adds a column for a new div at the end.
func (b *bset) appendDivCol(num []int64, den int64) int {
	b.eqs = padRows(b.eqs)
	b.ineqs = padRows(b.ineqs)
	for k := range b.divs {
		b.divs[k].num = append(b.divs[k].num, 0)
	}
	b.divs = append(b.divs, div{append(b.fit(copyRow(num)), 0), den})
	return b.width() - 1
}

func padRows(rows [][]int64) [][]int64 {
	for i := range rows {
		rows[i] = append(rows[i], 0)
	}
	return rows
}

// usesCol reports whether column col occurs in a constraint, a div or the poly.
func (b *bset) usesCol(col int) bool {
	for _, r := range b.eqs {
		if r[col] != 0 {
			return true
		}
	}
	for _, r := range b.ineqs {
		if r[col] != 0 {
			return true
		}
	}
	for _, d := range b.divs {
		if d.num[col] != 0 {
			return true
		}
	}
	return b.poly.usesCol(col)
}

// substitute replaces column col by the affine expression expr everywhere.
// expr may contain col itself (x := M*x + r). A div column may only be
// replaced by an expression over earlier columns and itself, so that divs
// keep depending on earlier columns only; the caller renormalises the divs.
func (b *bset) substitute(col int, expr []int64) {
	expr = b.fit(copyRow(expr))
	sub := func(rows [][]int64) {
		for _, r := range rows {
			if c := r[col]; c != 0 {
				r[col] = 0
				addScaled(r, c, expr)
			}
		}
	}
	sub(b.eqs)
	sub(b.ineqs)
	for k := range b.divs {
		r := b.divs[k].num
		if c := r[col]; c != 0 {
			r[col] = 0
			addScaled(r, c, expr)
		}
	}
	if b.poly != nil {
		b.poly = b.poly.substitute(col, polyFromRow(expr))
	}
}

// remap moves every column c to colMap[c] in a bset with np parameters and
// nd dimensions; the divs follow at the end in their order. A column mapped
// to -1 is dropped and must be unused. Div columns must map to the div
// area in their order.
func (b *bset) remap(np, nd int, colMap []int) {
	w := 1 + np + nd + len(b.divs)
	move := func(r []int64) []int64 {
		out := make([]int64, w)
		for c, v := range r {
			if v == 0 {
				continue
			}
			if colMap[c] < 0 {
				panic("polyhedra: remap drops a used column")
			}
			out[colMap[c]] = v
		}
		return out
	}
	for i, r := range b.eqs {
		b.eqs[i] = move(r)
	}
	for i, r := range b.ineqs {
		b.ineqs[i] = move(r)
	}
	for k := range b.divs {
		b.divs[k].num = move(b.divs[k].num)
	}
	if b.poly != nil {
		b.poly = b.poly.remap(colMap)
	}
	b.np, b.nd = np, nd
}

// identityMap returns the column map of b that keeps every column.
func (b *bset) identityMap() []int {
	m := make([]int, b.width())
	for i := range m {
		m[i] = i
	}
	return m
}

// deleteCol removes an unused column: a parameter, a dimension or a div.
func (b *bset) deleteCol(col int) {
	m := b.identityMap()
	m[col] = -1
	for c := col + 1; c < len(m); c++ {
		m[c] = c - 1
	}
	np, nd := b.np, b.nd
	switch {
	case col >= b.firstDiv():
		k := col - b.firstDiv()
		b.divs = append(b.divs[:k], b.divs[k+1:]...)
	case col >= b.firstDim():
		nd--
	default:
		np--
	}
	b.remap(np, nd, m)
}

// constantlyFalse reports whether a constraint of b without variables
// fails (1 = 0, -1 >= 0).
func (b *bset) constantlyFalse() bool {
	for _, r := range b.eqs {
		if r[0] != 0 && isZeroRow(r[1:]) {
			return true
		}
	}
	for _, r := range b.ineqs {
		if r[0] < 0 && isZeroRow(r[1:]) {
			return true
		}
	}
	return false
}

// contains evaluates the divs of a dimensionless bset at the parameter
// values and reports whether every constraint holds; it returns all column
// values.
func (b *bset) contains(params []int64) ([]int64, bool) {
	cols := make([]int64, b.width())
	cols[0] = 1
	copy(cols[1:], params)
	return cols, b.holds(cols)
}

// holds computes the div columns of cols (the other columns given) and
// checks the constraints.
func (b *bset) holds(cols []int64) bool {
	for k, d := range b.divs {
		cols[b.divCol(k)] = floorDiv(dot(d.num, cols), d.den)
	}
	for _, r := range b.eqs {
		if dot(r, cols) != 0 {
			return false
		}
	}
	for _, r := range b.ineqs {
		if dot(r, cols) < 0 {
			return false
		}
	}
	return true
}

// dot returns row·cols with cols[0] = 1, checked for overflow.
func dot(row, cols []int64) int64 {
	var s int64
	for j, v := range row {
		if v != 0 {
			s = add64(s, mul64(v, cols[j]))
		}
	}
	return s
}

// boundsOn splits b's inequalities into x's lower bounds, its upper
// bounds and the rest, which do not involve x.
func (b *bset) boundsOn(x int) (lows, ups, rest [][]int64) {
	return splitBySign(b.ineqs, x)
}
