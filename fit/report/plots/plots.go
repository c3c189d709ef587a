package plots

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/uniperf/uniperf/fit/report"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Validation draws predicted against measured times on log-log axes,
// one marker style per kernel, with the diagonal of perfect prediction, and
// writes it as SVG. Cases with a predicted time ≤ 0 (possible with negative
// weights) cannot sit on a log axis; they are left out and counted in the
// title.
func Validation(w io.Writer, cases []report.Case, title string) error {
	p, err := validationPlot(cases, title)
	if err != nil {
		return err
	}
	return writeSVG(w, vg.Points(480), vg.Points(480), p)
}

func validationPlot(cases []report.Case, title string) (*plot.Plot, error) {
	r, err := report.NewReport(cases)
	if err != nil {
		return nil, err
	}
	series := make([]markerSeries, len(r.Kernels))
	for i, k := range r.Kernels {
		series[i].Label = k
		for _, c := range cases {
			if c.Kernel == k {
				series[i].Measured = append(series[i].Measured, c.Measured)
				series[i].Predicted = append(series[i].Predicted, c.Predicted)
			}
		}
	}
	return predictedVsMeasured(series, title, 0)
}

// markerSeries is one marker style of a predicted-against-measured plot:
// pairs of measured and predicted times in seconds.
type markerSeries struct {
	Label               string
	Measured, Predicted []float64
}

// predictedVsMeasured plots series of predicted against measured times,
// in milliseconds on log-log axes, with the dashed diagonal of perfect
// prediction. Points predicted at ≤ 0 (possible with negative weights)
// cannot sit on a log axis; they are left out and counted in the title,
// with the missing rows that have no prediction at all.
func predictedVsMeasured(series []markerSeries, title string, missing int) (*plot.Plot, error) {
	p := plot.New()
	p.X.Label.Text = "measured (ms)"
	p.Y.Label.Text = "predicted (ms)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Legend.Top, p.Legend.Left = true, true

	lo, hi := math.Inf(1), math.Inf(-1)
	nonPositive := 0
	for i, sr := range series {
		var pts plotter.XYs
		for j, m := range sr.Measured {
			if sr.Predicted[j] <= 0 {
				nonPositive++
				continue
			}
			x, y := m*1e3, sr.Predicted[j]*1e3
			pts = append(pts, plotter.XY{X: x, Y: y})
			lo, hi = math.Min(lo, math.Min(x, y)), math.Max(hi, math.Max(x, y))
		}
		if len(pts) == 0 {
			continue
		}
		s, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, err
		}
		s.GlyphStyle.Color = plotutil.Color(i)
		s.GlyphStyle.Shape = plotutil.Shape(i)
		s.GlyphStyle.Radius = vg.Points(3)
		p.Add(s)
		p.Legend.Add(sr.Label, s)
	}
	if math.IsInf(lo, 1) {
		return nil, fmt.Errorf("plot %s: no prediction with a positive time", title)
	}
	// Pad the diagonal by a factor of 1.5 both ways so that the extreme
	// points do not sit on the frame.
	diag, err := plotter.NewLine(plotter.XYs{{X: lo / 1.5, Y: lo / 1.5}, {X: hi * 1.5, Y: hi * 1.5}})
	if err != nil {
		return nil, err
	}
	diag.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(diag)
	p.Title.Text = title
	switch {
	case missing > 0:
		p.Title.Text += fmt.Sprintf(" (%d not shown: not predicted or ≤ 0)", missing+nonPositive)
	case nonPositive > 0:
		p.Title.Text += fmt.Sprintf(" (%d predictions ≤ 0 not shown)", nonPositive)
	}
	return p, nil
}

// Rates draws the sustained rates of the compared devices as grouped
// horizontal bars, one panel per rate unit (GB/s, GFLOP/s, GOP/s), and
// writes it as SVG. Properties with no rate on a device (no weight, or a
// weight ≤ 0) get no bar there; overheads (ns, µs) are not rates and are
// not drawn.
func Rates(w io.Writer, c *report.WeightComparison) error {
	plots, height, err := ratePlots(c)
	if err != nil {
		return err
	}
	canvas := vgsvg.New(vg.Points(560), height)
	drawStacked(draw.New(canvas), plots)
	_, err = canvas.WriteTo(w)
	return err
}

// drawStacked draws plots one above the other.
func drawStacked(dc draw.Canvas, plots []*plot.Plot) {
	tiles := draw.Tiles{Rows: len(plots), Cols: 1, PadY: vg.Points(12)}
	for i, p := range plots {
		p.Draw(tiles.At(dc, 0, i))
	}
}

// ratePlots returns one panel per rate unit and the height they need.
func ratePlots(c *report.WeightComparison) ([]*plot.Plot, vg.Length, error) {
	var plots []*plot.Plot
	var rows int
	for _, u := range []string{"GB/s", "GFLOP/s", "GOP/s"} {
		var props []string
		for _, p := range c.Properties {
			if report.DerivedRate(p, 1).Unit == u {
				props = append(props, p)
			}
		}
		if len(props) == 0 {
			continue
		}
		p, err := ratePanel(c, props, u)
		if err != nil {
			return nil, 0, err
		}
		plots = append(plots, p)
		rows += len(props)
	}
	if len(plots) == 0 {
		return nil, 0, fmt.Errorf("plot: no memory or arithmetic property to draw")
	}
	return plots, vg.Points(float64(rows*len(c.Tables))*10 + float64(len(plots))*90), nil
}

func ratePanel(c *report.WeightComparison, props []string, u string) (*plot.Plot, error) {
	p := plot.New()
	p.X.Label.Text = u + " (no bar: no weight, or a weight ≤ 0)"
	p.X.Min = 0
	p.Legend.Top = true
	barWidth := vg.Points(8)
	n := len(c.Tables)
	// Rows count from the bottom: list the properties top-down, and keep
	// an empty top row for the legend.
	labels := make([]string, len(props)+1)
	for k, prop := range props {
		labels[len(props)-1-k] = prop
	}
	for i := range c.Tables {
		vals := make(plotter.Values, len(labels))
		for k, prop := range labels[:len(props)] {
			if w, ok := c.Tables[i].Weight(prop); ok {
				if r := report.DerivedRate(prop, w); r.OK {
					vals[k] = r.Value
				}
			}
		}
		b, err := plotter.NewBarChart(vals, barWidth)
		if err != nil {
			return nil, err
		}
		b.Horizontal = true
		b.Color = plotutil.Color(i)
		b.LineStyle.Width = 0
		b.Offset = barWidth * vg.Length(float64(n-1)/2-float64(i))
		p.Add(b)
		p.Legend.Add(c.Labels[i], b)
	}
	p.NominalY(labels...)
	return p, nil
}

func writeSVG(w io.Writer, width, height vg.Length, p *plot.Plot) error {
	canvas := vgsvg.New(width, height)
	p.Draw(draw.New(canvas))
	_, err := canvas.WriteTo(w)
	return err
}

// SweepSeries is one curve of a sweep plot: the predicted times at the
// sizes X and, where measured, the measured times at the sizes MeasuredX,
// in seconds.
type SweepSeries struct {
	Label               string
	X, Predicted        []float64
	MeasuredX, Measured []float64
}

// Sweep draws run time against one size parameter, named xLabel: each
// series' predictions as a line with points, its measurements as open
// markers of the same colour, and writes it as SVG. An axis is
// logarithmic where every value on it is positive, since sweeps span
// orders of magnitude; a prediction ≤ 0 (possible with negative weights)
// makes the time axis linear rather than drop the point.
func Sweep(w io.Writer, series []SweepSeries, xLabel, title string) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = "time (ms)"
	p.Legend.Top, p.Legend.Left = true, true
	logX, logY := true, true
	for _, s := range series {
		for _, x := range append(slices.Clone(s.X), s.MeasuredX...) {
			logX = logX && x > 0
		}
		for _, y := range append(slices.Clone(s.Predicted), s.Measured...) {
			logY = logY && y > 0
		}
	}
	if logX {
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	}
	// Sweeps go by powers of two, which logarithmic ticks (powers of ten)
	// leave unlabelled: a few sizes are labelled themselves.
	var sizes []float64
	for _, s := range series {
		sizes = append(append(sizes, s.X...), s.MeasuredX...)
	}
	slices.Sort(sizes)
	if sizes = slices.Compact(sizes); len(sizes) <= 12 {
		ticks := make(plot.ConstantTicks, len(sizes))
		for i, x := range sizes {
			ticks[i] = plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'f', -1, 64)}
		}
		p.X.Tick.Marker = ticks
	}
	if logY {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	}
	label := func(s SweepSeries, what string) string {
		if s.Label == "" {
			return what
		}
		return s.Label + " " + what
	}
	points := 0
	for i, s := range series {
		if len(s.X) > 0 {
			line, marks, err := plotter.NewLinePoints(sweepXYs(s.X, s.Predicted))
			if err != nil {
				return err
			}
			line.Color, marks.Color = plotutil.Color(i), plotutil.Color(i)
			marks.Shape, marks.Radius = draw.CircleGlyph{}, vg.Points(2)
			p.Add(line, marks)
			p.Legend.Add(label(s, "predicted"), line, marks)
			points += len(s.X)
		}
		if len(s.MeasuredX) > 0 {
			m, err := plotter.NewScatter(sweepXYs(s.MeasuredX, s.Measured))
			if err != nil {
				return err
			}
			m.Color, m.Shape, m.Radius = plotutil.Color(i), draw.RingGlyph{}, vg.Points(4)
			p.Add(m)
			p.Legend.Add(label(s, "measured"), m)
			points += len(s.MeasuredX)
		}
	}
	if points == 0 {
		return fmt.Errorf("plot %s: no point to draw", title)
	}
	return writeSVG(w, vg.Points(560), vg.Points(400), p)
}

// sweepXYs pairs sizes with times in milliseconds, ordered by size so that
// a line joins neighbours.
func sweepXYs(x, seconds []float64) plotter.XYs {
	xy := make(plotter.XYs, len(x))
	for i := range x {
		xy[i] = plotter.XY{X: x[i], Y: seconds[i] * 1e3}
	}
	slices.SortFunc(xy, func(a, b plotter.XY) int { return cmp.Compare(a.X, b.X) })
	return xy
}
