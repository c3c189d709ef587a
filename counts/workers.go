package counts

import (
	"runtime"
	"sync"
)

// workers runs the jobs of a plan, GOMAXPROCS at a time, in the order
// they come, urgent jobs first. The order matters at the end of a count:
// a goroutine per set, waiting for a slot, ran the sets in no particular
// order, and the launch sizes, which wait for the sets of one dimension
// that the plan finds first, often came last, their maxima after them,
// with a processor idle meanwhile.
type workers struct {
	mu     sync.Mutex
	urgent []func()
	queue  []func()
	idle   int // workers that may still start
}

func newWorkers() *workers { return &workers{idle: runtime.GOMAXPROCS(0)} }

// run queues job, starting a worker if fewer than GOMAXPROCS run.
func (w *workers) run(job func(), urgent bool) {
	w.mu.Lock()
	if urgent {
		w.urgent = append(w.urgent, job)
	} else {
		w.queue = append(w.queue, job)
	}
	start := w.idle > 0
	if start {
		w.idle--
	}
	w.mu.Unlock()
	if start {
		go w.work()
	}
}

// work runs queued jobs until there are none.
func (w *workers) work() {
	for {
		w.mu.Lock()
		var job func()
		switch {
		case len(w.urgent) > 0:
			job, w.urgent = w.urgent[0], w.urgent[1:]
		case len(w.queue) > 0:
			job, w.queue = w.queue[0], w.queue[1:]
		default:
			w.idle++
			w.mu.Unlock()
			return
		}
		w.mu.Unlock()
		job()
	}
}
