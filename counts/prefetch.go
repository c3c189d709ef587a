package counts

import (
	"runtime"

	"github.com/uniperf/uniperf/polyhedra"
)

// The sets of a plan are independent of each other, and counting them is
// nearly all the work of Count, so each set starts counting on a
// goroutine of its own as soon as the plan registers it: counting
// overlaps with building the rest of the plan, and the sets with each
// other, GOMAXPROCS at a time. Each count is also simplified against the
// kernel's assumptions there, as evaluation needs (see Counted.gist).
// Errors are kept with their sets, so that the counter reports the first
// one that counting in order meets, as if the sets had been counted in
// turn.

// counting is the eventual outcome of counting one set.
type counting struct {
	done   chan struct{}
	n      *polyhedra.PwQPolynomial
	gisted *polyhedra.PwQPolynomial // n where the assumptions hold
	err    error
}

// newSlots returns the semaphore that limits the sets counting at once.
func newSlots() chan struct{} { return make(chan struct{}, runtime.GOMAXPROCS(0)) }

// startCount counts a set, given in isl notation, in the background.
func (p *plan) startCount(text string) *counting {
	r := &counting{done: make(chan struct{})}
	go func() {
		p.slots <- struct{}{}
		defer func() {
			<-p.slots
			close(r.done)
		}()
		if r.n, r.err = countSet(text); r.err == nil {
			r.gisted, r.err = r.n.Gist(p.ctx)
		}
	}()
	return r
}

// counted waits for the count of plan set i.
func (p *plan) counted(i int) *counting {
	r := p.counts[i]
	<-r.done
	return r
}
