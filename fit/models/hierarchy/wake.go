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
// equal at W = L.
func wakeCounts(form string, props []string, values, cnt []float64, cores int64) []float64 {
	jw, jg := slices.Index(props, WakeLatency), slices.Index(props, "launch.groups")
	if jw < 0 || jg < 0 {
		return slices.Clone(cnt)
	}
	one := slices.Clone(cnt)
	one[jw] = 0
	s := wakeShare(cnt[jg], cores)
	if s >= 1 || work(form, props, values, one) <= values[jw] {
		return one
	}
	return onAll(props, cnt, s)
}

// onAll returns cnt (aligned with props) for a launch that all cores
// join: every count but launch.const's scaled by s, WakeLatency's 1 − s.
func onAll(props []string, cnt []float64, s float64) []float64 {
	out := slices.Clone(cnt)
	for j, p := range props {
		switch p {
		case "launch.const":
		case WakeLatency:
			out[j] = 1 - s
		default:
			out[j] *= s
		}
	}
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
func wakeSamples(form string, props []string, values []float64, samples []fit.Sample, cores int64) []fit.Sample {
	out := make([]fit.Sample, len(samples))
	for i, s := range samples {
		out[i] = s
		out[i].Counts = wakeCounts(form, props, values, s.Counts, cores)
	}
	return out
}

// timedSamples returns samples placed by their measured time: a launch
// of more than one group that took longer than below on all cores
// (onAll), the others on one. It is fitWake's first placing, before any
// latency is known.
func timedSamples(props []string, samples []fit.Sample, cores int64, below float64) []fit.Sample {
	jw, jg := slices.Index(props, WakeLatency), slices.Index(props, "launch.groups")
	out := make([]fit.Sample, len(samples))
	for i, s := range samples {
		out[i] = s
		out[i].Counts = slices.Clone(s.Counts)
		if jw < 0 || jg < 0 {
			continue
		}
		out[i].Counts[jw] = 0
		if sh := wakeShare(s.Counts[jg], cores); sh < 1 && s.Time > below {
			out[i].Counts = onAll(props, s.Counts, sh)
		}
	}
	return out
}

// WakeGrid is the measured times (s) that fitWake's first placings put
// a launch on one core below: the EPYC's paper suite at one thread takes
// 1.0 times its two-thread time below 3 µs, 1.3 to 1.7 times from 3 to
// 300 µs (docs/model.md); fixed before any was tried.
var WakeGrid = []float64{3e-6, 10e-6, 30e-6, 100e-6}

// wakeRounds bounds each alternation of fitWake.
const wakeRounds = 12

// fitWake fits Config.Wake's form by alternation, as fitMax fits the
// parts, from each first placing of WakeGrid: the weights
// (WakeLatency's among them) are fitted by inner on the counts that the
// placing gives, then each launch is placed again by the weights
// (wakeCounts), until no launch moves. The weights of least squared
// relative error under the form are kept. (From a placing of every
// launch on all cores the latency's count is 1/2 wherever the groups
// are even, the launch constant's twin, and the fit can stay at a
// latency of 0.)
func fitWake(form string, props []string, samples []fit.Sample, cores int64, inner func([]string, []fit.Sample) ([]float64, error)) ([]float64, error) {
	var best []float64
	bestObj := math.Inf(1)
	jw := slices.Index(props, WakeLatency)
	for _, below := range WakeGrid {
		placed := timedSamples(props, samples, cores, below)
		for range wakeRounds {
			values, err := inner(props, placed)
			if err != nil {
				return nil, err
			}
			next := wakeSamples(form, props, values, samples, cores)
			if obj := objective(form, props, values, next); best == nil || obj < bestObj {
				best, bestObj = values, obj
			}
			if samePlaces(next, placed, jw) {
				break
			}
			placed = next
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
