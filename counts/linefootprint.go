package counts

import (
	"math"
	"slices"
)

// The cache-line counts say how many lines of memory a kernel's global
// accesses move: a CPU cache fills and evicts whole lines, so a walk down
// a column of a row-major float matrix moves a 64-byte line for each
// 4-byte element it uses, and its bytes, which the footprints count,
// understate its traffic sixteen times. Each is the number of distinct
// (place, line) pairs: lines of the launch, of each work-group summed
// over the groups, and of each work-item summed over the work-items.
// PoCL's CPU devices run a work-group on one core, its work-items one
// after the other, so the group's lines are what enters that core's
// caches while they hold the group's working set, and a work-item's
// lines what enters them while they hold only its own.
const (
	// LinesLaunch is the number of distinct lines the launch loads or
	// stores.
	LinesLaunch = "global.lines.launch"
	// LinesGroup is the number of distinct lines each work-group loads
	// or stores, summed over the work-groups.
	LinesGroup = "global.lines.group"
	// LinesWorkItem is the number of distinct lines each work-item loads
	// or stores, summed over the work-items.
	LinesWorkItem = "global.lines.workitem"
)

// LineCount is one cache-line count of a global array, or of all of them
// together.
type LineCount struct {
	// Name is one of LinesLaunch, LinesGroup and LinesWorkItem.
	Name string
	// Array is the array counted, "" for the sum over the arrays.
	Array string
	// Approximate is set when a reference counted executes under a
	// condition that reads data: it is counted as if it always executed,
	// and the count is an upper bound. It is set too on the counts of an
	// array with indirect accesses, which are upper bounds (see
	// HierarchyAt).
	Approximate bool
}

// LinesAt returns the cache-line counts at the given parameters, every
// parameter given, for lines of lineBytes bytes (a power of two): for
// each global array in declaration order LinesLaunch, LinesGroup and
// LinesWorkItem, then their sums over the arrays. Each array is taken to
// start on a line boundary (PoCL aligns its buffers to 128 bytes), and
// element e of an array of b-byte elements, at row-major offset e, to lie
// in line floor(e*b/lineBytes).
//
// An array with indirect accesses is bounded as HierarchyAt bounds it:
// at most the executions of those accesses plus the lines of its affine
// references at each place, at most the lines it spans there. The other
// counts are exact, as HierarchyAt's counts at sizes are: with every
// parameter fixed an element's offset is affine in the inames, its line a
// floor of that, and the sets of (work-group or work-item, line) pairs
// are counted by package polyhedra without enumerating them. Work-groups
// and work-items are told apart as HierarchyAt tells them apart.
func (c *Counted) LinesAt(params map[string]int64, lineBytes int64) ([]LineCount, []int64, error) {
	if lineBytes <= 0 || lineBytes&(lineBytes-1) != 0 {
		return nil, nil, errorf(c.k.File, Pos{}, "kernel %s: cache lines of %d bytes: a line is a power of two bytes (64 on x86-64 and most ARM cores)", c.k.Name, lineBytes)
	}
	if err := c.checkAt(params); err != nil {
		return nil, nil, err
	}
	at, err := c.atParams(params)
	if err != nil {
		return nil, nil, err
	}
	// Every array's lines are placed before any is counted: a layout
	// whose lines cannot be counted (a filter's rows that straddle
	// lines) refuses the kernel at once, not after the other arrays'
	// counts, which take most of the time.
	// Where every reference stays inside its array, an array whose rows
	// are whole lines has its lines written per dimension (see
	// rowLines).
	inBounds := c.CheckBounds(params) == nil
	var arrays []*Array
	var placed [][]image
	var approxs []bool
	for _, a := range c.k.Arrays {
		if a.Space != Global || len(at.plan.refs[a.Name]) == 0 && at.plan.indirect[a.Name] == nil {
			continue
		}
		if err := at.knownCells(a, "cache lines", true); err != nil {
			return nil, nil, err
		}
		all, approx, err := at.lineImages(a, lineBytes, inBounds)
		approx = approx || at.plan.indirect[a.Name] != nil
		if err != nil {
			return nil, nil, errorf(c.k.File, a.Pos, "kernel %s: cache lines of %s: %v", c.k.Name, a.Name, err)
		}
		arrays, placed, approxs = append(arrays, a), append(placed, all), append(approxs, approx)
	}
	var out []LineCount
	var vals []int64
	sums := map[string]int64{}
	approxAll := slices.Contains(approxs, true)
	for j, a := range arrays {
		ns, err := at.arrayLines(a.Name, placed[j])
		if u := at.plan.indirect[a.Name]; err == nil && u != nil {
			ns, err = at.boundLines(a, u, ns, lineBytes)
		}
		if err != nil {
			return nil, nil, errorf(c.k.File, a.Pos, "kernel %s: cache lines of %s: %v", c.k.Name, a.Name, err)
		}
		for i, name := range lineCounts {
			out = append(out, LineCount{name, a.Name, approxs[j]})
			vals = append(vals, ns[i])
			if sums[name], err = addInt(sums[name], ns[i]); err != nil {
				return nil, nil, errorf(c.k.File, Pos{}, "kernel %s: %s of all arrays: %v", c.k.Name, name, err)
			}
		}
	}
	if len(out) == 0 {
		return nil, nil, nil
	}
	for _, name := range lineCounts {
		out = append(out, LineCount{name, "", approxAll})
		vals = append(vals, sums[name])
	}
	return out, vals, nil
}

// lineCounts are the counts of LinesAt in their order.
var lineCounts = []string{LinesLaunch, LinesGroup, LinesWorkItem}

// byteOffsetAt returns the byte offset of reference r's element from
// the array's start at the plan's parameter values, affine in the
// inames: row-major, or column-major for a ColMajor array, as the
// interpreter lays arrays out.
func (p *plan) byteOffsetAt(a *Array, r gref) (qaff, error) {
	addr := qconst(0)
	pitch := int64(a.DType.Size())
	for k := range r.index {
		d := len(r.index) - 1 - k
		if a.ColMajor {
			d = k
		}
		ix, err := r.index[d].at(p.at)
		if err == nil {
			addr, err = addr.addScaled(ix, pitch)
		}
		if err == nil && k < len(r.index)-1 {
			var ext int64
			if ext, err = a.Shape[d].Eval(p.at); err == nil {
				pitch, err = mulInt(pitch, ext)
			}
		}
		if err != nil {
			return qaff{}, errorf(p.k.File, a.Pos, "array %s: the address of %s at %s: %v", a.Name, r.index, paramText(p.k.Params, p.at), err)
		}
	}
	return addr, nil
}

// lineImages returns the images of one global array's references with
// their lines in place of their cells, with a plan at fixed parameters,
// and whether a reference runs under a condition that reads data.
// inBounds says that every reference of the kernel stays inside its
// array (CheckBounds).
func (c *Counted) lineImages(a *Array, lineBytes int64, inBounds bool) ([]image, bool, error) {
	p := c.plan
	refs := p.refs[a.Name]
	per, err := p.imagesOf(a.Name, refs)
	if err != nil {
		return nil, false, err
	}
	addrs := make([]qaff, len(refs))
	approx := false
	for i, r := range refs {
		if addrs[i], err = p.byteOffsetAt(a, r); err != nil {
			return nil, false, err
		}
		approx = approx || r.upper
	}
	lines, ok, err := p.rowLines(a, refs, lineBytes)
	if err == nil && (!ok || approx || !inBounds) {
		lines, err = p.lineIndices(a.Name, per, addrs, lineBytes)
	}
	if err != nil {
		return nil, false, err
	}
	var all []image
	for i := range refs {
		for _, im := range per[i] {
			im.idx = nil
			for _, ix := range lines[i] {
				im.idx = append(im.idx, renameQaff(ix, im.names))
			}
			all = append(all, im)
		}
	}
	return all, approx, nil
}

// arrayLines counts the line counts of the global array name, whose
// line images are all, in the order of lineCounts.
func (c *Counted) arrayLines(name string, all []image) ([]int64, error) {
	p := c.plan
	var out []int64
	for _, cs := range [][]coord{nil, c.k.coords(false), c.k.coords(true)} {
		n, err := c.countPlaced(name, all, nil, cs)
		if err != nil {
			return nil, err
		}
		v, err := evalInt64(n, p.at)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// rowLines returns, for each reference of an array of at least two
// dimensions whose rows (its last dimension, its first if ColMajor) are
// whole lines, its line as the tuple of its other subscripts and
// floor(s*b/lineBytes) of the row's subscript s (b-byte elements): ok is
// false for any other array. Where every subscript stays within its
// extent, which the caller checks, distinct lines are distinct tuples
// (the line is the row's number times its lines plus that floor, which
// stays below its lines), so the counts are those of the flat address
// (lineIndices). The tuple keeps a tile's rows and columns apart, so
// that a set of (place, line) pairs at fixed sizes is the product of
// a row part and a column part (countFixed), which bindings that share
// their rows' or columns' tunables share, where the flat address's
// whole-line terms mix rows and columns into one sum.
func (p *plan) rowLines(a *Array, refs []gref, lineBytes int64) ([][]qaff, bool, error) {
	dims := len(a.Shape)
	if dims < 2 {
		return nil, false, nil
	}
	row := dims - 1
	if a.ColMajor {
		row = 0
	}
	ext, err := a.Shape[row].Eval(p.at)
	if err != nil {
		return nil, false, errorf(p.k.File, a.Pos, "array %s: extent %s: %v", a.Name, a.Shape[row], err)
	}
	b := int64(a.DType.Size())
	if rb, err := mulInt(ext, b); err != nil || rb%lineBytes != 0 {
		return nil, false, nil
	}
	out := make([][]qaff, len(refs))
	for i, r := range refs {
		for d := range dims {
			ix, err := r.index[d].at(p.at)
			if err == nil && d == row {
				ix, err = qconst(0).addScaled(ix, b)
				ix = floorOf(ix, lineBytes)
			}
			if err != nil {
				return nil, false, errorf(p.k.File, a.Pos, "array %s: the line of %s at %s: %v", a.Name, r.index, paramText(p.k.Params, p.at), err)
			}
			out[i] = append(out[i], ix)
		}
	}
	return out, true, nil
}

// lineIndices returns, for each reference with byte offset addrs[i]
// (affine in the inames) and images per[i], the index of the line it
// touches, as a tuple that distinct lines keep apart. The line is
// floor(addr/lineBytes); counting the image of that one floor takes the
// counter through residue classes of the whole address, past its budget
// for a matrix of a few thousand rows. So the address is split as
// H*lineBytes + R, H gathering the terms whose coefficients are
// multiples of a line (those of at least m lines), and R the rest, which
// spans a few lines (an offset within a row, a halo): see splitLines and
// baseLines. Where no coefficient is a multiple of a line, the line is
// the one floor where no term steps by a line or more (a vector, a short
// stride). A term that steps by more than a line but not by whole lines
// (rows that straddle lines) is refused: its lines take the counter past
// its budget.
func (p *plan) lineIndices(name string, per [][]image, addrs []qaff, lineBytes int64) ([][]qaff, error) {
	var steps []int64
	for _, a := range addrs {
		for _, t := range a.terms {
			c := max(t.coef, -t.coef)
			if c%lineBytes == 0 {
				steps = append(steps, c/lineBytes)
			} else if c > lineBytes {
				return nil, errorf(p.k.File, p.k.arrayIndex[name].Pos, "array %s: its rows do not start on %d-byte line boundaries at %s (a step of %d bytes along %s), and the lines of such a layout are past the counter's budget; count its lines at sizes whose rows are whole lines (a multiple of %d bytes)", name, lineBytes, paramText(p.k.Params, p.at), c, t.name, lineBytes)
			}
		}
	}
	if len(steps) == 0 {
		out := make([][]qaff, len(addrs))
		for i, a := range addrs {
			out[i] = []qaff{floorOf(a, lineBytes)}
		}
		return out, nil
	}
	slices.Sort(steps)
	for _, m := range slices.Compact(steps) {
		out, ok, err := p.splitLines(per, addrs, lineBytes, m)
		if ok || err != nil {
			return out, err
		}
	}
	return baseLines(addrs, lineBytes)
}

// split returns address a as h*g*lineBytes + r: h gathers the terms of at
// least m lines, divided by g lines (their common divisor), and the
// multiples of g lines of the constant; r the rest.
func split(a qaff, lineBytes, m, g int64) (h, r qaff) {
	block := g * lineBytes
	h = qconst(floorDiv(a.c, block))
	r = qaff{c: a.c - h.c*block, floors: a.floors}
	for _, t := range a.terms {
		if t.coef%lineBytes == 0 && max(t.coef, -t.coef)/lineBytes >= m {
			h.terms = append(h.terms, lterm{t.name, t.coef / block})
		} else {
			r.terms = append(r.terms, t)
		}
	}
	return h, r
}

// commonLines returns the greatest common divisor, in lines, of the
// coefficients of at least m lines of the addresses.
func commonLines(addrs []qaff, lineBytes, m int64) int64 {
	g := int64(0)
	for _, a := range addrs {
		for _, t := range a.terms {
			if v := max(t.coef, -t.coef) / lineBytes; t.coef%lineBytes == 0 && v >= m {
				g = gcd(g, v)
			}
		}
	}
	return g
}

// splitLines returns the lines as pairs (g*h, floor(R/lineBytes)), the
// split of split at m, where floor(R/lineBytes) stays within g
// consecutive values at every point of every reference: the pair is
// then the line written in two digits, a box rather than a residue
// class. ok is false where R leaves that range.
func (p *plan) splitLines(per [][]image, addrs []qaff, lineBytes, m int64) (out [][]qaff, ok bool, err error) {
	g := commonLines(addrs, lineBytes, m)
	highs := make([]qaff, len(addrs))
	lows := make([]qaff, len(addrs))
	for i, a := range addrs {
		highs[i], lows[i] = split(a, lineBytes, m, g)
	}
	lo, hi, err := p.rangeOf(per, lows)
	if err != nil || floorDiv(hi, lineBytes)-floorDiv(lo, lineBytes) >= g {
		return nil, false, err
	}
	out = make([][]qaff, len(addrs))
	for i := range addrs {
		out[i] = []qaff{highs[i], floorOf(lows[i], lineBytes)}
	}
	return out, true, nil
}

// baseLines returns the lines g*h + floor(R/lineBytes) of split at the
// least step, written in base g: the pair (h + floor(R/(g*lineBytes)),
// floor(R/lineBytes) mod g). Distinct lines are distinct pairs whatever
// R's range (a stencil's halo that crosses rows), and only R, not the
// whole address, is divided.
func baseLines(addrs []qaff, lineBytes int64) ([][]qaff, error) {
	g := commonLines(addrs, lineBytes, 1)
	out := make([][]qaff, len(addrs))
	for i, a := range addrs {
		h, r := split(a, lineBytes, 1, g)
		hi, err := h.addScaled(floorOf(r, g*lineBytes), 1)
		if err != nil {
			return nil, err
		}
		lo, err := floorOf(r, lineBytes).addScaled(floorOf(r, g*lineBytes), -g)
		if err != nil {
			return nil, err
		}
		out[i] = []qaff{hi, lo}
	}
	return out, nil
}

// rangeOf returns the least and greatest value of es[i] over the points
// of the images per[i], found by bisection on whether a value lies below
// (above) a bound, an exact count each; lo > hi where no image has a
// point.
func (p *plan) rangeOf(per [][]image, es []qaff) (lo, hi int64, err error) {
	t := p.freshName("r")
	// has reports whether some point takes a value <= m (below) or >= m.
	has := func(m int64, below bool) (bool, error) {
		u := &uset{dims: []string{t}}
		side, _ := qname(t).addScaled(qconst(m), -1) // t - m >= 0
		if below {
			side, _ = qconst(m).addScaled(qname(t), -1)
		}
		for i, ims := range per {
			for _, im := range ims {
				at, err := renameQaff(es[i], im.names).addScaled(qname(t), -1)
				if err != nil {
					return false, err
				}
				u.pieces = append(u.pieces, piece{exists: im.pc.exists, c: slices.Concat(im.pc.c, conj{{at, true}, {side, false}})})
			}
		}
		r := p.counted(p.add(u))
		if r.err != nil {
			return false, r.err
		}
		n, err := evalInt64(r.n, p.at)
		return n > 0, err
	}
	const wide = math.MaxInt64 / 4
	if ok, err := has(wide, true); err != nil || !ok {
		return 1, 0, err
	}
	if lo, err = bisect(-wide, wide, func(m int64) (bool, error) { return has(m, true) }); err != nil {
		return 0, 0, err
	}
	hi, err = bisect(-wide, wide, func(m int64) (bool, error) { above, err := has(m+1, false); return !above, err })
	return lo, hi, err
}
