package fit

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"
)

// Thresholds of the coverage warnings, beside WeakRelStdErr.
const (
	// MinClasses is the number of kernel classes that should exercise a
	// property, so that its weight does not rest on one kind of kernel.
	MinClasses = 2
	// RelevantShare is the share of a prediction above which a term's
	// weight matters to it.
	RelevantShare = 0.05
)

// ClassUse is how one kernel class of the measurement rows exercises a
// property.
type ClassUse struct {
	Class string `json:"class"`
	Rows  int    `json:"rows"`  // rows with a non-zero count
	Sizes int    `json:"sizes"` // distinct non-zero counts among those rows
}

// PropertyCoverage is what determines one weight.
type PropertyCoverage struct {
	Property string     `json:"property"`
	Weight   float64    `json:"weight_s"`
	StdErr   float64    `json:"std_err_s"` // NaN when held, +Inf when undetermined
	Held     bool       `json:"held_at_zero"`
	Classes  []ClassUse `json:"classes"`
	// Without is the weight refitted without each class that exercises
	// the property, in the order of Classes: NaN where the other classes
	// do not determine it.
	Without []float64 `json:"without_class"`
}

// Spread is the largest change of the weight, relative to its magnitude,
// when one of its classes is left out of the fit: the standard error
// assumes the model fits every class alike, the spread shows where the
// classes disagree. It is NaN when no class can be left out.
func (c PropertyCoverage) Spread() float64 {
	spread := math.NaN()
	for _, w := range c.Without {
		if !math.IsNaN(w) {
			spread = math.Max(nanZero(spread), math.Abs(w-c.Weight)/math.Abs(c.Weight))
		}
	}
	return spread
}

func nanZero(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return x
}

// RelStdErr is the standard error relative to the weight's magnitude.
func (c PropertyCoverage) RelStdErr() float64 { return c.StdErr / math.Abs(c.Weight) }

// Problems lists what is wrong with the weight's determination: too few
// classes, a weak determination, a weight held at zero.
func (c PropertyCoverage) Problems() []string {
	var out []string
	switch len(c.Classes) {
	case 0:
		out = append(out, "no class")
	case 1:
		out = append(out, "one class")
	}
	switch {
	case c.Held:
		out = append(out, "held at zero")
	case math.IsInf(c.StdErr, 1):
		out = append(out, "undetermined")
	case c.RelStdErr() > WeakRelStdErr:
		out = append(out, "weak")
	}
	if !c.Held && c.Spread() > WeakRelStdErr {
		out = append(out, "classes disagree")
	}
	return out
}

// PredictionCoverage is how well the measurement rows support one
// prediction.
type PredictionCoverage struct {
	Kernel    string  `json:"kernel"`
	Size      string  `json:"size"`
	Predicted float64 `json:"predicted_s"`
	Leverage  float64 `json:"leverage"`
	// RelStdErr is σ̂ √leverage, the relative standard error of the
	// predicted time.
	RelStdErr float64   `json:"rel_std_err"`
	Warnings  []Warning `json:"warnings,omitempty"`
}

// Warning is a reason not to trust a prediction: the prediction as a whole
// (Property empty: an extrapolation, a time that is not positive), or a
// term of it whose weight is held at zero or is supported by too few
// classes or weakly.
type Warning struct {
	Property string  `json:"property,omitempty"`
	Share    float64 `json:"share,omitempty"` // the term's share of the predicted time
	Problem  string  `json:"problem"`
}

// Problems of a whole term, which the term's share does not qualify.
const (
	problemHeld    = "held at zero by the fit"
	problemNoClass = "no measurement row exercises it"
)

func (w Warning) String() string {
	return describe(w.Property, fmt.Sprintf("%.0f%%", 100*w.Share), w.Problem)
}

// describe words a problem of a prediction's term over property, whose
// share of the time is share; a problem of the whole prediction has no
// property.
func describe(property, share, problem string) string {
	switch {
	case property == "":
		return problem
	case problem == problemHeld || problem == problemNoClass:
		return fmt.Sprintf("counts %s: %s", property, problem)
	}
	return fmt.Sprintf("relies on %s (%s of the time): %s", property, share, problem)
}

// Coverage reports, for every property that the test samples use, which
// kernel classes of the measurement samples exercise it and how well the
// fit determines its weight (its standard error, and how far it moves
// when the fit leaves out one of those classes), and for every test
// sample the leverage and
// standard error of its prediction, with a warning where the prediction is
// an extrapolation or leans on a weight that few classes or a weak
// determination support.
type Coverage struct {
	Precision   *Precision
	Properties  []PropertyCoverage
	Predictions []PredictionCoverage
}

// NewCoverage computes the coverage of weights w, fitted to train, for the
// test samples. Samples of both kinds have their counts in the order of
// properties; a test sample's Label names its size case in the report.
func NewCoverage(w *Weights, properties []string, train, test []Sample) (*Coverage, error) {
	pr, err := NewPrecision(w, properties, train)
	if err != nil {
		return nil, err
	}
	if len(test) == 0 {
		return nil, fmt.Errorf("coverage: no test samples")
	}
	c := &Coverage{Precision: pr}
	used := make([]bool, len(properties))
	for i := range test {
		if len(test[i].Counts) != len(properties) {
			return nil, fmt.Errorf("coverage: %s: %d counts for %d properties", test[i].describe(i), len(test[i].Counts), len(properties))
		}
		for j, n := range test[i].Counts {
			used[j] = used[j] || n != 0
		}
	}
	without, err := weightsWithout(w, properties, train, used)
	if err != nil {
		return nil, err
	}
	byProperty := make(map[string]PropertyCoverage)
	for j, p := range properties {
		pc := PropertyCoverage{Property: p, Weight: pr.Weights[j], StdErr: pr.StdErr[j], Classes: classUses(train, j)}
		pc.Held = !pr.Free(j) && len(pc.Classes) > 0
		for _, u := range pc.Classes {
			pc.Without = append(pc.Without, without[u.Class][j])
		}
		byProperty[p] = pc
		if used[j] {
			c.Properties = append(c.Properties, pc)
		}
	}
	for i := range test {
		s := &test[i]
		pred, h, err := pr.PredictionLeverage(s.Counts)
		if err != nil {
			return nil, err
		}
		p := PredictionCoverage{Kernel: s.Kernel, Size: s.Label, Predicted: pred, Leverage: h, RelStdErr: pr.Sigma * math.Sqrt(h)}
		p.Warnings = c.warnings(s, p, properties, byProperty)
		c.Predictions = append(c.Predictions, p)
	}
	return c, nil
}

// weightsWithout refits w's fit without each class that exercises a used
// property, and returns per class the weights in the order of properties:
// NaN for a property the other classes do not determine (zero in all of
// them, or in a collinear group).
func weightsWithout(w *Weights, properties []string, train []Sample, used []bool) (map[string][]float64, error) {
	opts := w.options()
	opts.MinNorm = true
	out := map[string][]float64{}
	for j := range properties {
		if !used[j] {
			continue
		}
		for _, u := range classUses(train, j) {
			if _, done := out[u.Class]; done {
				continue
			}
			var rest []Sample
			for i := range train {
				if train[i].Class != u.Class {
					rest = append(rest, train[i])
				}
			}
			ws := make([]float64, len(properties))
			for k := range ws {
				ws[k] = math.NaN()
			}
			out[u.Class] = ws
			fw, err := Fit(properties, rest, opts)
			if err != nil {
				continue
			}
			undetermined := map[string]bool{}
			for _, g := range fw.Diagnostics.Collinear {
				for _, p := range g.Properties {
					undetermined[p] = undetermined[p] || g.Exact
				}
			}
			for k, p := range properties {
				if v, ok := fw.Weight(p); ok && !undetermined[p] {
					ws[k] = v
				}
			}
		}
	}
	return out, nil
}

// classUses counts, per class, the samples with a non-zero count of
// property j and the distinct values of that count.
func classUses(samples []Sample, j int) []ClassUse {
	values := map[string]map[float64]bool{}
	rows := map[string]int{}
	for i := range samples {
		n := samples[i].Counts[j]
		if n == 0 {
			continue
		}
		cl := samples[i].Class
		if values[cl] == nil {
			values[cl] = map[float64]bool{}
		}
		values[cl][n] = true
		rows[cl]++
	}
	out := make([]ClassUse, 0, len(rows))
	for cl, r := range rows {
		out = append(out, ClassUse{Class: cl, Rows: r, Sizes: len(values[cl])})
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Class < out[b].Class })
	return out
}

// warnings says why a prediction may not be trusted.
func (c *Coverage) warnings(s *Sample, p PredictionCoverage, properties []string, byProperty map[string]PropertyCoverage) []Warning {
	var out []Warning
	switch {
	case !(p.Predicted > 0):
		out = append(out, Warning{Problem: "predicted time is not positive"})
	case math.IsInf(p.Leverage, 1):
		out = append(out, Warning{Problem: "extrapolated along a direction the measurement rows do not determine"})
	case p.Leverage > c.Precision.MaxLeverage:
		out = append(out, Warning{Problem: "extrapolated: leverage above every measurement row's"})
	}
	for j, n := range s.Counts {
		if n == 0 {
			continue
		}
		pc := byProperty[properties[j]]
		share := pc.Weight * n / p.Predicted
		if pc.Held {
			out = append(out, Warning{Property: pc.Property, Problem: problemHeld})
			continue
		}
		if len(pc.Classes) == 0 {
			out = append(out, Warning{Property: pc.Property, Problem: problemNoClass})
			continue
		}
		if math.Abs(share) < RelevantShare {
			continue
		}
		if probs := pc.Problems(); len(probs) > 0 {
			out = append(out, Warning{Property: pc.Property, Share: share, Problem: strings.Join(probs, ", ")})
		}
	}
	return out
}

// WriteText writes the coverage as two aligned tables, the properties and
// the predictions, followed by the predictions' warnings.
func (c *Coverage) WriteText(out io.Writer) error {
	var buf bytes.Buffer
	pr := c.Precision
	fmt.Fprintf(&buf, "weights of the test kernels' properties: σ̂ = %.3g (standard deviation of a measurement row's relative error, %d degrees of freedom)\n\n", pr.Sigma, pr.DOF)
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "property\tweight (s/op)\tstd. error\trel.\tspread\tclasses (rows, sizes; weight without the class)")
	for _, p := range c.Properties {
		var cls []string
		for i, u := range p.Classes {
			cls = append(cls, fmt.Sprintf("%s (%d, %d; %s)", u.Class, u.Rows, u.Sizes, weightText(p.Without[i])))
		}
		rel := fmt.Sprintf("%.3f", p.RelStdErr())
		se := fmt.Sprintf("%.3g", p.StdErr)
		if p.Held {
			rel, se = "held", "-"
		}
		spread := "-"
		if s := p.Spread(); !math.IsNaN(s) && !p.Held {
			spread = fmt.Sprintf("%.2f", s)
		}
		flag := ""
		if probs := p.Problems(); len(probs) > 0 {
			flag = "  ! " + strings.Join(probs, ", ")
		}
		fmt.Fprintf(tw, "%s\t%.4g\t%s\t%s\t%s\t%s%s\n", p.Property, p.Weight, se, rel, spread, strings.Join(cls, ", "), flag)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(&buf, "\npredictions of the test rows: leverage against the largest measurement row's %.3g\n\n", pr.MaxLeverage)
	tw = tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "kernel\tsize\tpredicted ms\tleverage\trel. std. error\twarnings")
	for _, p := range c.Predictions {
		fmt.Fprintf(tw, "%s\t%s\t%.4g\t%.3g\t%.3f\t%d\n", p.Kernel, p.Size, p.Predicted*1e3, p.Leverage, p.RelStdErr, len(p.Warnings))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, line := range c.kernelWarnings() {
		fmt.Fprintf(&buf, "warning: %s\n", line)
	}
	_, err := out.Write(buf.Bytes())
	return err
}

// weightText shows a refitted weight, or "undetermined".
func weightText(w float64) string {
	if math.IsNaN(w) {
		return "undetermined"
	}
	return fmt.Sprintf("%.3g", w)
}

// kernelWarnings merges the warnings of each kernel's predictions: one
// line per kernel and problem, with the range of the term's share and the
// number of sizes it applies to.
func (c *Coverage) kernelWarnings() []string {
	type key struct{ kernel, property, problem string }
	var shares Ranges[key]
	sizes := map[string]int{}
	for _, p := range c.Predictions {
		sizes[p.Kernel]++
		for _, w := range p.Warnings {
			shares.Note(key{p.Kernel, w.Property, w.Problem}, w.Share)
		}
	}
	var out []string
	for _, k := range shares.Keys() {
		a := shares.Of(k)
		share := fmt.Sprintf("%.0f%%", 100*a.Lo)
		if math.Round(100*a.Lo) != math.Round(100*a.Hi) {
			share = fmt.Sprintf("%.0f–%.0f%%", 100*a.Lo, 100*a.Hi)
		}
		out = append(out, fmt.Sprintf("%s (%d of %d sizes): %s", k.kernel, a.N, sizes[k.kernel], describe(k.property, share, k.problem)))
	}
	return out
}
