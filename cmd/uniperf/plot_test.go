package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/datasets"
)

// svgTexts parses the SVG file at path and returns its text elements.
func svgTexts(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	var texts []string
	inText, sawSVG := false, false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: not well-formed XML: %v", path, err)
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
		t.Fatalf("%s: no <svg> element", path)
	}
	return texts
}

// legend returns the texts that end in " predicted" or " measured", or
// are those words alone: the entries of a sweep plot's legend.
func legend(texts []string) []string {
	var out []string
	for _, s := range texts {
		if strings.HasSuffix(" "+s, " predicted") || strings.HasSuffix(" "+s, " measured") {
			out = append(out, s)
		}
	}
	return out
}

// TestPredictPlot draws matmul_skinny over a 2 × 2 grid of m and n with
// the shipped quick table's rows: m along the axis, a predicted series
// per n, and a measured series per n that the table has a row for at the
// plotted sizes with LX = LY = 16, found here from the table itself.
// A tied sweep draws one series along the tied names.
func TestPredictPlot(t *testing.T) {
	dir := t.TempDir()
	weights := filepath.Join(dir, "w.arrow")
	if code, _, stderr := runCommand(t, fitCmd, "fit", embeddedPrefix+shippedTable, "--out", weights); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	tab, err := datasets.OpenShipped(shippedTable)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"n=512 predicted", "n=1024 predicted"}
	for _, n := range []int64{512, 1024} {
		for _, r := range tab.Rows {
			if r.Kernel == "matmul_skinny" && r.Params["n"] == n && (r.Params["m"] == 4096 || r.Params["m"] == 8192) && len(r.Params) == 2 &&
				r.Consts["LX"] == 16 && r.Consts["LY"] == 16 {
				i := slices.Index(want, "n="+strconv.FormatInt(n, 10)+" predicted")
				want = slices.Insert(want, i+1, "n="+strconv.FormatInt(n, 10)+" measured")
				break
			}
		}
	}
	if len(want) == 2 {
		t.Fatalf("the shipped table has no matmul_skinny row to plot")
	}
	svg := filepath.Join(dir, "sweep.svg")
	code, _, stderr := runCommand(t, predictCmd, "predict", "--weights", weights, "matmul_skinny", "--param", "m=4096,8192", "--param", "n=512,1024",
		"--const", "LX=16", "--const", "LY=16", "--plot", svg, "--measured", embeddedPrefix+shippedTable)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	texts := svgTexts(t, svg)
	if got := legend(texts); !slices.Equal(got, want) {
		t.Errorf("legend %q, want %q", got, want)
	}
	if !slices.Contains(texts, "m") || !slices.Contains(texts, "4096") || !slices.Contains(texts, "8192") {
		t.Errorf("no axis m with ticks 4096 and 8192: %q", texts)
	}

	code, _, stderr = runCommand(t, predictCmd, "predict", "--weights", weights, "matmul_tiled", "--sweep", "n=m=ell=2^6..2^8", "--plot", svg)
	if texts := svgTexts(t, svg); code != 0 || !slices.Equal(legend(texts), []string{"predicted"}) || !slices.Contains(texts, "ell = m = n") {
		t.Errorf("tied sweep: exit %d %s, texts %q", code, stderr, texts)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"global_copy", "--param", "n=4096", "--plot", svg}, "--plot draws the time across sizes"},
		{[]string{"global_copy", "--param", "n=4096,8192", "--measured", embeddedPrefix + shippedTable}, "give --plot"},
		{[]string{"matmul_skinny", "--param", "m=4096,8192", "--param", "n=512", "--const", "LX=8", "--plot", svg, "--measured", embeddedPrefix + shippedTable}, "no row times matmul_skinny"},
	} {
		code, _, stderr := runCommand(t, predictCmd, append([]string{"predict", "--weights", weights}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// TestExportPlot draws two devices' rates side by side and reads back
// that every panel (one per rate unit, each labelled "(no bar: ...") has
// a legend entry for each device.
func TestExportPlot(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.arrow"), filepath.Join(dir, "b.arrow")
	// Two tables of the paper suite: weights compare where they were
	// fitted on the same properties.
	for _, c := range [][2]string{{"pocl-epyc-paper.arrow", a}, {"h100-cuda-paper.arrow", b}} {
		if code, _, stderr := runCommand(t, fitCmd, "fit", embeddedPrefix+c[0], "--out", c[1]); code != 0 {
			t.Fatalf("fit %s: exit %d: %s", c[0], code, stderr)
		}
	}
	svg := filepath.Join(dir, "rates.svg")
	if code, _, stderr := runCommand(t, exportCmd, "export", a, b, "--plot", svg); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	texts := svgTexts(t, svg)
	panels := 0
	for _, s := range texts {
		if strings.Contains(s, "(no bar:") {
			panels++
		}
	}
	for _, d := range []string{"pthread-skylake-avx512-AMD EPYC", "NVIDIA H100 80GB HBM3"} {
		if n := countText(texts, d); panels == 0 || n != panels {
			t.Errorf("%s in %d legends, %d panels", d, n, panels)
		}
	}
}

// countText counts the texts equal to s.
func countText(texts []string, s string) int {
	n := 0
	for _, t := range texts {
		if t == s {
			n++
		}
	}
	return n
}
