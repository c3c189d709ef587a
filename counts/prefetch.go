package counts

import (
	"runtime"
	"sync"

	"github.com/uniperf/uniperf/polyhedra"
)

// The sets of a plan are independent of each other, and counting them is
// nearly all the work of Count, so the counter counts them concurrently
// before it assembles the properties, which then find every count done.

// counted is the outcome of counting one set.
type counted struct {
	n   *polyhedra.PwQPolynomial
	err error
}

// prefetch counts every set of the plan (each is there because counting
// the properties reads it) on up to GOMAXPROCS goroutines. Errors are
// kept with their sets, so that countSet reports the first one that
// counting in order meets, as if the sets had been counted in turn.
func (b *counter) prefetch() {
	n := len(b.p.sets)
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers < 2 {
		return
	}
	results := make([]counted, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i].n, results[i].err = countSet(b.p.texts[i])
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	b.done = results
}
