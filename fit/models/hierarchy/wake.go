package hierarchy

import (
	"math"
	"slices"

	"github.com/uniperf/uniperf/fit"
)

// WakeLatency is Config.Wake's feature: the time a launch runs on one
// core before the device's other cores join it. Its count is 1 − s on
// a launch that outlasts it (s the busiest core's share of the groups,
// wakeShare), 0 on one that does not; its weight is that time.
const WakeLatency = "launch.wake"

// wakeShare is the share of a launch's G work-groups that the busiest
// of U cores runs once every core has joined: ⌈G/U⌉/G; 1 for a launch
// of one group or none, or on one core.
func wakeShare(groups float64, cores int64) float64 {
	if cores < 2 || groups <= 1 {
		return 1
	}
	return math.Ceil(groups/float64(cores)) / groups
}

// wakeCounts returns cnt (aligned with props) as Config.Wake prices the
// launch on cores: the launch's work (every term but launch.const)
// priced at one core's weights, W, takes W where W does not exceed the
// wake latency L (WakeLatency's weight: the other cores have not joined
// by the time it ends) and s·W + (1 − s)·L where it does (one core
// alone until L, then the busiest core's share s of the rest), the two
// equal at W = L. The counts are scaled by s and WakeLatency's count is
// 1 − s in the second case; unchanged, WakeLatency's 0, in the first.
// allCores forces the second case on every launch with s < 1 (the
// fit's first assignment, before any latency is known).
func wakeCounts(form string, props []string, values, cnt []float64, cores int64, allCores bool) []float64 {
	out := slices.Clone(cnt)
	jw, jg := slices.Index(props, WakeLatency), slices.Index(props, "launch.groups")
	if jw < 0 || jg < 0 {
		return out
	}
	out[jw] = 0
	s := wakeShare(cnt[jg], cores)
	if s >= 1 {
		return out
	}
	if !allCores && work(form, props, values, out) <= values[jw] {
		return out
	}
	for j, p := range props {
		if p != "launch.const" {
			out[j] *= s
		}
	}
	out[jw] = 1 - s
	return out
}

// work is a launch's time without its launch.const term.
func work(form string, props []string, values, cnt []float64) float64 {
	t := combine(form, props, values, cnt)
	if j := slices.Index(props, "launch.const"); j >= 0 {
		t -= values[j] * cnt[j]
	}
	return t
}

// wakeSamples returns samples with each one's counts as wakeCounts
// gives them.
func wakeSamples(form string, props []string, values []float64, samples []fit.Sample, cores int64, allCores bool) []fit.Sample {
	out := make([]fit.Sample, len(samples))
	for i, s := range samples {
		out[i] = s
		out[i].Counts = wakeCounts(form, props, values, s.Counts, cores, allCores)
	}
	return out
}

// wakeRounds bounds the alternation of fitWake.
const wakeRounds = 12

// fitWake fits Config.Wake's form by alternation, as fitMax fits the
// parts: every launch of more than one group starts on every core, the
// weights (WakeLatency's among them) are fitted by inner on the counts
// that gives, then each launch is placed again by the weights, until no
// launch moves; the weights of least squared relative error under the
// form are kept.
func fitWake(form string, props []string, samples []fit.Sample, cores int64, inner func([]string, []fit.Sample) ([]float64, error)) ([]float64, error) {
	var best []float64
	bestObj := math.Inf(1)
	values := make([]float64, len(props))
	var placed []fit.Sample
	for round := range wakeRounds {
		next := wakeSamples(form, props, values, samples, cores, round == 0)
		if round > 0 && samePlaces(next, placed, slices.Index(props, WakeLatency)) {
			break
		}
		placed = next
		var err error
		if values, err = inner(props, placed); err != nil {
			return nil, err
		}
		if obj := objective(form, props, values, wakeSamples(form, props, values, samples, cores, false)); best == nil || obj < bestObj {
			best, bestObj = values, obj
		}
	}
	return best, nil
}

// samePlaces says whether two placings of the same samples put every
// launch on the same cores (WakeLatency's count, column jw, tells).
func samePlaces(a, b []fit.Sample, jw int) bool {
	for i := range a {
		if (a[i].Counts[jw] > 0) != (b[i].Counts[jw] > 0) {
			return false
		}
	}
	return true
}
