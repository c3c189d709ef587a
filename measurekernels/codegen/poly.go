package codegen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/polyhedra"
)

// newPolyDomain projects k's domain onto no iname (the assumptions) and
// computes the first values of its parallel inames and the hardware facts,
// the contexts that loops and guards are then simplified against.
func newPolyDomain(k *counts.Kernel) (*polyDomain, error) {
	params := map[string]bool{}
	for _, p := range k.Params {
		params[p] = true
	}
	d := &polyDomain{k: k, sets: map[string]*polyhedra.Set{}, firsts: map[string]firstValue{},
		simp: simplifier{header: "[" + strings.Join(k.Params, ", ") + "] -> ", params: params}}
	var err error
	if d.assume, err = d.projected(nil); err != nil {
		return nil, err
	}
	for _, in := range k.Inames {
		if !in.Tag.Parallel() {
			continue
		}
		if d.firsts[in.Name], err = d.first(in.Name); err != nil {
			return nil, fmt.Errorf("iname %s: %w", in.Name, err)
		}
	}
	if d.hardware, err = d.hardwareFacts(); err != nil {
		return nil, err
	}
	if d.loose, err = d.looseRanges(); err != nil {
		return nil, err
	}
	return d, nil
}

// looseRanges are the constant ranges of the unrolled inames whose loops
// run over them: those whose bounds over the domain projected onto them
// (the parameters and every other iname left free) have one piece with a
// constant first and last value, and which the assumptions alone do not
// bound by constants (a loop "for (ti = 0; ti <= imin(TY - 1, (n - 1 -
// ty)/BY); ++ti)"). The constants bound the iname wherever it runs, so
// the loop visits every value of the domain. An iname that the
// assumptions bound by constants keeps its loops, guards and all, as
// does one bounded only by other inames (a triangle's j <= i): the
// decision is the iname's, never its loop's, so that every context in
// which it is known says the same (see context).
func (d *polyDomain) looseRanges() (map[string][2]int64, error) {
	out := map[string][2]int64{}
	for _, in := range d.k.Inames {
		if in.Tag.Kind != counts.Unroll || in.Data != nil {
			continue
		}
		s, err := d.projected([]string{in.Name})
		if err != nil {
			return nil, fmt.Errorf("iname %s: %w", in.Name, err)
		}
		r, err := constBounds(s, in.Name)
		if err != nil {
			return nil, fmt.Errorf("iname %s: %w", in.Name, err)
		}
		if r.pieces != 1 || !r.small() || r.lo > r.hi {
			continue
		}
		lb, err := d.loopBounds(d.assume, in.Name, nil)
		if err != nil {
			return nil, fmt.Errorf("iname %s: %w", in.Name, err)
		}
		if !constantBounds(lb) {
			out[in.Name] = [2]int64{r.lo, r.hi}
		}
	}
	return out, nil
}

func (d *polyDomain) base(x string) ([]string, string, error) {
	f, ok := d.firsts[x]
	if !ok {
		return nil, "", fmt.Errorf("%s is not a parallel iname", x)
	}
	return f.stmts, f.expr, nil
}

func (d *polyDomain) loop(x string, known, lanes []string) (loopBounds, error) {
	if lb, ok := d.looseLoop(x); ok {
		return lb, nil
	}
	ctx, err := d.context(known)
	if err != nil {
		return loopBounds{}, err
	}
	if len(lanes) > 0 {
		if ctx, err = polyhedra.Intersect(ctx, d.hardware); err != nil {
			return loopBounds{}, err
		}
		known = inameOrder(d.k, slices.Concat(known, lanes))
	}
	lb, err := d.loopBounds(ctx, x, known)
	if err != nil {
		return loopBounds{}, err
	}
	lb.lo, lb.hi = d.plainDivs(ctx, known, lb.lo), d.plainDivs(ctx, known, lb.hi)
	return lb, nil
}

// loopBounds bounds x within ctx, where the values of known are given.
func (d *polyDomain) loopBounds(ctx *polyhedra.Set, x string, known []string) (loopBounds, error) {
	ps, err := d.pieces(ctx, x, known)
	if err != nil {
		return loopBounds{}, err
	}
	switch len(ps) {
	case 0:
		return loopBounds{lo: "0", hi: "-1"}, nil
	case 1:
		p := ps[0]
		lo, err := p.lo(nil)
		if err != nil {
			return loopBounds{}, err
		}
		hi, err := p.hi(nil)
		if err != nil {
			return loopBounds{}, err
		}
		return loopBounds{guard: conj(p.guard, nil), lo: lo, hi: hi, filter: conj(p.all, nil)}, nil
	}
	return d.multiLoop(ctx, x, known, ps)
}

// multiLoop runs x from the smallest first value of the pieces whose
// guards hold to the largest last value, and tests membership in the
// pieces inside. (Running the pieces one after the other would visit
// values out of order where several hold at once.)
func (d *polyDomain) multiLoop(ctx *polyhedra.Set, x string, known []string, ps []piece) (loopBounds, error) {
	var los, his []string
	for _, p := range ps {
		lo, err := p.lo(nil)
		if err != nil {
			return loopBounds{}, err
		}
		hi, err := p.hi(nil)
		if err != nil {
			return loopBounds{}, err
		}
		if g := conj(p.guard, nil); g != "" {
			lo = "((" + g + ") ? " + lo + " : " + intMax + ")"
			hi = "((" + g + ") ? " + hi + " : " + intMin + ")"
		}
		los, his = append(los, lo), append(his, hi)
	}
	// A bound that every piece has holds between the loop's bounds.
	var common []cond
	for _, c := range ps[0].all {
		if c.side != 0 && !slices.ContainsFunc(ps[1:], func(p piece) bool {
			return !slices.ContainsFunc(p.all, func(o cond) bool { return o.isl == c.isl })
		}) {
			common = append(common, c)
		}
	}
	dims := append(slices.Clone(known), x)
	inner, err := d.simp.within(ctx, dims, common)
	if err != nil {
		return loopBounds{}, err
	}
	var ors []string
	for _, p := range ps {
		all := slices.Clone(p.all)
		for i := range all {
			all[i].side = 0 // bounds are tests here, and may all go
		}
		m, err := d.simp.gist(inner, dims, append(slices.Clone(p.guard), all...))
		if err != nil {
			return loopBounds{}, err
		}
		if len(m) == 0 {
			ors = nil
			break
		}
		ors = append(ors, "("+allConj(m)+")")
	}
	lo, err := fold("imin", los)
	if err != nil {
		return loopBounds{}, err
	}
	hi, err := fold("imax", his)
	if err != nil {
		return loopBounds{}, err
	}
	return loopBounds{lo: lo, hi: hi, filter: strings.Join(ors, " || ")}, nil
}

// member is the test that the current values of inames lie in their
// projected domain, where those of known do.
func (d *polyDomain) member(inames, known []string) (string, error) {
	ctx, err := d.context(known)
	if err != nil {
		return "", err
	}
	if ctx, err = polyhedra.Intersect(ctx, d.hardware); err != nil {
		return "", err
	}
	s, err := d.projected(inames)
	if err != nil {
		return "", err
	}
	// The constraints of s are the guards of a dimension fixed to 0.
	const dummy = "uniperf_point_"
	z, err := d.simp.set([]string{dummy}, []string{dummy + " = 0"})
	if err != nil {
		return "", err
	}
	if s, err = polyhedra.Intersect(s, z); err != nil {
		return "", err
	}
	raw, err := s.Bounds(dummy, inames)
	if err != nil {
		return "", err
	}
	var ors []string
	for _, r := range raw {
		cs := d.simp.constraints(r.Guard)
		if never, err := d.simp.isEmpty(ctx, inames, cs); err != nil || never {
			if err != nil {
				return "", err
			}
			continue
		}
		m, err := d.simp.gist(ctx, inames, cs)
		if err != nil {
			return "", err
		}
		if len(m) == 0 {
			return "", nil
		}
		ors = append(ors, allConj(m))
	}
	switch len(ors) {
	case 0:
		return "0", nil
	case 1:
		return ors[0], nil
	}
	for i, o := range ors {
		ors[i] = "(" + o + ")"
	}
	return strings.Join(ors, " || "), nil
}

// plainDivs writes floordiv(a, b) in s as a/b where ctx implies a >= 0 at
// every point of dims: C's / then rounds down, as floor does, and the
// bound reads (m + 15)/16 as a person writes it.
func (d *polyDomain) plainDivs(ctx *polyhedra.Set, dims []string, s string) string {
	const fn = "floordiv("
	var b strings.Builder
	for {
		i := strings.Index(s, fn)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		depth, k := 1, i+len(fn)
		for ; k < len(s) && depth > 0; k++ {
			switch s[k] {
			case '(':
				depth++
			case ')':
				depth--
			}
		}
		args := s[i+len(fn) : k-1]
		comma := strings.LastIndex(args, ", ")
		if depth != 0 || comma < 0 {
			b.WriteString(s)
			return b.String()
		}
		num, den := args[:comma], args[comma+2:]
		b.WriteString(s[:i])
		nonNeg := false
		if !strings.Contains(num, fn) {
			ok, err := d.simp.implied(ctx, dims, nil, num+" >= 0")
			nonNeg = err == nil && ok
		}
		switch {
		case !nonNeg:
			b.WriteString(fn + d.plainDivs(ctx, dims, num) + ", " + den + ")")
		case strings.HasSuffix(s[:i], "*") || strings.HasSuffix(s[:i], "-"):
			// 16*(a/16) is not (16*a)/16.
			b.WriteString("(" + parenthesized(num) + "/" + den + ")")
		default:
			b.WriteString(parenthesized(num) + "/" + den)
		}
		s = s[k:]
	}
}
