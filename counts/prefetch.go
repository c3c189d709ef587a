package counts

import (
	"slices"

	"github.com/uniperf/uniperf/polyhedra"
)

// The sets of a plan are independent of each other, and counting them is
// nearly all the work of Count, so in the plan Count builds
// (newCountingPlan) each set is queued for counting as soon as the plan
// registers it: counting overlaps with building the rest of the plan,
// and the sets with each other, GOMAXPROCS at a time (see workers).
// Each count is also simplified against the kernel's assumptions there,
// as evaluation needs (see Counted.gist). Counting errors are kept with
// their sets, so that the counter reports the first one that counting in
// order meets, as if the sets had been counted in turn.

// startCount counts set i in the background, and simplifies the count
// against the assumptions there too; should that fail, Counted.gist
// tries again and reports the error.
func (p *plan) startCount(i int) *counting {
	r := &counting{done: make(chan struct{})}
	// The plan goes on appending to its slices while the set counts, so
	// the worker gets the set itself, not its index.
	u, text, bare := p.sets[i], p.texts[i], p.bare[i]
	p.workers.run(func() {
		defer close(r.done)
		if r.n, r.err = p.countOf(u, text, bare); r.err == nil {
			r.gisted = p.gist(r.n)
		}
	}, false)
	return r
}

// countNow counts set i in the calling goroutine, for a caller that
// would only wait (footprints, counted after Count, need no simplified
// form either); at p.at where that is set.
func (p *plan) countNow(i int) *counting {
	r := &counting{done: make(chan struct{})}
	if p.bare[i] {
		r.n, r.err = p.countOf(p.sets[i], p.texts[i], true)
	} else {
		r.n, r.err = countSetAt(p.texts[i], p.at, p.opts.Limits)
	}
	close(r.done)
	return r
}

// countOf counts the set u, whose text is text: part by part where its
// parameters are fixed (bare), else whole.
func (p *plan) countOf(u *uset, text string, bare bool) (*polyhedra.PwQPolynomial, error) {
	if bare {
		return countFixed(u, text, p.opts.Shared, p.opts.Limits)
	}
	return countSet(text, p.opts.Limits)
}

// gist returns n simplified against the assumptions, or nil if that
// fails.
func (p *plan) gist(n *polyhedra.PwQPolynomial) *polyhedra.PwQPolynomial {
	if p.fixed != nil {
		return n // as Counted.gist keeps it
	}
	g, err := n.Gist(p.ctx)
	if err != nil {
		return nil
	}
	return g
}

// startMax finds the maximum of the counts of sets in the background
// once they are counted: a launch size along an axis that several inames
// share is such a maximum, and Max takes as long as counting a small
// set. It takes the maximum of the simplified counts, half the work of
// the maximum of the counts themselves, which is only needed to print
// properties: the sets of a launch size are projections of the domain,
// which includes the assumptions, so every count is zero where they fail,
// and the maximum is the maximum where they hold times their indicator
// (see Counted.value). Should that fail, it takes the maximum of the
// counts themselves.
func (p *plan) startMax(sets factor) *counting {
	r := &counting{done: make(chan struct{})}
	pending := make([]*counting, len(sets)) // p.counts grows meanwhile
	for i, s := range sets {
		pending[i] = p.counting(s)
	}
	go func() {
		counts := make([]*polyhedra.PwQPolynomial, len(sets))
		gisted := make([]*polyhedra.PwQPolynomial, len(sets))
		for i, c := range pending {
			<-c.done // before queueing, so as not to hold a worker
			if c.err != nil {
				r.err = c.err
				close(r.done)
				return
			}
			counts[i], gisted[i] = c.n, c.gisted
		}
		p.workers.run(func() {
			defer close(r.done)
			r.max(p, counts, gisted)
		}, true)
	}()
	return r
}

// max sets r to the maximum of counts, as startMax describes.
func (r *counting) max(p *plan, counts, gisted []*polyhedra.PwQPolynomial) {
	if !slices.Contains(gisted, nil) {
		if m, err := maxOf(gisted); err == nil {
			if r.gisted = p.gist(m); r.gisted != nil {
				r.assumed = m
				return
			}
		}
	}
	if r.n, r.err = maxOf(counts); r.err == nil {
		r.gisted = p.gist(r.n)
	}
}

// startMaxes starts finding the maximum of every factor with several
// sets that the plan's terms use.
func (p *plan) startMaxes() {
	p.maxes = map[string]*counting{}
	start := func(t term) {
		for _, f := range t.factors {
			if len(f) > 1 && p.maxes[f.key()] == nil {
				p.maxes[f.key()] = p.startMax(f)
			}
		}
	}
	for _, ts := range p.static {
		for _, t := range ts {
			start(t)
		}
	}
	for _, g := range p.global {
		start(g.count)
	}
}

// counted waits for the count of plan set i.
func (p *plan) counted(i int) *counting {
	r := p.counting(i)
	<-r.done
	return r
}

// counting returns the count of plan set i, under way, or counts it
// now if it has not started.
func (p *plan) counting(i int) *counting {
	if p.counts[i] == nil {
		p.counts[i] = p.countNow(i)
	}
	return p.counts[i]
}
