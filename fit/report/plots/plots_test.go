package plots

import (
	"bytes"
	"encoding/csv"
	"encoding/xml"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/report"
)

// k40Cases returns seed 001's Table 1 rows for the Tesla K40, which
// fit/report's tests check against the paper, as cases in seconds.
func k40Cases(t *testing.T) []report.Case {
	t.Helper()
	f, err := os.Open("../testdata/seed001-table1.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comment = '#'
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var cases []report.Case
	for _, rec := range recs[1:] {
		if rec[1] != "tesla_k40" {
			continue
		}
		m, err1 := strconv.ParseFloat(rec[3], 64)
		p, err2 := strconv.ParseFloat(rec[4], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("bad row %v", rec)
		}
		cases = append(cases, report.Case{Device: rec[1], Kernel: rec[0], Size: rec[2], Measured: m / 1e3, Predicted: p / 1e3})
	}
	return cases
}

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

func TestValidation(t *testing.T) {
	k40 := k40Cases(t)
	k40[0].Predicted = -1e-4
	var buf bytes.Buffer
	if err := Validation(&buf, k40, "Tesla K40"); err != nil {
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
	if err := Validation(io.Discard, k40, ""); err == nil {
		t.Error("no error with nothing to plot")
	}
}

func TestRates(t *testing.T) {
	fury := &fit.Weights{Device: "R9 Fury", Model: fit.ModelUnified, PropertySet: "sha256:x",
		Properties: []string{"global.load.f32.stride=1", "global.minldst.f32.stride=1", "local.load.f32", "flop.f32.add", "sync.barrier", "launch.const"},
		Values:     []float64{8.27e-12, 1e-12, 1e-12, 6.81e-13, 4.26e-11, 1.29e-4}}
	other := &fit.Weights{Device: "Other GPU", Model: fit.ModelUnified, PropertySet: "sha256:x",
		Properties: []string{"launch.const", "global.load.f32.stride=1", "flop.f64.add"},
		Values:     []float64{5e-6, 4e-12, 2e-12}}
	c, err := report.CompareWeights([]*fit.Weights{fury, other}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Rates(&buf, c); err != nil {
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

// TestSweep draws two series, one with measurements, and reads back
// the legend: a predicted entry per series and a measured entry for the
// measured one, the axis labels and the title.
func TestSweep(t *testing.T) {
	series := []SweepSeries{
		{Label: "n=512", X: []float64{4096, 1024, 2048}, Predicted: []float64{4e-3, 1e-3, 2e-3},
			MeasuredX: []float64{1024}, Measured: []float64{1.2e-3}},
		{Label: "n=1024", X: []float64{1024, 2048}, Predicted: []float64{2e-3, -1e-3}},
	}
	var buf bytes.Buffer
	if err := Sweep(&buf, series, "m", "matmul on X"); err != nil {
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
	if err := Sweep(io.Discard, nil, "m", ""); err == nil {
		t.Error("no error with nothing to plot")
	}
}
