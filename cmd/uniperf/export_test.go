package main

import (
	"bytes"
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/ipc"

	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/weightsio"
)

// writeTestWeights writes a small weight table and returns its path.
func writeTestWeights(t *testing.T, dir, file, device, set string, props []string, vals []float64) string {
	t.Helper()
	w := &fit.Weights{Device: device, Model: fit.ModelUnified, Version: "test", PropertySet: set,
		Properties: props, Values: vals, Diagnostics: fit.Diagnostics{ClassError: map[string]float64{}}}
	path := filepath.Join(dir, file)
	if err := weightsio.WriteWeights(path, w); err != nil {
		t.Fatal(err)
	}
	return path
}

func exportFixture(t *testing.T) (dir, a, b string) {
	dir = t.TempDir()
	props := []string{"global.load.f32.stride=1", "local.load.f32", "flop.f32.add", "launch.const"}
	a = writeTestWeights(t, dir, "a.arrow", "GPU A", "sha256:1", props, []float64{8e-12, -1e-12, 1e-12, 1e-5})
	b = writeTestWeights(t, dir, "b.arrow", "GPU B", "sha256:1", props[:3], []float64{4e-12, 2e-12, 5e-13})
	return dir, a, b
}

func TestExportMarkdownAndCSV(t *testing.T) {
	_, a, b := exportFixture(t)
	var out bytes.Buffer
	if err := exportWeights(&out, []string{a, b}, exportOptions{format: "markdown"}); err != nil {
		t.Fatal(err)
	}
	md := out.String()
	// 4 bytes / 8e-12 s = 500 GB/s, 4 / 4e-12 = 1000 GB/s; 1 / 5e-13 s = 2000 GFLOP/s.
	for _, want := range []string{
		"| global.load.f32.stride=1 | GB/s | 8.000e-12 | 500.0 | 4.000e-12 | 1000 |",
		"| local.load.f32 | GB/s | -1.000e-12 | negative weight | 2.000e-12 | 2000 |",
		"| flop.f32.add | GFLOP/s | 1.000e-12 | 1000 | 5.000e-13 | 2000 |",
		"| launch.const | µs | 1.000e-05 | 10.00 |  |  |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}

	out.Reset()
	if err := exportWeights(&out, []string{a, b}, exportOptions{format: "csv"}); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 5 || recs[0][2] != "GPU A weight_s" || recs[0][5] != "GPU B weight_s" {
		t.Errorf("csv %v", recs)
	}
}

func TestExportFilesAndPlot(t *testing.T) {
	dir, a, b := exportFixture(t)
	out := filepath.Join(dir, "both.arrow")
	svg := filepath.Join(dir, "rates.svg")
	var stdout bytes.Buffer
	if err := exportWeights(&stdout, []string{a, b}, exportOptions{format: "arrow", out: out, plot: svg}); err != nil {
		t.Fatal(err)
	}
	if stdout.Len() != 0 {
		t.Errorf("wrote %d bytes to stdout with --out", stdout.Len())
	}
	data, err := os.ReadFile(out)
	if err != nil || !bytes.HasPrefix(data, []byte("ARROW1")) {
		t.Errorf("arrow output: %v", err)
	}
	plot, err := os.ReadFile(svg)
	if err != nil || !bytes.Contains(plot, []byte("<svg")) || !bytes.Contains(plot, []byte("GPU B")) {
		t.Errorf("plot: %v", err)
	}
}

func TestExportLabelsRepeatedDevice(t *testing.T) {
	dir, a, _ := exportFixture(t)
	c := writeTestWeights(t, dir, "a-again.arrow", "GPU A", "sha256:1", []string{"flop.f32.add"}, []float64{1e-12})
	var out bytes.Buffer
	if err := exportWeights(&out, []string{a, c}, exportOptions{format: "csv"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "GPU A (a.arrow) weight_s") || !strings.Contains(out.String(), "GPU A (a-again.arrow) weight_s") {
		t.Errorf("labels:\n%s", out.String())
	}
}

func TestExportBadInput(t *testing.T) {
	dir, a, _ := exportFixture(t)
	corrupt := filepath.Join(dir, "corrupt.arrow")
	os.WriteFile(corrupt, []byte("ARROW1 but not really"), 0o644)
	for _, tc := range []struct {
		paths []string
		opts  exportOptions
		want  string
	}{
		{[]string{a}, exportOptions{format: "xml"}, `--format "xml"`},
		{[]string{a}, exportOptions{format: "arrow"}, "give --out"},
		{[]string{corrupt}, exportOptions{format: "csv"}, corrupt},
		{[]string{filepath.Join(dir, "missing.arrow")}, exportOptions{format: "csv"}, "missing.arrow"},
	} {
		err := exportWeights(&bytes.Buffer{}, tc.paths, tc.opts)
		var sys *failure
		if err == nil || !strings.Contains(err.Error(), tc.want) || errors.As(err, &sys) {
			t.Errorf("%v %+v: got %v, want bad input naming %q", tc.paths, tc.opts, err, tc.want)
		}
	}
	if code := run([]string{"export", "--format", "markdown", "--out", "", "--plot", "", corrupt}); code != 2 {
		t.Errorf("exit status %d for a corrupt table, want 2", code)
	}
}

// A weight table without a checksum (written before uniperf wrote one) is
// read with a note on standard error, as a measurement table is; one with
// a checksum is read without. The checksum-less file is the written one
// with the checksum's metadata entry removed.
func TestUncheckedWeightsNote(t *testing.T) {
	dir := t.TempDir()
	checked := writeTestWeights(t, dir, "checked.arrow", "dev", "set", []string{"launch.const"}, []float64{1e-6})
	data, err := os.ReadFile(checked)
	if err != nil {
		t.Fatal(err)
	}
	fr, err := ipc.NewFileReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer fr.Close()
	md := fr.Schema().Metadata()
	var keys, values []string
	for i, k := range md.Keys() {
		if k != "uniperf.checksum" {
			keys, values = append(keys, k), append(values, md.Values()[i])
		}
	}
	if len(keys) == md.Len() {
		t.Fatalf("the written weights have no uniperf.checksum: %v", md.Keys())
	}
	stripped := arrow.NewMetadata(keys, values)
	rec, err := fr.Record(0)
	if err != nil {
		t.Fatal(err)
	}
	old, err := weightsio.EncodeRecord(arrow.NewSchema(fr.Schema().Fields(), &stripped), rec)
	if err != nil {
		t.Fatal(err)
	}
	unchecked := filepath.Join(dir, "unchecked.arrow")
	if err := os.WriteFile(unchecked, old, 0o644); err != nil {
		t.Fatal(err)
	}
	note := "note: " + unchecked + " has no checksum (written before uniperf wrote one)"
	if code, msg := runAll(t, "export", unchecked); code != 0 || !strings.Contains(msg, note) {
		t.Errorf("export of weights without a checksum: exit %d, %q; want 0 and %q", code, msg, note)
	}
	if code, msg := runAll(t, "export", checked); code != 0 || strings.Contains(msg, "no checksum") {
		t.Errorf("export of weights with a checksum: exit %d, %q; want 0 and no note", code, msg)
	}
}
