package tune

import (
	"cmp"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Result is one configuration's prediction.
type Result struct {
	Config Config
	Consts map[string]int64
	// Predicted is the predicted time in seconds.
	Predicted float64
	// Rank is the position in the ranking, 1 for the fastest predicted.
	Rank int
	// Measured is the measured time in seconds, 0 where the
	// configuration was not timed.
	Measured float64
}

// Predict predicts a kernel's time in seconds with its consts bound.
type Predict func(consts map[string]int64) (float64, error)

// Rank predicts every configuration and sorts them by predicted time,
// fastest first (ties keep the space's order). Configurations that bind
// the same consts are one kernel: each distinct binding is predicted
// once, on workers goroutines (GOMAXPROCS where workers < 1), so the
// counts, the costly part, are made once per structure. It returns the
// results and the number of distinct bindings.
func Rank(s *Space, m *Mapping, configs []Config, predict Predict, workers int) ([]Result, int, error) {
	results := make([]Result, len(configs))
	index := map[string]int{}
	var bindings []map[string]int64
	of := make([]int, len(configs))
	var key strings.Builder
	for i, c := range configs {
		consts, err := m.Bind(s, c)
		if err != nil {
			return nil, 0, err
		}
		key.Reset()
		for _, name := range m.consts {
			key.WriteString(strconv.FormatInt(consts[name], 10))
			key.WriteByte(',')
		}
		k, ok := index[key.String()]
		if !ok {
			k = len(bindings)
			index[key.String()] = k
			bindings = append(bindings, consts)
		}
		of[i] = k
		results[i] = Result{Config: c, Consts: bindings[k]}
	}
	times, err := predictAll(bindings, predict, workers)
	if err != nil {
		return nil, 0, err
	}
	for i := range results {
		results[i].Predicted = times[of[i]]
	}
	order := make([]int, len(results))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(results[a].Predicted, results[b].Predicted) })
	ranked := make([]Result, len(results))
	for r, i := range order {
		ranked[r] = results[i]
		ranked[r].Rank = r + 1
	}
	return ranked, len(bindings), nil
}

// predictAll predicts each binding on workers goroutines; the first
// error in binding order is returned.
func predictAll(bindings []map[string]int64, predict Predict, workers int) ([]float64, error) {
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	times := make([]float64, len(bindings))
	errs := make([]error, len(bindings))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, len(bindings)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				times[i], errs[i] = predict(bindings[i])
			}
		}()
	}
	for i := range bindings {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("consts %s: %w", constsString(bindings[i]), err)
		}
	}
	return times, nil
}

// constsString renders consts in name order, "BX=32 BY=8".
func constsString(c map[string]int64) string {
	parts := make([]string, 0, len(c))
	for _, k := range slices.Sorted(maps.Keys(c)) {
		parts = append(parts, k+"="+strconv.FormatInt(c[k], 10))
	}
	return strings.Join(parts, " ")
}
