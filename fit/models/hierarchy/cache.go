package hierarchy

import (
	"fmt"
	"runtime"
	"sync"
	"weak"

	"github.com/uniperf/uniperf/counts"
)

// launchKey names a launch's counts: the counted kernel (one per kernel
// and constants, models.Counter caches it) and its parameters. The
// kernel is held weakly, so that the cache keeps no counts alive that
// their counter has forgotten (tune predicting a space, one binding at a
// time).
type launchKey struct {
	cache  string
	k      weak.Pointer[counts.Counted]
	params string
}

type launchEntry struct {
	v   any
	err error
}

// launchCache holds the line counts and scalar moves of the launches
// counted so far: cross-validation calibrates a model per class left
// out, each counting every row again, and a count at sizes takes tens
// of milliseconds. An entry goes when its counted kernel is collected.
var launchCache sync.Map

// once returns count(), computed once per launch and cache name.
func once[T any](cache string, k *counts.Counted, params map[string]int64, count func() (T, error)) (T, error) {
	key := launchKey{cache, weak.Make(k), fmt.Sprint(params)}
	if r, ok := launchCache.Load(key); ok {
		r := r.(launchEntry)
		return r.v.(T), r.err
	}
	v, err := count()
	if _, loaded := launchCache.LoadOrStore(key, launchEntry{v, err}); !loaded {
		runtime.AddCleanup(k, func(key launchKey) { launchCache.Delete(key) }, key)
	}
	return v, err
}
