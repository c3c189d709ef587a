package tune

import (
	"cmp"
	"errors"
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
	// Tied is the range of positions that share its predicted time,
	// [Rank, Rank] where it ties with none: their order is the space's,
	// not a prediction.
	Rank int
	Tied [2]int
	// Measured is the measured time in seconds, 0 where the
	// configuration was not timed.
	Measured float64
}

// Predict predicts a kernel's time in seconds with its consts bound. An
// error that wraps ErrInvalid marks a binding that cannot run (the kernel
// refuses it, or the device cannot launch it): Rank skips it.
type Predict func(consts map[string]int64) (float64, error)

// Skipped is a configuration left out of a ranking, and why.
type Skipped struct {
	Config Config
	Consts map[string]int64
	Reason error
}

// Ranking is Rank's answer: the valid configurations fastest first, the
// number of distinct bindings of the consts predicted, and the
// configurations skipped as invalid, in the space's order.
type Ranking struct {
	Results  []Result
	Bindings int
	Skipped  []Skipped
}

// Rank predicts every configuration and sorts them by predicted time,
// fastest first (ties keep the space's order, and each Result's Tied
// says which positions tie). Configurations that bind
// the same consts are one kernel: each distinct binding is predicted
// once, on workers goroutines (GOMAXPROCS where workers < 1), so the
// counts, the costly part, are made once per structure. A binding whose
// prediction fails with ErrInvalid is skipped with its configurations;
// any other error is returned.
func Rank(s *Space, m *Mapping, configs []Config, predict Predict, workers int) (Ranking, error) {
	results := make([]Result, len(configs))
	index := map[string]int{}
	var bindings []map[string]int64
	of := make([]int, len(configs))
	var key strings.Builder
	for i, c := range configs {
		consts, err := m.Bind(s, c)
		if err != nil {
			return Ranking{}, err
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
	times, errs, err := predictAll(bindings, predict, workers)
	if err != nil {
		return Ranking{}, err
	}
	var valid []Result
	var skipped []Skipped
	for i, r := range results {
		if e := errs[of[i]]; e != nil {
			skipped = append(skipped, Skipped{Config: r.Config, Consts: r.Consts, Reason: e})
			continue
		}
		r.Predicted = times[of[i]]
		valid = append(valid, r)
	}
	slices.SortStableFunc(valid, func(a, b Result) int { return cmp.Compare(a.Predicted, b.Predicted) })
	for lo := 0; lo < len(valid); {
		hi := lo + 1
		for hi < len(valid) && valid[hi].Predicted == valid[lo].Predicted {
			hi++
		}
		for r := lo; r < hi; r++ {
			valid[r].Rank, valid[r].Tied = r+1, [2]int{lo + 1, hi}
		}
		lo = hi
	}
	return Ranking{Results: valid, Bindings: len(bindings), Skipped: skipped}, nil
}

// predictAll predicts each binding on workers goroutines. It returns the
// times, each binding's ErrInvalid error (nil where valid), and the first
// other error in binding order.
func predictAll(bindings []map[string]int64, predict Predict, workers int) ([]float64, []error, error) {
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
			err = fmt.Errorf("consts %s: %w", constsString(bindings[i]), err)
			if !errors.Is(err, ErrInvalid) {
				return nil, nil, err
			}
			errs[i] = err
		}
	}
	return times, errs, nil
}

// constsString renders consts in name order, "BX=32 BY=8".
func constsString(c map[string]int64) string {
	parts := make([]string, 0, len(c))
	for _, k := range slices.Sorted(maps.Keys(c)) {
		parts = append(parts, k+"="+strconv.FormatInt(c[k], 10))
	}
	return strings.Join(parts, " ")
}
