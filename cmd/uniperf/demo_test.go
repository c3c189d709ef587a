package main

import (
	"bytes"
	"flag"
	"io"
	"math"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var updateDemoCache = flag.Bool("update-demo-cache", false, "rewrite "+demoCacheFile+" from the shipped tables")

// shortDemoTables are the tables TestDemoSummaryCache runs the demo on
// under -short: the quick PoCL table and one GPU table of the paper suite,
// a CPU and a GPU device, both suites, every fit and model. Each table is
// worked on alone, so the summaries of the other four are computed by the
// same code on other rows; make test-long runs all six.
var shortDemoTables = []string{embeddedPrefix + "h100-cuda-paper.arrow", embeddedPrefix + shippedTable}

// TestDemoSummaryCache runs the whole demo, checks its report, and checks
// the summaries that the one-screen demo reads from demosummary.json
// against the ones this run computed from the tables (under -short, on
// shortDemoTables only).
func TestDemoSummaryCache(t *testing.T) {
	// It shares nothing with the commands other tests run in this
	// process, and overlaps the kill-and-resume measurement on PoCL.
	t.Parallel()
	names := shippedTables()
	if testing.Short() && !*updateDemoCache {
		names = shortDemoTables
	}
	var out, progress bytes.Buffer
	sums, err := demoReport(&out, &progress, names)
	if err != nil {
		t.Fatal(err)
	}
	report := out.String()
	wants := map[string][]string{
		"": {"test kernels, free fit", "test kernels, default fit", "finite_diff", "matmul_skinny",
			"nbody", "convolution", "cross-kernel", "| property | rate unit | free fit weight (s/op)",
			"coverage of the default fit", "leave-one-class-out cross-validation", "== every model on the same rows"},
		"pocl-epyc-paper.arrow": {"== embedded:pocl-epyc-paper.arrow: pthread-skylake-avx512-AMD EPYC, suite paper",
			"xu         pthread-skylake-avx512-AMD EPYC  16/16"},
		shippedTable: {"== embedded:pocl-epyc-quick.arrow: pthread-skylake-avx512-AMD EPYC, suite quick, 172 rows",
			"default fit  70/156", "xu         pthread-skylake-avx512-AMD EPYC  16/16"},
		"h100-cuda-paper.arrow": {"== embedded:h100-cuda-paper.arrow: NVIDIA H100 80GB HBM3, suite paper, 1215 rows",
			"default fit  992/1199", "xu         NVIDIA H100 80GB HBM3  16/16"},
	}
	for table, strs := range wants {
		if table != "" && !slices.Contains(names, embeddedPrefix+table) {
			continue
		}
		for _, want := range strs {
			if !strings.Contains(report, want) {
				t.Errorf("demo --full output lacks %q", want)
			}
		}
	}
	if n, want := strings.Count(progress.String(), "\n"), len(names); n != want {
		t.Errorf("%d progress lines, want one per table (%d):\n%s", n, want, progress.String())
	}
	if *updateDemoCache {
		data, err := encodeDemoCache(sums)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(demoCacheFile, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	cached, err := cachedSummaries()
	if err != nil {
		t.Fatal(err)
	}
	if len(cached) != len(shippedTables()) {
		t.Errorf("%s holds %d tables, the binary embeds %d", demoCacheFile, len(cached), len(shippedTables()))
	}
	for _, s := range sums {
		if got, want := rounded(t, cached[s.Table]), rounded(t, s); !reflect.DeepEqual(got, want) {
			t.Errorf("%s in %s:\n%+v\nrecomputed from the table:\n%+v\n(go test ./cmd/uniperf -run TestDemoSummaryCache -update-demo-cache rewrites it)", s.Table, demoCacheFile, got, want)
		}
	}
}

// rounded is s with every figure rounded to 9 significant digits, so that
// a platform's floating-point contractions do not tell it from itself.
func rounded(t *testing.T, s tableSummary) tableSummary {
	t.Helper()
	r := func(x float64) float64 {
		y, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 9, 64), 64)
		if err != nil || math.IsNaN(y) {
			t.Fatalf("%s: figure %v", s.Table, x)
		}
		return y
	}
	s.Fits = append([]fitSummary(nil), s.Fits...)
	for i, f := range s.Fits {
		f.Test, f.CV = r(f.Test), r(f.CV)
		f.Kernels = append([]kernelError(nil), f.Kernels...)
		for j := range f.Kernels {
			f.Kernels[j].Err = r(f.Kernels[j].Err)
		}
		s.Fits[i] = f
	}
	s.Models = append([]modelSummary(nil), s.Models...)
	for i := range s.Models {
		s.Models[i].Err = r(s.Models[i].Err)
	}
	return s
}

// TestDemoSummary checks that the demo answers on one screen from the
// cached summaries, with no progress line, and names what --full adds.
func TestDemoSummary(t *testing.T) {
	code, out, stderr := runCommand(t, demoCmd, "demo")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := strings.Count(out, "\n"); n > 60 {
		t.Errorf("%d lines, want at most 60:\n%s", n, out)
	}
	cached, err := cachedSummaries()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range shippedTables() {
		s := cached[name]
		if !strings.Contains(out, shortTable(name)+"  ") || len(s.Fits) != len(demoFits) {
			t.Errorf("demo output lacks %s, or its summary %+v has no line per fit:\n%s", name, s, out)
		}
	}
	for _, want := range []string{"--full", "free fit", "default fit", "cross-kernel", "leave-one-class-out",
		"finite_diff", "matmul_skinny", "nbody", "convolution", "hongkim", "resios", "xu"} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
}

// TestDemoSummaryStale checks that a table whose summary was computed on
// other bytes is fitted afresh, with a progress line, to the same figures.
func TestDemoSummaryStale(t *testing.T) {
	cached, err := cachedSummaries()
	if err != nil {
		t.Fatal(err)
	}
	const quick = embeddedPrefix + shippedTable
	want := cached[quick]
	stale := cached[quick]
	stale.SHA256, stale.Fits = "0", nil
	cached[quick] = stale
	var out, progress bytes.Buffer
	sums, err := demoSummaries(&progress, cached)
	if err != nil || writeSummaries(&out, sums) != nil {
		t.Fatal(err)
	}
	if !strings.Contains(progress.String(), quick+" (6 of 6) differs from the table "+demoCacheFile+" was computed on") {
		t.Errorf("progress:\n%s", progress.String())
	}
	cached[quick] = want
	var fromCache bytes.Buffer
	sums, err = demoSummaries(io.Discard, cached)
	if err != nil || writeSummaries(&fromCache, sums) != nil {
		t.Fatal(err)
	}
	if out.String() != fromCache.String() {
		t.Errorf("recomputed:\n%s\ncached:\n%s", out.String(), fromCache.String())
	}
}
