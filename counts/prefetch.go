package counts

import (
	"runtime"
	"slices"
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

// needed lists, ascending, the plan sets that counting the properties
// reads: the factors of every term and, for accesses whose class depends
// on utilization, the footprint's cells and extents.
func (b *counter) needed() []int {
	var out []int
	addTerm := func(t term) {
		for _, f := range t.factors {
			out = append(out, f...)
		}
	}
	for _, ts := range b.p.static {
		for _, t := range ts {
			addTerm(t)
		}
	}
	for _, g := range b.p.global {
		addTerm(g.count)
		if g.stride != 0 && g.stride != 1 {
			f := b.p.fp[g.array.Name]
			out = append(out, f.cells)
			out = append(out, f.extents...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// prefetch counts the given sets on up to GOMAXPROCS goroutines. Errors
// are kept with their sets, so that countSet reports the first one that
// counting in order meets, as if the sets had been counted in turn.
func (b *counter) prefetch(sets []int) {
	b.done = make(map[int]counted, len(sets))
	workers := min(runtime.GOMAXPROCS(0), len(sets))
	if workers < 2 {
		return
	}
	results := make([]counted, len(sets))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				n, err := countSet(b.p.texts[sets[k]])
				results[k] = counted{n, err}
			}
		}()
	}
	for k := range sets {
		next <- k
	}
	close(next)
	wg.Wait()
	for k, s := range sets {
		b.done[s] = results[k]
	}
}
