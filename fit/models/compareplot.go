package models

import (
	"fmt"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// WritePlot draws predicted against measured time, log-log, one marker
// style per model, with the diagonal of perfect prediction: a panel for
// the test rows and, when the comparison has them, one for the
// leave-one-class-out predictions. It writes SVG. Rows a model did not
// predict, or predicted at ≤ 0 s, cannot sit on a log axis and are counted
// in the panel's title.
func (c *Comparison) WritePlot(w io.Writer) error {
	var plots []*plot.Plot
	for _, panel := range []struct {
		title string
		outs  []Outcome
	}{{"test rows", c.Test}, {"leave one class out", c.CV}} {
		if len(panel.outs) == 0 {
			continue
		}
		p, err := comparePanel(c.Models, panel.outs, panel.title)
		if err != nil {
			return err
		}
		plots = append(plots, p)
	}
	if len(plots) == 0 {
		return fmt.Errorf("plot: the comparison has no predictions to draw")
	}
	const side = 420
	canvas := vgsvg.New(vg.Points(float64(side*len(plots))), vg.Points(side))
	tiles := draw.Tiles{Rows: 1, Cols: len(plots), PadX: vg.Points(12)}
	dc := draw.New(canvas)
	for i, p := range plots {
		p.Draw(tiles.At(dc, i, 0))
	}
	_, err := canvas.WriteTo(w)
	return err
}

// comparePanel is one predicted-against-measured panel.
func comparePanel(models []string, outs []Outcome, title string) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text, p.Y.Label.Text = "measured (ms)", "predicted (ms)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Legend.Top, p.Legend.Left = true, true
	lo, hi := math.Inf(1), math.Inf(-1)
	left := 0
	for i, m := range models {
		var pts plotter.XYs
		for _, o := range outs {
			if o.Model != m {
				continue
			}
			if o.Err != "" || o.Predicted <= 0 {
				left++
				continue
			}
			x, y := o.Measured*1e3, o.Predicted*1e3
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
		s.GlyphStyle.Color, s.GlyphStyle.Shape = plotutil.Color(i), plotutil.Shape(i)
		s.GlyphStyle.Radius = vg.Points(3)
		p.Add(s)
		p.Legend.Add(m, s)
	}
	if math.IsInf(lo, 1) {
		return nil, fmt.Errorf("plot: no %s prediction with a positive time", title)
	}
	// Pad the diagonal by 1.5 both ways so that extreme points are not on
	// the frame.
	diag, err := plotter.NewLine(plotter.XYs{{X: lo / 1.5, Y: lo / 1.5}, {X: hi * 1.5, Y: hi * 1.5}})
	if err != nil {
		return nil, err
	}
	diag.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(diag)
	if left > 0 {
		p.Title.Text += fmt.Sprintf(" (%d not shown: not predicted or ≤ 0)", left)
	}
	return p, nil
}
