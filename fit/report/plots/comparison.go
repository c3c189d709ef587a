package plots

import (
	"fmt"
	"io"

	"github.com/uniperf/uniperf/fit/report"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Comparison draws predicted against measured time, log-log, one marker
// style per model, with the diagonal of perfect prediction: a panel for
// the test rows and, when there are any, one for the leave-one-class-out
// predictions cv, as a models.Comparison holds them. It writes SVG. Rows a
// model did not predict, or predicted at ≤ 0 s, cannot sit on a log axis
// and are counted in the panel's title.
func Comparison(w io.Writer, models []string, test, cv []report.Case) error {
	var plots []*plot.Plot
	for _, panel := range []struct {
		title string
		outs  []report.Case
	}{{"test rows", test}, {"leave one class out", cv}} {
		if len(panel.outs) == 0 {
			continue
		}
		p, err := comparePanel(models, panel.outs, panel.title)
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
func comparePanel(models []string, outs []report.Case, title string) (*plot.Plot, error) {
	series := make([]markerSeries, len(models))
	missing := 0
	for i, m := range models {
		series[i].Label = m
		for _, o := range outs {
			switch {
			case o.Model != m:
			case o.Err != "":
				missing++
			default:
				series[i].Measured = append(series[i].Measured, o.Measured)
				series[i].Predicted = append(series[i].Predicted, o.Predicted)
			}
		}
	}
	return predictedVsMeasured(series, title, missing)
}
