package tune

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
)

// Pick compares the best measured time among the k configurations
// predicted fastest with the expected best of k configurations drawn
// at random without replacement.
type Pick struct {
	K int `json:"k"`
	// Best is the least measured time among the k predicted fastest, in
	// seconds, and BestRatio that over the optimum. Where the k-th
	// predicted time ties with others that do not all fit in the k, which
	// of them are the k's is a draw: Best is then the exact expectation
	// over every order of the tied configurations.
	Best      float64 `json:"best_s"`
	BestRatio float64 `json:"best_ratio"`
	// Tied is how many configurations share the k-th predicted time,
	// Drawn how many of them the k take (Tied = Drawn = 1 where the k-th
	// ties with none).
	Tied  int `json:"tied"`
	Drawn int `json:"drawn"`
	// Random is the exact expectation of the least measured time of k
	// configurations drawn uniformly without replacement, and
	// RandomRatio that over the optimum.
	Random      float64 `json:"random_s"`
	RandomRatio float64 `json:"random_ratio"`
}

// Evaluation is how well predictions rank measured configurations.
type Evaluation struct {
	N int `json:"configurations"`
	// Tau is Kendall's τ-b between predicted and measured times; NaN
	// (null in JSON) where either ties throughout, which leaves it
	// undefined.
	Tau float64 `json:"kendall_tau"`
	// Optimum is the least measured time, in seconds.
	Optimum float64 `json:"optimum_s"`
	// Picks are k = 1 (the predicted best), the top 1% (k =
	// ceil(N/100)) and the top 10 (k = min(10, N)).
	Picks []Pick `json:"picks"`
}

// Evaluate compares predicted with measured times, one pair per
// configuration. Predicted ties are ties: τ-b adjusts for them, and a
// pick whose k-th configuration ties with others is the expectation over
// which of the tied ones the k take (Pick).
func Evaluate(predicted, measured []float64) (Evaluation, error) {
	n := len(predicted)
	if n != len(measured) {
		return Evaluation{}, fmt.Errorf("%d predictions and %d measurements", n, len(measured))
	}
	if n < 2 {
		return Evaluation{}, fmt.Errorf("%d configurations measured: an evaluation needs at least 2", n)
	}
	for i := range n {
		if !(measured[i] > 0) || math.IsInf(measured[i], 0) || math.IsNaN(predicted[i]) || math.IsInf(predicted[i], 0) {
			return Evaluation{}, fmt.Errorf("configuration %d: predicted %g s, measured %g s: times must be finite and measured times positive", i+1, predicted[i], measured[i])
		}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(predicted[a], predicted[b]) })
	sorted := slices.Sorted(slices.Values(measured))
	ev := Evaluation{N: n, Tau: KendallTau(predicted, measured), Optimum: sorted[0]}
	for _, k := range []int{1, (n + 99) / 100, min(10, n)} {
		best, tied, drawn := bestOfTop(order, predicted, measured, k)
		r := ExpectedMin(sorted, k)
		ev.Picks = append(ev.Picks, Pick{K: k, Best: best, BestRatio: best / ev.Optimum, Tied: tied, Drawn: drawn,
			Random: r, RandomRatio: r / ev.Optimum})
	}
	return ev, nil
}

// bestOfTop returns the expected least measured time among the k
// configurations predicted fastest, order being the configurations by
// predicted time: the group of configurations tied with the k-th
// (tied of them, drawn of which fall in the k) is drawn from uniformly.
// With m the least measured time before that group, the expectation is
// that of min(m, least of drawn values from the group), and min(m, ·)
// keeps the group's values in order, so ExpectedMin gives it exactly.
func bestOfTop(order []int, predicted, measured []float64, k int) (best float64, tied, drawn int) {
	at := predicted[order[k-1]]
	lo := k - 1
	for lo > 0 && predicted[order[lo-1]] == at {
		lo--
	}
	hi := k
	for hi < len(order) && predicted[order[hi]] == at {
		hi++
	}
	m := math.Inf(1)
	for _, i := range order[:lo] {
		m = min(m, measured[i])
	}
	group := make([]float64, 0, hi-lo)
	for _, i := range order[lo:hi] {
		group = append(group, min(m, measured[i]))
	}
	slices.Sort(group)
	return ExpectedMin(group, k-lo), hi - lo, k - lo
}

// ExpectedMin returns the exact expectation of the least of k values
// drawn uniformly without replacement from sorted (ascending): the i-th
// smallest (1-based) is the least with probability C(n-i, k-1)/C(n, k),
// the chance that the other k-1 draws all fall among the n-i larger
// ones. The probabilities are computed by their ratio
// p(i+1)/p(i) = (n-i-k+1)/(n-i), from p(1) = k/n, which never overflows.
func ExpectedMin(sorted []float64, k int) float64 {
	n := len(sorted)
	if k < 1 || k > n {
		return math.NaN()
	}
	p := float64(k) / float64(n)
	s := 0.0
	for i := 1; i <= n-k+1; i++ {
		s += p * sorted[i-1]
		p *= float64(n-i-k+1) / float64(n-i)
	}
	return s
}

// KendallTau returns Kendall's τ-b of x and y (which adjusts for ties in
// either) in O(n log n) by Knight's algorithm: sort by x then y, and
// count the exchanges a stable merge sort by y makes. It is NaN where x
// or y is constant.
func KendallTau(x, y []float64) float64 {
	n := len(x)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		if c := cmp.Compare(x[a], x[b]); c != 0 {
			return c
		}
		return cmp.Compare(y[a], y[b])
	})
	pairs := func(t int64) int64 { return t * (t - 1) / 2 }
	var n1, n3 int64
	for i := 0; i < n; {
		j, k := i, i
		for j < n && x[idx[j]] == x[idx[i]] {
			j++
		}
		n1 += pairs(int64(j - i))
		for k = i; k < j; {
			l := k
			for l < j && y[idx[l]] == y[idx[k]] {
				l++
			}
			n3 += pairs(int64(l - k))
			k = l
		}
		i = j
	}
	ys := make([]float64, n)
	for i, j := range idx {
		ys[i] = y[j]
	}
	swaps := mergeCount(ys, make([]float64, n))
	var n2 int64
	for i := 0; i < n; {
		j := i
		for j < n && ys[j] == ys[i] {
			j++
		}
		n2 += pairs(int64(j - i))
		i = j
	}
	n0 := pairs(int64(n))
	num := float64(n0-n1-n2+n3) - 2*float64(swaps)
	return num / math.Sqrt(float64(n0-n1)*float64(n0-n2))
}

// mergeCount sorts a ascending (stably) and returns the number of
// inversions, pairs i < j with a[i] > a[j].
func mergeCount(a, buf []float64) int64 {
	if len(a) < 2 {
		return 0
	}
	m := len(a) / 2
	c := mergeCount(a[:m], buf[:m]) + mergeCount(a[m:], buf[m:])
	i, j, k := 0, m, 0
	for i < m && j < len(a) {
		if a[j] < a[i] {
			buf[k] = a[j]
			c += int64(m - i)
			j++
		} else {
			buf[k] = a[i]
			i++
		}
		k++
	}
	k += copy(buf[k:], a[i:m])
	copy(buf[k:], a[j:])
	copy(a, buf[:len(a)])
	return c
}

// MarshalJSON writes Tau as null where it is NaN, which JSON cannot hold.
func (e Evaluation) MarshalJSON() ([]byte, error) {
	type plain Evaluation
	out := struct {
		plain
		Tau *float64 `json:"kendall_tau"`
	}{plain: plain(e)}
	if !math.IsNaN(e.Tau) {
		out.Tau = &e.Tau
	}
	return json.Marshal(out)
}
