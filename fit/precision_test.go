package fit

import (
	"math"
	"strings"
	"testing"
)

// near reports whether got is within a relative 1e-9 of want, or both are
// NaN, or both the same infinity.
func near(got, want float64) bool {
	switch {
	case math.IsNaN(want):
		return math.IsNaN(got)
	case math.IsInf(want, 0):
		return got == want
	}
	return math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want))
}

func checkNear(t *testing.T, what string, got, want float64) {
	t.Helper()
	if !near(got, want) {
		t.Errorf("%s = %.12g, want %.12g", what, got, want)
	}
}

// samplesOf makes samples whose scaled rows a_j = p_j/T_j are the given
// rows: counts a_j·T_j with the given times.
func samplesOf(rows [][]float64, times []float64, classes ...string) []Sample {
	out := make([]Sample, len(rows))
	for i, r := range rows {
		c := make([]float64, len(r))
		for j, a := range r {
			c[j] = a * times[i]
		}
		out[i] = Sample{Kernel: "k", Counts: c, Time: times[i]}
		if i < len(classes) {
			out[i].Class = classes[i]
		}
	}
	return out
}

// The design A = [[1, 0], [0, 1], [1, 1]] (scaled rows), with times 2, 3
// and 1, worked by hand: AᵀA = [[2, 1], [1, 2]], (AᵀA)⁻¹ = [[2, −1], [−1,
// 2]]/3, α = (2/3, 2/3), residuals (1/3, 1/3, −1/3), σ̂² = (1/3)/(3 − 2),
// Var α_i = σ̂²·2/3 = 2/9, so each standard error is √2/3; every row has
// leverage 2/3.
func TestPrecisionTwoProperties(t *testing.T) {
	for _, unit := range []float64{1, 1e-9} {
		props := []string{"p", "q"}
		samples := samplesOf([][]float64{{1, 0}, {0, 1}, {1, 1}}, []float64{2, 3, 1})
		// Counting p in units of 1e-9 scales its weight and standard
		// error by 1e9 and leaves leverages alone.
		for i := range samples {
			samples[i].Counts[0] *= unit
		}
		w, err := Fit(props, samples, Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkNear(t, "weight p", w.Values[0], 2.0/3/unit)
		checkNear(t, "weight q", w.Values[1], 2.0/3)
		pr, err := NewPrecision(w, props, samples)
		if err != nil {
			t.Fatal(err)
		}
		checkNear(t, "σ̂", pr.Sigma, math.Sqrt(1.0/3))
		if pr.DOF != 1 {
			t.Errorf("DOF %d, want 1", pr.DOF)
		}
		checkNear(t, "s.e. p", pr.StdErr[0], math.Sqrt2/3/unit)
		checkNear(t, "s.e. q", pr.StdErr[1], math.Sqrt2/3)
		for i, h := range pr.Leverage {
			checkNear(t, "leverage of row "+string(rune('1'+i)), h, 2.0/3)
		}
		checkNear(t, "max leverage", pr.MaxLeverage, 2.0/3)

		// Counts (3, 0): T̂ = 2, a₀ = (1.5, 0), h = 2.25·2/3 = 1.5.
		pred, h, err := pr.PredictionLeverage([]float64{3 * unit, 0})
		if err != nil {
			t.Fatal(err)
		}
		checkNear(t, "prediction (3, 0)", pred, 2)
		checkNear(t, "leverage (3, 0)", h, 1.5)
		// Counts (1, 2): T̂ = 2, a₀ = (0.5, 1), h = (0.5 − 1 + 2)/3 = 0.5.
		pred, h, _ = pr.PredictionLeverage([]float64{unit, 2})
		checkNear(t, "prediction (1, 2)", pred, 2)
		checkNear(t, "leverage (1, 2)", h, 0.5)
	}
}

// A non-negative fit with rows a = (1, 0, 0), (0, 1, 0), (1, 1, 0) and
// (2, 0, 1), all of time 1. Free, the third weight would be 1 − 2α_1 < 0;
// held at zero, the other two solve the rows [[1, 0], [0, 1], [1, 1], [2,
// 0]]: AᵀA = [[6, 1], [1, 2]] with inverse [[2, −1], [−1, 6]]/11,
// α = (6/11, 8/11), residuals (5, 3, −3, −1)/11, σ̂² = (44/121)/(4 − 2) =
// 2/11, standard errors √(2/11·2/11) = 2/11 and √(2/11·6/11) = 2√3/11,
// leverages (2, 6, 6, 8)/11.
func TestPrecisionHeldWeight(t *testing.T) {
	props := []string{"p", "q", "r"}
	samples := samplesOf([][]float64{{1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {2, 0, 1}}, []float64{1, 1, 1, 1})
	w, err := Fit(props, samples, Options{NonNegative: true})
	if err != nil {
		t.Fatal(err)
	}
	checkNear(t, "weight p", w.Values[0], 6.0/11)
	checkNear(t, "weight q", w.Values[1], 8.0/11)
	if w.Values[2] != 0 {
		t.Fatalf("weight r = %g, want it held at 0", w.Values[2])
	}
	pr, err := NewPrecision(w, props, samples)
	if err != nil {
		t.Fatal(err)
	}
	checkNear(t, "σ̂", pr.Sigma, math.Sqrt(2.0/11))
	checkNear(t, "s.e. p", pr.StdErr[0], 2.0/11)
	checkNear(t, "s.e. q", pr.StdErr[1], 2*math.Sqrt(3)/11)
	if !math.IsNaN(pr.StdErr[2]) || pr.Free(2) {
		t.Errorf("held weight: s.e. %g, free %v; want NaN and not free", pr.StdErr[2], pr.Free(2))
	}
	for i, want := range []float64{2, 6, 6, 8} {
		checkNear(t, "leverage", pr.Leverage[i], want/11)
	}
	checkNear(t, "max leverage", pr.MaxLeverage, 8.0/11)
}

// Two proportional columns, rows a = (1, 1) and (2, 2) of time 1, fitted
// at minimum norm: A = σ u vᵀ with σ = √10, u = (1, 2)/√5, v = (1, 1)/√2,
// α = v uᵀ1/σ = (0.3, 0.3), residuals (0.4, −0.2), σ̂² = 0.2/(2 − 1),
// leverages u_j² = 1/5 and 4/5. Neither weight is determined; a
// prediction along v, counts (1, 1) with T̂ = 0.6, has leverage
// (vᵀa₀)²/σ² = 5/9 and so the relative standard error √(0.2·5/9) = 1/3;
// one off it, counts (1, 0), is an extrapolation of infinite leverage.
func TestPrecisionUndetermined(t *testing.T) {
	props := []string{"p", "q"}
	samples := samplesOf([][]float64{{1, 1}, {2, 2}}, []float64{1, 1})
	w, err := Fit(props, samples, Options{MinNorm: true})
	if err != nil {
		t.Fatal(err)
	}
	pr, err := NewPrecision(w, props, samples)
	if err != nil {
		t.Fatal(err)
	}
	checkNear(t, "σ̂", pr.Sigma, math.Sqrt(0.2))
	for j := range props {
		if !math.IsInf(pr.StdErr[j], 1) {
			t.Errorf("s.e. %s = %g, want +Inf", props[j], pr.StdErr[j])
		}
	}
	checkNear(t, "leverage 1", pr.Leverage[0], 0.2)
	checkNear(t, "leverage 2", pr.Leverage[1], 0.8)
	pred, h, _ := pr.PredictionLeverage([]float64{1, 1})
	checkNear(t, "prediction", pred, 0.6)
	checkNear(t, "leverage (1, 1)", h, 5.0/9)
	checkNear(t, "rel. s.e. (1, 1)", pr.Sigma*math.Sqrt(h), 1.0/3)
	if _, h, _ := pr.PredictionLeverage([]float64{1, 0}); !math.IsInf(h, 1) {
		t.Errorf("leverage (1, 0) = %g, want +Inf", h)
	}
}

// The coverage of the two-property design with classes: p is exercised by
// classes A (row 1) and B (row 3), q by B alone (rows 2 and 3, two
// distinct counts). Both weights have relative standard error
// (√2/3)/(2/3) = 1/√2 > WeakRelStdErr. Without class A the rows (0, 1)
// and (1, 1) give p = 0 and q = 1; without B the row (1, 0) gives p = 1
// and leaves q undetermined; so p's weight moves by up to
// |0 − 2/3|/(2/3) = 1 when a class is left out.
func TestCoverage(t *testing.T) {
	props := []string{"p", "q", "r"}
	train := samplesOf([][]float64{{1, 0, 0}, {0, 1, 0}, {1, 1, 0}}, []float64{2, 3, 1}, "A", "B", "B")
	w, err := Fit(props, train, Options{})
	if err != nil {
		t.Fatal(err)
	}
	test := []Sample{
		{Kernel: "t1", Label: "big", Counts: []float64{3, 0, 0}, Time: 2},
		{Kernel: "t2", Label: "mixed", Counts: []float64{1, 2, 0}, Time: 2},
		{Kernel: "t3", Label: "new", Counts: []float64{1, 0, 5}, Time: 1},
	}
	c, err := NewCoverage(w, props, train, test)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Properties) != 3 {
		t.Fatalf("%d properties covered, want 3", len(c.Properties))
	}
	p, q, r := c.Properties[0], c.Properties[1], c.Properties[2]
	if len(p.Classes) != 2 || p.Classes[0] != (ClassUse{"A", 1, 1}) || p.Classes[1] != (ClassUse{"B", 1, 1}) {
		t.Errorf("classes of p: %+v", p.Classes)
	}
	if len(q.Classes) != 1 || q.Classes[0] != (ClassUse{"B", 2, 2}) {
		t.Errorf("classes of q: %+v", q.Classes)
	}
	checkNear(t, "rel. s.e. p", p.RelStdErr(), 1/math.Sqrt2)
	if len(p.Without) != 2 || !near(p.Without[0], 0) || !near(p.Without[1], 1) || len(q.Without) != 1 || !math.IsNaN(q.Without[0]) {
		t.Errorf("weights without a class: p %v, q %v; want [0 1] and [NaN]", p.Without, q.Without)
	}
	checkNear(t, "spread of p", p.Spread(), 1)
	if !math.IsNaN(q.Spread()) {
		t.Errorf("spread of q %g, want NaN", q.Spread())
	}
	if got := strings.Join(p.Problems(), ","); got != "weak,classes disagree" {
		t.Errorf("problems of p: %q", got)
	}
	if got := strings.Join(q.Problems(), ","); got != "one class,weak" {
		t.Errorf("problems of q: %q", got)
	}
	if got := strings.Join(r.Problems(), ","); got != "no class" {
		t.Errorf("problems of r: %q", got)
	}

	big, mixed, fresh := c.Predictions[0], c.Predictions[1], c.Predictions[2]
	checkNear(t, "rel. s.e. of big", big.RelStdErr, math.Sqrt(1.0/3*1.5))
	want := []string{"extrapolated: leverage above every measurement row's", "relies on p (100% of the time): weak, classes disagree"}
	if got := warningTexts(big.Warnings); got != strings.Join(want, "; ") {
		t.Errorf("warnings of big: %s", got)
	}
	// mixed: T̂ = 2, shares 1/3 (p) and 2/3 (q), leverage 0.5 < 2/3.
	want = []string{"relies on p (33% of the time): weak, classes disagree", "relies on q (67% of the time): one class, weak"}
	if got := warningTexts(mixed.Warnings); got != strings.Join(want, "; ") {
		t.Errorf("warnings of mixed: %s", got)
	}
	if got := warningTexts(fresh.Warnings); !strings.Contains(got, "counts r: no measurement row exercises it") {
		t.Errorf("warnings of new: %s", got)
	}
	var text strings.Builder
	if err := c.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"warning: t1 (1 of 1 sizes): extrapolated",
		"warning: t2 (1 of 1 sizes): relies on q (67% of the time): one class, weak",
		"q  ", "B (2, 2; undetermined)  ! one class, weak", "A (1, 1; 0), B (1, 1; 1)  ! weak, classes disagree",
	} {
		if !strings.Contains(text.String(), line) {
			t.Errorf("text lacks %q:\n%s", line, text.String())
		}
	}
}

func warningTexts(ws []Warning) string {
	var s []string
	for _, w := range ws {
		s = append(s, w.String())
	}
	return strings.Join(s, "; ")
}

// Class weights on one property with rows a = 1, 1 (class A) and 2
// (class B): m = 3 rows in C = 2 classes weigh 3/(2·2) = 0.75 (A) and
// 3/(2·1) = 1.5 (B). The weighted fit solves Σ w a (1 − a α) = 0:
// α = Σwa/Σwa² = 4.5/7.5 = 0.6 (unweighted, 4/6); the residuals are 0.4,
// 0.4 and −0.2, σ̂² = Σ w r²/(3 − 1) = 0.15, Var α = σ̂²/Σwa² = 0.02, and
// the leverages w a²/Σwa² are 0.1, 0.1 and 0.8.
func TestBalance(t *testing.T) {
	props := []string{"p"}
	samples := samplesOf([][]float64{{1}, {1}, {2}}, []float64{1, 1, 1}, "A", "A", "B")
	for i, want := range []float64{0.75, 0.75, 1.5} {
		checkNear(t, "class weight", ClassWeights(samples)[i], want)
	}
	w, err := Fit(props, samples, Options{Balance: true})
	if err != nil {
		t.Fatal(err)
	}
	checkNear(t, "weight", w.Values[0], 0.6)
	if !w.Diagnostics.Balanced {
		t.Error("diagnostics do not say the fit was balanced")
	}
	pr, err := NewPrecision(w, props, samples)
	if err != nil {
		t.Fatal(err)
	}
	checkNear(t, "σ̂", pr.Sigma, math.Sqrt(0.15))
	checkNear(t, "s.e.", pr.StdErr[0], math.Sqrt(0.02))
	for i, want := range []float64{0.1, 0.1, 0.8} {
		checkNear(t, "leverage", pr.Leverage[i], want)
	}
	if w, _ := Fit(props, samples, Options{}); !near(w.Values[0], 4.0/6) {
		t.Errorf("unbalanced weight %g, want 2/3", w.Values[0])
	}
}

// The robust fit minimises Σ|1 − a α| over rows a = 1, 1, 1, 2: on
// [1/2, 1] the sum is 3(1 − α) + (2α − 1) = 2 − α, above 1 it is 5α − 4,
// so the minimum is at α = 1, where least squares gives Σa/Σa² = 5/7.
func TestRobust(t *testing.T) {
	samples := samplesOf([][]float64{{1}, {1}, {1}, {2}}, []float64{1, 1, 1, 1})
	for _, nn := range []bool{false, true} {
		w, err := Fit([]string{"p"}, samples, Options{Robust: true, NonNegative: nn})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(w.Values[0]-1) > 1e-3 {
			t.Errorf("non-negative %v: weight %g, want 1", nn, w.Values[0])
		}
	}
}

// TestWeakWithoutLeverage checks that Fit's weak weights, found by a
// precision computed without the rows' leverages (no U), are those whose
// standard error from NewPrecision, which the tests above check by hand,
// exceeds WeakRelStdErr.
func TestWeakWithoutLeverage(t *testing.T) {
	names, samples := benchProblem()
	for _, opts := range []Options{{MinNorm: true}, {NonNegative: true, MinNorm: true}} {
		w, err := Fit(names, samples, opts)
		if err != nil {
			t.Fatal(err)
		}
		pr, err := NewPrecision(w, names, samples)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for j, p := range names {
			if pr.Free(j) && pr.StdErr[j]/math.Abs(pr.Weights[j]) > WeakRelStdErr {
				want = append(want, p)
			}
		}
		if strings.Join(w.Diagnostics.Weak, ",") != strings.Join(want, ",") || len(want) == 0 {
			t.Errorf("%+v: weak %v, NewPrecision's standard errors say %v", opts, w.Diagnostics.Weak, want)
		}
	}
}
