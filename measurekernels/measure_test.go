package measurekernels

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/launch/pocltest"
	"github.com/uniperf/uniperf/measurekernels/suite"
)

func runFixture(t *testing.T, dev gpu.Device, path string, opts Options) (*Report, *datasets.Table) {
	t.Helper()
	if opts.Runs == 0 {
		opts.Runs, opts.Discard = 5, 1
	}
	w, err := datasets.OpenWriter(path, Meta(dev.Info(), opts))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	rep, err := Measure(dev, w, opts)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := datasets.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return rep, tab
}

func TestMeasureFixture(t *testing.T) {
	dev := pocltest.Open(t)
	path := filepath.Join(t.TempDir(), "m.arrow")
	rep, tab := runFixture(t, dev, path, Options{Suite: fixtureSuite(t, ""), Generate: fixture(nil), SizeClass: "large"})
	if len(rep.Failures) > 0 {
		t.Fatalf("failures: %v", rep.Failures)
	}
	// global_copy: 2 sizes x 2 groups; vector_scale_add: 2 sizes x 2
	// strides x 2 groups; empty: 2 sizes x 1 group.
	if rep.Rows != 14 || len(tab.Rows) != 14 {
		t.Fatalf("%d rows reported, %d in the table; want 14 (skipped %v)", rep.Rows, len(tab.Rows), rep.Skipped)
	}
	if tab.Rows[0].Kernel != "empty" || rep.Overhead != tab.Rows[0].TimeS {
		t.Errorf("the empty kernel must be measured first, and its time is the overhead: first row %s, overhead %g", tab.Rows[0].Kernel, rep.Overhead)
	}
	for _, r := range tab.Rows {
		if len(r.RawTimesS) != 5 || r.RunsDiscarded != 1 || r.TimeS != slices.Min(r.RawTimesS[1:]) {
			t.Errorf("%s: raw times %v, time %g", r.Kernel, r.RawTimesS, r.TimeS)
		}
		if r.Kernel == "vector_scale_add" {
			n, lx := r.Params["n"], r.Consts["LX"]
			groups := (n/r.Consts["STRIDE"] + lx) / lx // i ranges over 0 <= i < ceil(n/STRIDE)
			if n%r.Consts["STRIDE"] == 0 {
				groups = (n/r.Consts["STRIDE"] + lx - 1) / lx
			}
			if !slices.Equal(r.LocalSize, []int64{lx}) || !slices.Equal(r.GlobalSize, []int64{groups * lx}) {
				t.Errorf("vector_scale_add %v %v: local %v global %v", r.Params, r.Consts, r.LocalSize, r.GlobalSize)
			}
		}
	}
	if tab.Meta.Suite != "fixture" || !strings.Contains(tab.Meta.Method, "5 runs per row") {
		t.Errorf("metadata %+v", tab.Meta)
	}
	if e := rep.Efficiency(); !(e > 0 && e <= 1) {
		t.Errorf("efficiency %g", e)
	}
}

func TestWrongKernelIsNeverTimed(t *testing.T) {
	dev := pocltest.Open(t)
	path := filepath.Join(t.TempDir(), "m.arrow")
	rep, tab := runFixture(t, dev, path, Options{Suite: fixtureSuite(t, ""), SizeClass: "large",
		Generate: fixture(map[string]string{"global_copy": "+ 1.0f"})})
	if len(rep.Failures) != 2 { // one per work-group size: each is its own program
		t.Fatalf("failures %v, want the two global_copy programs", rep.Failures)
	}
	for _, err := range rep.Failures {
		if msg := err.Error(); !strings.Contains(msg, "correctness check failed, not timed") || !strings.Contains(msg, "array b:") {
			t.Errorf("failure message %q", msg)
		}
	}
	for _, r := range tab.Rows {
		if r.Kernel == "global_copy" {
			t.Errorf("a wrong kernel was timed: %v", r.Params)
		}
	}
	if len(tab.Rows) != 10 {
		t.Errorf("%d rows, want the 10 of the other kernels", len(tab.Rows))
	}
}

func TestCompileFailureShowsTheLog(t *testing.T) {
	dev := pocltest.Open(t)
	path := filepath.Join(t.TempDir(), "m.arrow")
	rep, tab := runFixture(t, dev, path, Options{Suite: fixtureSuite(t, ""), SizeClass: "large", Kernels: []string{"vector_scale_add", "empty"},
		Generate: fixture(map[string]string{"vector_scale_add": "__kernel void vector_scale_add(__global float *x) { x[0] = undefined_thing; }"})})
	if len(rep.Failures) != 4 { // 2 strides x 2 work-group sizes
		t.Fatalf("failures %v", rep.Failures)
	}
	var ce *gpu.CompileError
	if msg := rep.Failures[0].Error(); !strings.Contains(msg, "undefined_thing") || !strings.Contains(msg, "vector_scale_add LX=") {
		t.Errorf("compile failure %q should name the program and carry the compiler log", msg)
	} else if !errors.As(rep.Failures[0], &ce) {
		t.Errorf("compile failure is not a *gpu.CompileError: %T", rep.Failures[0])
	}
	if len(tab.Rows) != 2 || tab.Rows[0].Kernel != "empty" {
		t.Errorf("rows %d, want the empty kernel's 2", len(tab.Rows))
	}
}

func TestCasesBeyondDeviceMemoryAreSkipped(t *testing.T) {
	dev := pocltest.Open(t)
	info := dev.Info()
	// 2^p floats per array, with p chosen so that one array exceeds the
	// largest allocation.
	p := 2
	for int64(4)<<p <= info.MaxAllocBytes {
		p++
	}
	big := `,{"kernel": "global_store_index", "class": "global_stride1", "role": "measurement", "groups": "1d",
	   "variants": [{"name": "index", "params": {"n": "N"}}], "sizes": {"p": [` + strconv.Itoa(p) + `], "t": [0], "step": 1}, "check": {"N": 100}}`
	path := filepath.Join(t.TempDir(), "m.arrow")
	rep, _ := runFixture(t, dev, path, Options{Suite: fixtureSuite(t, big), SizeClass: "large", Kernels: []string{"global_store_index"},
		Generate: fixture(nil)})
	if len(rep.Skipped) != 1 || !strings.Contains(rep.Skipped[0], "does not fit the device's memory") {
		t.Errorf("skipped %v", rep.Skipped)
	}
}

func TestMeasureResumes(t *testing.T) {
	dev := pocltest.Open(t)
	path := filepath.Join(t.TempDir(), "m.arrow")
	opts := Options{Suite: fixtureSuite(t, ""), Generate: fixture(nil), SizeClass: "large", Kernels: []string{"empty", "vector_scale_add"}}
	rep, tab := runFixture(t, dev, path, opts)
	if rep.Rows != 10 || len(tab.Rows) != 10 {
		t.Fatalf("first run: %d rows", rep.Rows)
	}
	first := tab.Rows
	opts.Kernels = nil
	rep, tab = runFixture(t, dev, path, opts)
	if rep.Resumed != 10 || rep.Rows != 4 || len(tab.Rows) != 14 {
		t.Fatalf("second run: resumed %d, measured %d, table %d rows; want 10, 4, 14", rep.Resumed, rep.Rows, len(tab.Rows))
	}
	for i, r := range first {
		if r.Key() != tab.Rows[i].Key() || r.TimeS != tab.Rows[i].TimeS {
			t.Errorf("row %d changed on resume", i)
		}
	}
}

// A work-group wider than the domain launches the group's width, as a C
// host does (it launched the domain's width until session 15), and the
// row records that; a resumed run must find those rows by it and time
// nothing again (it used to time them and be refused them as duplicates).
func TestMeasureResumesWideGroups(t *testing.T) {
	dev := pocltest.Open(t)
	small := `,{"kernel": "global_store_index", "class": "global_stride1", "role": "measurement", "groups": "1d",
	   "variants": [{"name": "index", "params": {"n": "N"}}], "sizes": {"p": [5], "t": [0], "step": 1}, "check": {"N": 100}}`
	path := filepath.Join(t.TempDir(), "m.arrow")
	opts := Options{Suite: fixtureSuite(t, small), Generate: fixture(nil), SizeClass: "large", Kernels: []string{"global_store_index"}}
	rep, tab := runFixture(t, dev, path, opts)
	if rep.Rows != 2 || len(tab.Rows) != 2 {
		t.Fatalf("first run: %d rows, want n = 32 at LX = 64 and 48", rep.Rows)
	}
	for _, r := range tab.Rows {
		if len(r.LocalSize) != 1 || r.LocalSize[0] != r.Consts["LX"] || r.Consts["LX"] == 32 {
			t.Fatalf("row %v at LX = %d launched %v, want a group of LX work-items", r.Params, r.Consts["LX"], r.LocalSize)
		}
	}
	rep, tab = runFixture(t, dev, path, opts)
	if rep.Resumed != 2 || rep.Rows != 0 || len(tab.Rows) != 2 {
		t.Errorf("second run: resumed %d, measured %d, table %d rows; want 2, 0, 2", rep.Resumed, rep.Rows, len(tab.Rows))
	}
}

// movingWriter renames the table's directory away when the progress
// reaches a line containing trigger, as if the output vanished mid-run.
type movingWriter struct {
	t         *testing.T
	trigger   string
	dir, away string
	moved     bool
}

func (w *movingWriter) Write(b []byte) (int, error) {
	if !w.moved && strings.Contains(string(b), w.trigger) {
		if err := os.Rename(w.dir, w.away); err != nil {
			w.t.Fatal(err)
		}
		w.moved = true
	}
	return len(b), nil
}

func TestUnwritableTableStopsTheRunAndKeepsRows(t *testing.T) {
	dev := pocltest.Open(t)
	base := t.TempDir()
	dir := filepath.Join(base, "out")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "m.arrow")
	opts := Options{Suite: fixtureSuite(t, ""), Generate: fixture(nil), SizeClass: "large", Runs: 5, Discard: 1,
		Progress: &movingWriter{t: t, trigger: "global_copy \"copy\" 64 n=", dir: dir, away: filepath.Join(base, "moved")}}
	w, err := datasets.OpenWriter(path, Meta(dev.Info(), opts))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	rep, err := Measure(dev, w, opts)
	if err == nil || !strings.Contains(err.Error(), "m.arrow") {
		t.Fatalf("got %v, want the write error naming the table", err)
	}
	tab, rerr := datasets.Read(filepath.Join(base, "moved", "m.arrow"))
	if rerr != nil {
		t.Fatal(rerr)
	}
	if len(tab.Rows) != rep.Rows || len(tab.Rows) < 2 {
		t.Errorf("the table holds %d rows, the run measured %d before failing", len(tab.Rows), rep.Rows)
	}
}

// A time budget no case can meet, with one size to keep, leaves each
// series its smallest size only (at a p no larger than the suite's), says why the others were
// skipped, is named in the method, and resumes to the same p.
func TestTimeBudget(t *testing.T) {
	dev := pocltest.Open(t)
	tiny := `,{"kernel": "global_store_index", "class": "global_stride1", "role": "measurement", "groups": "1d", "run_seconds": 1e-9, "min_sizes": 1,
	   "variants": [{"name": "index", "params": {"n": "N"}}], "sizes": {"p": [14], "t": [0, 1, 2], "step": 2}, "check": {"N": 100}}`
	path := filepath.Join(t.TempDir(), "m.arrow")
	opts := Options{Suite: fixtureSuite(t, tiny), SizeClass: "large", Kernels: []string{"empty", "global_store_index"}, Generate: fixture(nil)}
	rep, tab := runFixture(t, dev, path, opts)
	var rows []datasets.Row
	for _, r := range tab.Rows {
		if r.Kernel == "global_store_index" {
			rows = append(rows, r)
		}
	}
	if len(rows) != 2 || rows[0].Params["n"] != rows[1].Params["n"] || rows[0].Params["n"] > 1<<14 {
		t.Errorf("rows %v, want the smallest size at both work-group sizes", rows)
	}
	skips := 0
	for _, s := range rep.Skipped {
		if strings.Contains(s, "beyond the time budget of") {
			skips++
		}
	}
	if skips != 4 {
		t.Errorf("skipped %q, want the 2 larger sizes at 2 work-group sizes beyond the time budget", rep.Skipped)
	}
	if !strings.Contains(tab.Meta.Method, "Time budget per run 1e-09 s") {
		t.Errorf("method %q does not state the budget", tab.Meta.Method)
	}
	rep, _ = runFixture(t, dev, path, opts)
	if rep.Rows != 0 || rep.Resumed < 2 {
		t.Errorf("resumed run measured %d rows and resumed %d; want 0 and the table's", rep.Rows, rep.Resumed)
	}
}

// A work-group size beyond a kernel's limit on the device (NVIDIA's
// OpenCL allows 256 work-items for every library kernel on an H100) is a
// limit of the device: its cases are skipped with the reason, the other
// sizes are measured, and nothing counts as a failure.
func TestMeasureSkipsGroupsBeyondTheKernelLimit(t *testing.T) {
	dev := pocltest.Open(t)
	s := fixtureSuite(t, "")
	big := []int64{2 * dev.Info().MaxGroupSize}
	s.GroupSets["large"]["1d"] = [][]int64{{64}, big}
	rep, tab := runFixture(t, dev, filepath.Join(t.TempDir(), "m.arrow"), Options{Suite: s, Generate: fixture(nil), SizeClass: "large"})
	if len(rep.Failures) > 0 {
		t.Fatalf("failures: %v", rep.Failures)
	}
	want := "global_copy LX=" + strconv.FormatInt(big[0], 10) + ": a work-group of " + strconv.FormatInt(big[0], 10) + " work-items exceeds this kernel's limit of "
	if !slices.ContainsFunc(rep.Skipped, func(s string) bool { return strings.HasPrefix(s, want) }) {
		t.Errorf("skipped %q, want a line starting %q", rep.Skipped, want)
	}
	// As in TestMeasureFixture, less the cases of the large group.
	if rep.Rows != 8 || len(tab.Rows) != 8 {
		t.Fatalf("%d rows reported, %d in the table; want 8 (skipped %v)", rep.Rows, len(tab.Rows), rep.Skipped)
	}
	for _, r := range tab.Rows {
		if r.LocalSize[0] == big[0] {
			t.Errorf("%s measured at the group %v", r.Kernel, r.LocalSize)
		}
	}
}

// allocCounter counts a device's allocations by size.
type allocCounter struct {
	gpu.Device
	sizes map[int64]int
}

func (d *allocCounter) Alloc(bytes int64) (gpu.Buffer, error) {
	d.sizes[bytes]++
	return d.Device.Alloc(bytes)
}

// The cases of one kernel and size at its work-group sizes, timed one
// after another, share one set of arrays: global_copy's largest size,
// timed at two work-group sizes, allocates its two arrays once.
func TestMeasureReusesArraysAcrossGroupSizes(t *testing.T) {
	dev := &allocCounter{pocltest.Open(t), map[int64]int{}}
	_, tab := runFixture(t, dev, filepath.Join(t.TempDir(), "m.arrow"), Options{Suite: fixtureSuite(t, ""), Generate: fixture(nil), SizeClass: "large"})
	var largest int64
	groups := 0
	for _, r := range tab.Rows {
		if r.Kernel == "global_copy" && r.Params["n"] >= largest {
			if r.Params["n"] > largest {
				largest, groups = r.Params["n"], 0
			}
			groups++
		}
	}
	if groups != 2 {
		t.Fatalf("global_copy's largest size n=%d was timed at %d work-group sizes, want 2", largest, groups)
	}
	if got := dev.sizes[4*largest]; got != 2 {
		t.Errorf("%d allocations of %d bytes, want 2 (arrays a and b, once)", got, 4*largest)
	}
}

// Options past MaxRuns are refused before anything is allocated or run.
func TestValidateRuns(t *testing.T) {
	base := Options{Suite: fixtureSuite(t, ""), Generate: fixture(nil)}
	for _, c := range []struct {
		runs, discard int
		ok            bool
	}{{MaxRuns, 4, true}, {MaxRuns + 1, 4, false}, {2_000_000_000, 4, false}, {5, 5, false}, {5, -1, false}} {
		o := base
		o.Runs, o.Discard = c.runs, c.discard
		if err := o.Validate(); (err == nil) != c.ok {
			t.Errorf("Runs %d, Discard %d: Validate = %v", c.runs, c.discard, err)
		}
	}
}

// The base size calibration chooses for each kernel is kept in the table's
// metadata, and a resumed run plans from it without calibrating again,
// even a kernel the interrupted run had not measured: here the recorded p
// of global_copy is changed to 13, which calibration never picks from the
// suite's list (12, 14), and the resumed run measures at 2^13 and 2^15.
func TestCalibrationKeptForResume(t *testing.T) {
	dev := pocltest.Open(t)
	path := filepath.Join(t.TempDir(), "m.arrow")
	opts := Options{Suite: fixtureSuite(t, ""), Generate: fixture(nil), SizeClass: "large", Kernels: []string{"empty", "global_copy"}}
	_, tab := runFixture(t, dev, path, opts)
	cal, err := parseCalibration(tab.Meta.Calibration)
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := cal.P["global_copy"]; !ok || p != 12 && p != 14 {
		t.Fatalf("calibration %q: want global_copy at p 12 or 14", tab.Meta.Calibration)
	}
	if _, ok := cal.P["empty"]; !ok {
		t.Errorf("calibration %q lacks the empty kernel", tab.Meta.Calibration)
	}

	// As if interrupted before the first global_copy row was written.
	var kept []datasets.Row
	for _, r := range tab.Rows {
		if r.Kernel == "empty" {
			kept = append(kept, r)
		}
	}
	meta := tab.Meta
	meta.Calibration = strings.Replace(meta.Calibration, fmt.Sprintf(`"global_copy":%d`, cal.P["global_copy"]), `"global_copy":13`, 1)
	if err := datasets.WriteFile(path, &datasets.Table{Meta: meta, Rows: kept}); err != nil {
		t.Fatal(err)
	}
	rep, tab := runFixture(t, dev, path, opts)
	sizes := map[int64]bool{}
	for _, r := range tab.Rows {
		if r.Kernel == "global_copy" {
			sizes[r.Params["n"]] = true
		}
	}
	if rep.Resumed != len(kept) || !sizes[1<<13] || !sizes[1<<15] || len(sizes) != 2 {
		t.Errorf("resumed %d rows and measured global_copy at %v; want %d and n = 2^13, 2^15", rep.Resumed, sizes, len(kept))
	}
}

// Options left at zero time by the protocol of seed 001 §4.2: "We then
// time 30 runs of each kernel ... we disregard the first 4 runs and take
// the minimum of the remaining execution times."
func TestDefaultProtocolIsThePapers(t *testing.T) {
	dev := pocltest.Open(t)
	path := filepath.Join(t.TempDir(), "m.arrow")
	opts := Options{Suite: fixtureSuite(t, ""), Generate: fixture(nil), SizeClass: "large", Kernels: []string{"empty"}}
	w, err := datasets.OpenWriter(path, Meta(dev.Info(), opts))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := Measure(dev, w, opts); err != nil {
		t.Fatal(err)
	}
	rows := w.Table().Rows
	if len(rows) == 0 {
		t.Fatal("no rows")
	}
	for _, r := range rows {
		if len(r.RawTimesS) != 30 || r.RunsDiscarded != 4 || r.RunsKept != 26 {
			t.Fatalf("%d raw times, %d discarded, %d kept; want 30, 4, 26", len(r.RawTimesS), r.RunsDiscarded, r.RunsKept)
		}
		least := r.RawTimesS[4]
		for _, x := range r.RawTimesS[4:] {
			least = min(least, x)
		}
		if r.TimeS != least {
			t.Errorf("time %g, want the minimum of runs 5 to 30, %g", r.TimeS, least)
		}
	}
	if !strings.Contains(w.Table().Meta.Method, "30 runs per row back to back, the first 4 discarded") {
		t.Errorf("method %q does not state the protocol", w.Table().Meta.Method)
	}
}

// Calibration raises a kernel's base size p through the suite's list until
// its smallest size takes OverheadFactor times the empty kernel's time, or
// the list ends: global_copy's list is 12, 14 (step 2), so a factor no size
// reaches ends at 14 (n = 2^14, 2^16) and one every size reaches stays at
// 12 (n = 2^12, 2^14). Left at zero, the factor is the documented twice
// the overhead.
func TestCalibrationFollowsTheOverheadFactor(t *testing.T) {
	dev := pocltest.Open(t)
	for _, c := range []struct {
		factor float64
		want   []int64
	}{{1e9, []int64{1 << 14, 1 << 16}}, {1e-9, []int64{1 << 12, 1 << 14}}} {
		path := filepath.Join(t.TempDir(), "m.arrow")
		opts := Options{Suite: fixtureSuite(t, ""), Generate: fixture(nil), SizeClass: "large", Kernels: []string{"empty", "global_copy"}, OverheadFactor: c.factor}
		_, tab := runFixture(t, dev, path, opts)
		var sizes []int64
		for _, r := range tab.Rows {
			if r.Kernel == "global_copy" && !slices.Contains(sizes, r.Params["n"]) {
				sizes = append(sizes, r.Params["n"])
			}
		}
		slices.Sort(sizes)
		if !slices.Equal(sizes, c.want) {
			t.Errorf("factor %g: global_copy measured at n = %v, want %v", c.factor, sizes, c.want)
		}
	}
	method := Meta(dev.Info(), Options{Suite: fixtureSuite(t, ""), Generate: fixture(nil)}).Method
	if !strings.Contains(method, "takes at least 2 times the empty kernel's time") {
		t.Errorf("method %q: want the default factor of 2 (uniperf measure --help: twice the overhead)", method)
	}
}

// smallLocal reports less local memory than the device has.
type smallLocal struct {
	gpu.Device
	bytes int64
}

func (d smallLocal) Info() gpu.Info {
	info := d.Device.Info()
	info.LocalMemBytes = d.bytes
	return info
}

// Local arrays beyond the device's local memory (local_tile's tiles on a
// GPU) are a limit of the device: those programs are skipped with the
// reason, the others measured, and nothing counts as a failure. At
// 20000 bytes only the tiles of C = 16 fit: 16*256*4 = 16384 bytes, and
// padded 16*272*4 = 17408; C = 32 takes 32768.
func TestMeasureSkipsLocalArraysBeyondTheDevice(t *testing.T) {
	dev := smallLocal{pocltest.Open(t), 20000}
	s, err := suite.Load("hierarchy")
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Suite: s, Generate: codegen.Generate, Kernels: []string{"local_tile"}, Runs: 2, Discard: 1}
	rep, tab := runFixture(t, dev, filepath.Join(t.TempDir(), "m.arrow"), opts)
	if len(rep.Failures) > 0 {
		t.Fatalf("failures: %v", rep.Failures)
	}
	for _, r := range tab.Rows {
		if r.Consts["C"] != 16 {
			t.Errorf("%s %v measured", r.Kernel, r.Consts)
		}
	}
	if len(tab.Rows) != 12 {
		t.Errorf("%d rows, want C = 16 unpadded and padded at 3 sizes and 2 round counts: 12", len(tab.Rows))
	}
	want := "local_tile C=32 LX=256: local arrays of 32768 bytes exceed the 20000 bytes of local memory a work-group has on "
	if !slices.ContainsFunc(rep.Skipped, func(s string) bool { return strings.HasPrefix(s, want) }) {
		t.Errorf("skipped %q, want a line starting %q", rep.Skipped, want)
	}
}
