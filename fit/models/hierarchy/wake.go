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
//
// With smooth (Config.WakeSmooth) the other cores join after a delay
// of mean L instead, smoothCounts.
func wakeCounts(form string, props []string, values, cnt []float64, cores int64, smooth bool) []float64 {
	jw, jg := slices.Index(props, WakeLatency), slices.Index(props, "launch.groups")
	if jw < 0 || jg < 0 {
		return slices.Clone(cnt)
	}
	one := slices.Clone(cnt)
	one[jw] = 0
	s := wakeShare(cnt[jg], cores)
	if s >= 1 {
		return one
	}
	w := work(form, props, values, one)
	if smooth {
		return smoothCounts(props, cnt, s, w, values[jw])
	}
	if w <= values[jw] {
		return one
	}
	return onAll(props, cnt, s)
}

// smoothCounts returns cnt (aligned with props) as Config.WakeSmooth
// prices a launch of one-core work w whose other cores join after a delay
// of mean mu: the work counts scaled by s, as onAll does, and
// WakeLatency's count (1 − s)(1 − e^(−w/µ)), which times µ is the
// expected time the late cores add, (1 − s)·µ·(1 − e^(−w/µ)) (with D
// exponential, E[min(D, w)] = µ(1 − e^(−w/µ))). A latency of 0 leaves
// every launch on all cores from its start.
func smoothCounts(props []string, cnt []float64, s, w, mu float64) []float64 {
	out := onAll(props, cnt, s)
	jw := slices.Index(props, WakeLatency)
	if mu <= 0 {
		out[jw] = 0
		return out
	}
	out[jw] = (1 - s) * -math.Expm1(-w/mu)
	return out
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
func wakeSamples(form string, props []string, values []float64, samples []fit.Sample, cores int64, smooth bool) []fit.Sample {
	out := make([]fit.Sample, len(samples))
	for i, s := range samples {
		out[i] = s
		out[i].Counts = wakeCounts(form, props, values, s.Counts, cores, smooth)
	}
	return out
}

// timedSamples returns samples placed by their measured time: a launch
// of more than one group that took longer than below on all cores
// (onAll), the others on one. It is fitWake's first placing, before any
// latency is known.
//
// With smooth, every launch of more than one group is placed as
// smoothCounts places it with a mean delay of below and its measured
// time as its work.
func timedSamples(props []string, samples []fit.Sample, cores int64, below float64, smooth bool) []fit.Sample {
	jw, jg := slices.Index(props, WakeLatency), slices.Index(props, "launch.groups")
	out := make([]fit.Sample, len(samples))
	for i, s := range samples {
		out[i] = s
		out[i].Counts = slices.Clone(s.Counts)
		if jw < 0 || jg < 0 {
			continue
		}
		out[i].Counts[jw] = 0
		sh := wakeShare(s.Counts[jg], cores)
		switch {
		case sh >= 1:
		case smooth:
			out[i].Counts = smoothCounts(props, s.Counts, sh, s.Time, below)
		case s.Time > below:
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
//
// With smooth the rounds end when no launch's WakeLatency count moves by
// more than wakeSettled.
func fitWake(form string, props []string, samples []fit.Sample, cores int64, smooth bool, inner func([]string, []fit.Sample) ([]float64, error)) ([]float64, error) {
	var best []float64
	bestObj := math.Inf(1)
	jw := slices.Index(props, WakeLatency)
	for _, below := range WakeGrid {
		placed := timedSamples(props, samples, cores, below, smooth)
		var delays []float64
		for range wakeRounds {
			values, err := inner(props, placed)
			if err != nil {
				return nil, err
			}
			next := wakeSamples(form, props, values, samples, cores, smooth)
			if obj := objective(form, props, values, next); best == nil || obj < bestObj {
				best, bestObj = values, obj
			}
			if smooth {
				// The next placing takes the delay's extrapolated limit;
				// the objective above is the weights' own.
				delays = append(delays, values[jw])
				if mu, ok := aitken(delays); ok {
					v := slices.Clone(values)
					v[jw] = mu
					next = wakeSamples(form, props, v, samples, cores, smooth)
					delays = nil
				}
			}
			if samePlaces(next, placed, jw, smooth) {
				break
			}
			placed = next
		}
	}
	return best, nil
}

// aitken returns Aitken's extrapolation of the last three of xs, the
// limit of a sequence that converges linearly, as smooth fitWake's mean
// delays do (by about a quarter a round from any first placing: the
// delay's count moves with the delay itself); false with fewer than three
// or where the extrapolation is undefined or not positive.
func aitken(xs []float64) (float64, bool) {
	n := len(xs)
	if n < 3 {
		return 0, false
	}
	d1, d2 := xs[n-2]-xs[n-3], xs[n-1]-xs[n-2]
	den := d2 - d1
	if den == 0 {
		return 0, false
	}
	x := xs[n-1] - d2*d2/den
	return x, x > 0 && !math.IsInf(x, 0)
}

// wakeSettled is how far WakeLatency's count of a launch may move between
// two rounds of fitWake's smooth alternation that have settled.
const wakeSettled = 1e-4

// samePlaces says whether two placings of the same samples put every
// launch on the same cores (WakeLatency's count, column jw, tells), or
// with smooth whether no launch's count moved by more than wakeSettled.
func samePlaces(a, b []fit.Sample, jw int, smooth bool) bool {
	for i := range a {
		x, y := a[i].Counts[jw], b[i].Counts[jw]
		if smooth && math.Abs(x-y) > wakeSettled || !smooth && (x > 0) != (y > 0) {
			return false
		}
	}
	return true
}
