package datasets

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestWriterAppendsAndResumes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.arrow")
	w, err := OpenWriter(path, testMeta)
	if err != nil {
		t.Fatal(err)
	}
	// The empty table is on disk before any row.
	if tab, err := Read(path); err != nil || len(tab.Rows) != 0 {
		t.Fatalf("fresh table: %v, %v", tab, err)
	}
	for i := range 3 {
		if err := w.Append(testRow(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Append(testRow(1)); err == nil || !strings.Contains(err.Error(), "already in the table") {
		t.Errorf("duplicate row: %v", err)
	}
	bad := testRow(7)
	bad.TimeS = 0
	if err := w.Append(bad); err == nil || !strings.Contains(err.Error(), `column "time_s", row 3`) {
		t.Errorf("invalid row: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	w, err = OpenWriter(path, testMeta)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if w.Len() != 3 || !w.Has(testRow(2).Key()) || w.Has(testRow(3).Key()) {
		t.Fatalf("resumed writer: %d rows", w.Len())
	}
	if !w.Has(MakeKey("matmul_tiled", map[string]int64{"gs1": 12, "gs0": 16}, testRow(0).Params, []int64{16, 12})) {
		t.Error("MakeKey does not match the key of the row it describes")
	}
	if err := w.Append(testRow(3)); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, testTable(4)) {
		t.Errorf("after resume the table is %+v", got)
	}
}

func TestWriterRefusesCorruptOrMismatchedTables(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.arrow")
	if err := WriteFile(good, testTable(2)); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(good)
	cases := map[string]struct {
		content []byte
		meta    Meta
		text    string
	}{
		"garbage":   {[]byte("this is not arrow"), testMeta, "not an Arrow IPC file"},
		"truncated": {data[:len(data)-40], testMeta, "cannot resume"},
		"empty":     {nil, testMeta, "cannot resume"},
		"suite":     {data, func() Meta { m := testMeta; m.Suite = "paper"; return m }(), `suite "quick", but this run has "paper"`},
		"device":    {data, func() Meta { m := testMeta; m.DeviceName = "Other"; return m }(), `device.name "Test Device"`},
	}
	for name, c := range cases {
		path := filepath.Join(dir, name+".arrow")
		if err := os.WriteFile(path, c.content, 0o644); err != nil {
			t.Fatal(err)
		}
		w, err := OpenWriter(path, c.meta)
		if err == nil {
			w.Close()
			t.Errorf("%s: OpenWriter succeeded", name)
			continue
		}
		if !strings.Contains(err.Error(), c.text) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: error %q should name %s and say %q", name, err, path, c.text)
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(after, c.content) {
			t.Errorf("%s: the existing file was modified", name)
		}
	}
}

func TestWriterUnwritablePath(t *testing.T) {
	dir := t.TempDir()
	notDir := filepath.Join(dir, "file")
	if err := os.WriteFile(notDir, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Join(notDir, "m.arrow"), filepath.Join(dir, "missing", "m.arrow")} {
		if w, err := OpenWriter(path, testMeta); err == nil {
			w.Close()
			t.Errorf("OpenWriter(%s) succeeded", path)
		} else if !strings.Contains(err.Error(), path) {
			t.Errorf("error %q does not name %s", err, path)
		}
	}
}

// When the directory disappears mid-run, Append fails and the rows already
// appended stay with the writer.
func TestWriterKeepsRowsWhenAWriteFails(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := OpenWriter(filepath.Join(dir, "m.arrow"), testMeta)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.Append(testRow(0)); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := w.Append(testRow(1)); err == nil || !strings.Contains(err.Error(), "m.arrow") {
		t.Errorf("append into a removed directory: %v", err)
	}
	if w.Len() != 1 || w.Has(testRow(1).Key()) {
		t.Errorf("failed append changed the writer: %d rows", w.Len())
	}
}

func TestWriterLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.arrow")
	w, err := OpenWriter(path, testMeta)
	if err != nil {
		t.Fatal(err)
	}
	if w2, err := OpenWriter(path, testMeta); err == nil {
		w2.Close()
		t.Error("two writers opened one table")
	} else if !strings.Contains(err.Error(), "another process") {
		t.Errorf("second writer: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	w, err = OpenWriter(path, testMeta)
	if err != nil {
		t.Fatalf("reopening after Close: %v", err)
	}
	w.Close()
	if _, err := os.Stat(lockPath(path)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file left behind: %v", err)
	}
}

// helperEnv names the table a helper process appends to until killed.
const helperEnv = "UNIPERF_DATASETS_HELPER_TABLE"

// TestHelperWriter is the body of the child process of TestKilledWriter;
// in a normal test run it has nothing to do. After each row it appends it
// prints "rows N", N the rows in the table, so that the parent knows which
// rows are complete and kills it while it writes the next ones, rather
// than after a delay that a loaded machine may spend starting it.
func TestHelperWriter(t *testing.T) {
	path := os.Getenv(helperEnv)
	if path == "" {
		return
	}
	w, err := OpenWriter(path, testMeta)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	for i := 0; ; i++ {
		if w.Has(testRow(i).Key()) {
			continue
		}
		if err := w.Append(testRow(i)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		fmt.Printf("rows %d\n", w.Len())
	}
}

// A writer killed with SIGKILL at an arbitrary moment leaves a valid table
// holding a prefix of its rows, possibly a temporary file, and a lock file;
// it loses no row whose Append returned, and a new writer resumes from
// there. Each round kills the helper as soon as it reports a number of
// complete rows, while it goes on appending: the moment of the kill
// within an Append is arbitrary, but no round depends on how fast the
// machine starts a process.
func TestKilledWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.arrow")
	prev := 0
	for round, more := range []int{3, 10, 25} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriter$")
		cmd.Env = append(os.Environ(), helperEnv+"="+path)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		complete := 0 // rows the helper reported written
		for sc := bufio.NewScanner(out); complete < prev+more && sc.Scan(); {
			fmt.Sscanf(sc.Text(), "rows %d", &complete)
		}
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		if complete < prev+more {
			cmd.Wait()
			t.Fatalf("round %d: the helper stopped after reporting %d rows, before %d:\n%s", round, complete, prev+more, stderr.String())
		}
		err = cmd.Wait()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != -1 {
			t.Fatalf("round %d: helper did not die of the signal: %v\n%s", round, err, stderr.String())
		}
		tab, err := Read(path)
		if err != nil {
			t.Fatalf("round %d: table after kill: %v", round, err)
		}
		if len(tab.Rows) < complete {
			t.Fatalf("round %d: %d rows, fewer than the %d complete before the kill", round, len(tab.Rows), complete)
		}
		if !reflect.DeepEqual(tab.Rows, testTable(len(tab.Rows)).Rows) {
			t.Fatalf("round %d: the rows are not the prefix written", round)
		}
		prev = len(tab.Rows)
	}
	w, err := OpenWriter(path, testMeta)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	entries, _ := os.ReadDir(filepath.Dir(path))
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("leftover temporary file %s not removed on resume", e.Name())
		}
	}
	if err := w.Append(testRow(prev)); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d rows survived three kills", prev)
}

func TestLeftoverTempFileIsRemoved(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.arrow")
	if err := WriteFile(path, testTable(2)); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(filepath.Dir(path), ".m.arrow.tmp-12345")
	if err := os.WriteFile(tmp, []byte("ARROW1 half a table"), 0o600); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(filepath.Dir(path), ".other.arrow.tmp-1")
	if err := os.WriteFile(other, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	w, err := OpenWriter(path, testMeta)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if w.Len() != 2 {
		t.Errorf("resumed with %d rows, want 2", w.Len())
	}
	if _, err := os.Stat(tmp); !errors.Is(err, os.ErrNotExist) {
		t.Error("leftover temporary file survived")
	}
	if _, err := os.Stat(other); err != nil {
		t.Error("another table's temporary file was removed")
	}
}

// A resumed run whose runtime reports another clock or memory size (PoCL's
// global memory follows the host's free memory) resumes, and the table
// keeps the metadata and calibration of the run that created it; another
// driver or number of compute units is another device.
func TestWriterResumesOnDeviceIdentity(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.arrow")
	w, err := OpenWriter(path, testMeta)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(testRow(0)); err != nil {
		t.Fatal(err)
	}
	if err := w.SetCalibration(`{"p":{"k":3}}`); err != nil {
		t.Fatal(err)
	}
	w.Close()

	drifted := testMeta
	drifted.GlobalMemBytes, drifted.LocalMemBytes, drifted.ClockMHz = testMeta.GlobalMemBytes+1<<30, 32<<10, 1000
	w, err = OpenWriter(path, drifted)
	if err != nil {
		t.Fatalf("resume with drifted memory and clock: %v", err)
	}
	if got := w.Table().Meta; got.GlobalMemBytes != testMeta.GlobalMemBytes || got.Calibration != `{"p":{"k":3}}` {
		t.Errorf("resumed metadata %+v, want the first run's with its calibration", got)
	}
	if err := w.Append(testRow(1)); err != nil {
		t.Fatal(err)
	}
	w.Close()
	tab, err := Read(path)
	if err != nil || len(tab.Rows) != 2 || tab.Meta.Calibration != `{"p":{"k":3}}` || tab.Meta.ClockMHz != testMeta.ClockMHz {
		t.Fatalf("after resume: %v, %+v", err, tab)
	}

	for name, change := range map[string]func(*Meta){
		"driver":        func(m *Meta) { m.DeviceDriver = "other" },
		"compute units": func(m *Meta) { m.ComputeUnits++ },
		"backend":       func(m *Meta) { m.Backend = "cuda" },
	} {
		m := testMeta
		change(&m)
		if w, err := OpenWriter(path, m); err == nil || !strings.Contains(err.Error(), "cannot resume") {
			if err == nil {
				w.Close()
			}
			t.Errorf("%s changed: %v, want cannot resume", name, err)
		}
	}
}

func TestClockChange(t *testing.T) {
	for _, c := range []struct {
		table, now int
		warn       bool
	}{
		{2596, 2096, true},  // the PoCL test rows' VM and the one of the other rows
		{2596, 2600, false}, // within 2%
		{1980, 1980, false},
		{1980, 2019, false}, // 39 MHz of 1980: within 2%
		{1980, 2030, true},
		{0, 2096, false}, // a table that recorded no clock
	} {
		msg := ClockChange(Meta{ClockMHz: c.table}, Meta{ClockMHz: c.now})
		if (msg != "") != c.warn || c.warn && !(strings.Contains(msg, strconv.Itoa(c.table)) && strings.Contains(msg, strconv.Itoa(c.now))) {
			t.Errorf("%d MHz then, %d now: %q", c.table, c.now, msg)
		}
	}
}

// A table may hold the work-group size as the device launched it,
// [16,12,1], while a plan names it [16,12]: the two are one key, so a
// resumed run skips the row instead of measuring it again and failing to
// append a duplicate (issue 45: every convolution row was re-timed).
func TestWriterResumesTrailingOneAxes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.arrow")
	launched := testRow(0)
	launched.LocalSize = []int64{16, 12, 1}
	launched.GlobalSize = []int64{16, 36, 1}
	if err := WriteFile(path, &Table{Meta: testMeta, Rows: []Row{launched}}); err != nil {
		t.Fatal(err)
	}
	w, err := OpenWriter(path, testMeta)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if !w.Has(MakeKey("matmul_tiled", launched.Consts, launched.Params, []int64{16, 12})) {
		t.Error("the plan's [16,12] does not find the row stored as [16,12,1]")
	}
	if err := w.Append(testRow(0)); err == nil || !strings.Contains(err.Error(), "already in the table") {
		t.Errorf("appending [16,12] next to [16,12,1]: %v, want a duplicate refused", err)
	}
	for _, c := range []struct {
		a, b []int64
		same bool
	}{
		{[]int64{256}, []int64{256, 1, 1}, true},
		{[]int64{1}, []int64{1, 1, 1}, true},
		{[]int64{16, 16}, []int64{16, 16, 1}, true},
		{[]int64{1, 16}, []int64{16}, false},
		{[]int64{16, 1, 4}, []int64{16, 4}, false},
	} {
		ka, kb := MakeKey("k", nil, nil, c.a), MakeKey("k", nil, nil, c.b)
		if (ka == kb) != c.same {
			t.Errorf("keys of %v and %v: %q and %q, want same=%v", c.a, c.b, ka, kb, c.same)
		}
	}
}
