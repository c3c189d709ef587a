package report

import (
	"bytes"
	"encoding/xml"
	"io"
	"slices"
	"strings"
	"testing"
)

// svgText parses an SVG document and returns its text elements' contents.
func svgText(t *testing.T, data []byte) []string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	var texts []string
	inText := false
	sawSVG := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			sawSVG = sawSVG || e.Name.Local == "svg"
			inText = e.Name.Local == "text"
		case xml.EndElement:
			inText = false
		case xml.CharData:
			if inText {
				texts = append(texts, strings.TrimSpace(string(e)))
			}
		}
	}
	if !sawSVG {
		t.Fatal("no <svg> element")
	}
	return texts
}

func TestPlotValidation(t *testing.T) {
	_, cases := table1(t)
	var k40 []Case
	for _, c := range cases {
		if c.Device == "tesla_k40" {
			k40 = append(k40, c)
		}
	}
	k40[0].Predicted = -1e-4
	var buf bytes.Buffer
	if err := PlotValidation(&buf, k40, "Tesla K40"); err != nil {
		t.Fatal(err)
	}
	texts := strings.Join(svgText(t, buf.Bytes()), "|")
	for _, want := range []string{"finite_difference", "skinny_mm", "n_body", "convolution", "measured (ms)", "predicted (ms)", "Tesla K40 (1 predictions ≤ 0 not shown)"} {
		if !strings.Contains(texts, want) {
			t.Errorf("plot lacks %q; texts %s", want, texts)
		}
	}
	for i := range k40 {
		k40[i].Predicted = 0
	}
	if err := PlotValidation(io.Discard, k40, ""); err == nil {
		t.Error("no error with nothing to plot")
	}
}

func TestPlotRates(t *testing.T) {
	c := twoDevices(t)
	var buf bytes.Buffer
	if err := PlotRates(&buf, c); err != nil {
		t.Fatal(err)
	}
	texts := strings.Join(svgText(t, buf.Bytes()), "|")
	for _, want := range []string{"R9 Fury", "Other GPU", "global.load.f32.stride=1", "local.load.f32", "flop.f64.add", "GB/s", "GFLOP/s"} {
		if !strings.Contains(texts, want) {
			t.Errorf("plot lacks %q", want)
		}
	}
	// Overheads and correction terms are not rates.
	for _, no := range []string{"launch.const", "sync.barrier", "global.minldst"} {
		if strings.Contains(texts, no) {
			t.Errorf("plot shows %q", no)
		}
	}
}

// TestPlotSweep draws two series, one with measurements, and reads back
// the legend: a predicted entry per series and a measured entry for the
// measured one, the axis labels and the title.
func TestPlotSweep(t *testing.T) {
	series := []SweepSeries{
		{Label: "n=512", X: []float64{4096, 1024, 2048}, Predicted: []float64{4e-3, 1e-3, 2e-3},
			MeasuredX: []float64{1024}, Measured: []float64{1.2e-3}},
		{Label: "n=1024", X: []float64{1024, 2048}, Predicted: []float64{2e-3, -1e-3}},
	}
	var buf bytes.Buffer
	if err := PlotSweep(&buf, series, "m", "matmul on X"); err != nil {
		t.Fatal(err)
	}
	texts := svgText(t, buf.Bytes())
	var legend []string
	for _, s := range texts {
		if strings.HasSuffix(s, " predicted") || strings.HasSuffix(s, " measured") {
			legend = append(legend, s)
		}
	}
	if want := []string{"n=512 predicted", "n=512 measured", "n=1024 predicted"}; !slices.Equal(legend, want) {
		t.Errorf("legend %q, want %q", legend, want)
	}
	for _, want := range []string{"m", "time (ms)", "matmul on X", "1024", "2048", "4096"} {
		if !slices.Contains(texts, want) {
			t.Errorf("plot lacks %q; texts %q", want, texts)
		}
	}
	if err := PlotSweep(io.Discard, nil, "m", ""); err == nil {
		t.Error("no error with nothing to plot")
	}
}
