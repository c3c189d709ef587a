package hierarchy

import (
	"errors"
	"math"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/fit"
)

// The parts of a prediction: the additive part (launch terms), and those
// a max form takes the largest of.
const (
	additive = iota
	memoryPart
	computePart
	groupsPart
	nParts
)

// partOf says which part of a form a feature belongs to.
func partOf(form, p string) int {
	switch {
	case form == FormSum:
		return additive
	case p == "launch.groups" && form == FormMaxGroups:
		return groupsPart
	case strings.HasPrefix(p, "launch.") || isChain(p) || isRegChain(p) || isScalarOps(p):
		return additive
	case strings.HasPrefix(p, "global.") || strings.HasPrefix(p, "mem."):
		return memoryPart
	}
	return computePart
}

// partTimes prices counts (aligned with props) by part.
func partTimes(form string, props []string, values, cnt []float64) [nParts]float64 {
	var part [nParts]float64
	for j, p := range props {
		part[partOf(form, p)] += values[j] * cnt[j]
	}
	return part
}

// combine is the form's time: the additive part plus the largest other.
func combine(form string, props []string, values, cnt []float64) float64 {
	part := partTimes(form, props, values, cnt)
	return part[additive] + max(part[memoryPart], part[computePart], part[groupsPart])
}

// bound is the part that sets the time of a max form.
func bound(part [nParts]float64) int {
	b := memoryPart
	for _, p := range []int{computePart, groupsPart} {
		if part[p] > part[b] {
			b = p
		}
	}
	return b
}

// fitSum fits one non-negative weight per property, seed 001's
// relative-error least squares; a property the fit drops gets 0.
func fitSum(props []string, samples []fit.Sample) ([]float64, error) {
	w, err := fitWeights(props, samples)
	if err != nil {
		return nil, err
	}
	return aligned(props, w), nil
}

// fitWeights is the default fit, or where the rows leave properties
// collinear (H100 OpenCL's filled-stride stores and their min(loads,
// stores)) the minimum-norm one, as the default linear fit falls back
// to when it chooses ties.
func fitWeights(props []string, samples []fit.Sample) (*fit.Weights, error) {
	w, err := fit.Fit(props, samples, fit.DefaultOptions())
	var rank *fit.RankError
	if errors.As(err, &rank) {
		opts := fit.DefaultOptions()
		opts.MinNorm = true
		return fit.Fit(props, samples, opts)
	}
	return w, err
}

func aligned(props []string, w *fit.Weights) []float64 {
	out := make([]float64, len(props))
	for i, p := range props {
		if j := slices.Index(w.Properties, p); j >= 0 {
			out[i] = w.Values[j]
		}
	}
	return out
}

// maxRounds bounds the alternation of fitMax.
const maxRounds = 25

// fitMax fits a max form by alternation: from the sum's weights, each
// row is assigned the part that bounds its prediction, the other parts'
// counts are set aside and the weights refitted, until no assignment
// moves; the weights of least squared relative error under the form are
// kept.
func fitMax(form string, props []string, samples []fit.Sample) ([]float64, error) {
	values, err := fitSum(props, samples)
	if err != nil {
		return nil, err
	}
	best, bestObj := values, objective(form, props, values, samples)
	var assign []int
	for range maxRounds {
		next := make([]int, len(samples))
		masked := make([]fit.Sample, len(samples))
		for i, s := range samples {
			next[i] = bound(partTimes(form, props, values, s.Counts))
			masked[i] = s
			masked[i].Counts = slices.Clone(s.Counts)
			for j, p := range props {
				if g := partOf(form, p); g != additive && g != next[i] {
					masked[i].Counts[j] = 0
				}
			}
		}
		if slices.Equal(next, assign) {
			break
		}
		assign = next
		w, err := fitWeights(props, masked)
		if err != nil {
			return nil, err
		}
		values = aligned(props, w)
		if obj := objective(form, props, values, samples); obj < bestObj {
			best, bestObj = values, obj
		}
	}
	return best, nil
}

// objective is the squared relative error of a form's predictions.
func objective(form string, props []string, values []float64, samples []fit.Sample) float64 {
	s2 := 0.0
	for _, s := range samples {
		r := 1 - combine(form, props, values, s.Counts)/s.Time
		s2 += r * r
	}
	if math.IsNaN(s2) {
		return math.Inf(1)
	}
	return s2
}
