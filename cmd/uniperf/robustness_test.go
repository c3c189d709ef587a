package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/weightsio"
	"github.com/uniperf/uniperf/measurekernels/library"
	"github.com/uniperf/uniperf/measurekernels/suite"
)

// batchEnv names the JSON file of command lines that a child process of
// the robustness test runs, one after another, under a memory limit.
const batchEnv = "UNIPERF_TEST_BATCH"

// robustMemory is the address-space limit of the child: the limit under
// which issue 27 found /dev/zero fatal.
const robustMemory = 4_000_000 << 10

// batchResult is one command line's outcome, as the child reports it.
type batchResult struct {
	Index int    `json:"index"`
	Code  int    `json:"code"`
	Msg   string `json:"msg"`
}

// runBatch is the child: it runs every command line of the batch file in
// this process and appends a result line per command to the file next to
// it, so that a fatal error or panic (which ends the process) shows as the
// first line without a result.
func runBatch(path string) {
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: robustMemory, Max: robustMemory}); err != nil {
		panic(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	var batch [][]string
	if err := json.Unmarshal(data, &batch); err != nil {
		panic(err)
	}
	results, err := os.Create(path + ".results")
	if err != nil {
		panic(err)
	}
	var msg bytes.Buffer
	stderr = &msg
	rootCmd.SetOut(&bytes.Buffer{})
	for i, args := range batch {
		resetAllFlags()
		msg.Reset()
		code := run(args)
		line, _ := json.Marshal(batchResult{Index: i, Code: code, Msg: msg.String()})
		if _, err := results.Write(append(line, '\n')); err != nil {
			panic(err)
		}
	}
	results.Close()
	os.Exit(0)
}

// robustFamily runs a family of command lines in a child process and
// checks every exit status with want, which returns what is wrong or "".
// It returns the exits by status.
func robustFamily(t *testing.T, name string, batch [][]string, want func(i, code int, msg string) string) map[int]int {
	t.Helper()
	path := filepath.Join(t.TempDir(), name+".json")
	data, _ := json.Marshal(batch)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := uniperfProcess()
	cmd.Env = append(cmd.Env, batchEnv+"="+path)
	var childErr bytes.Buffer
	cmd.Stderr = &childErr
	runErr := cmd.Run()
	codes := map[int]int{}
	f, err := os.Open(path + ".results")
	if err != nil {
		t.Fatalf("%s: no results (%v): %s", name, runErr, tail(childErr.String()))
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	done := 0
	for sc.Scan() {
		var r batchResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		done++
		codes[r.Code]++
		if strings.Contains(r.Msg, "goroutine ") || strings.Contains(r.Msg, "panic") || strings.Contains(r.Msg, "runtime error") {
			t.Errorf("%s: uniperf %q: a panic: %s", name, batch[r.Index], tail(r.Msg))
		}
		if r.Code != 0 && (!strings.HasPrefix(r.Msg, "uniperf: ") || len(r.Msg) > 2000) {
			t.Errorf("%s: uniperf %q: exit %d with message %q", name, batch[r.Index], r.Code, tail(r.Msg))
		}
		if what := want(r.Index, r.Code, r.Msg); what != "" {
			t.Errorf("%s: uniperf %q: exit %d (%s): %s", name, batch[r.Index], r.Code, what, tail(r.Msg))
		}
	}
	if done < len(batch) || runErr != nil {
		t.Errorf("%s: the process ended (%v) after %d of %d inputs, at uniperf %q: %s",
			name, runErr, done, len(batch), batch[min(done, len(batch)-1)], head(childErr.String()))
	}
	t.Logf("%s: %d inputs, exits by status %v", name, len(batch), codes)
	return codes
}

func head(s string) string {
	if len(s) > 1500 {
		return s[:1500] + "…"
	}
	return s
}

func tail(s string) string {
	if len(s) > 600 {
		return "…" + s[len(s)-600:]
	}
	return s
}

// resetAllFlags sets every flag of every command back to its default.
func resetAllFlags() {
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		resetFlags(c)
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(rootCmd)
}

// only accepts the listed exit statuses.
func only(codes ...int) func(int, int, string) string {
	return func(_, code int, _ string) string {
		if !slices.Contains(codes, code) {
			return fmt.Sprintf("want one of %v", codes)
		}
		return ""
	}
}

// mutateKnl returns a variation of src: a line deleted, duplicated or
// swapped with the next, a character replaced, the text cut short, or a
// number made extreme.
func mutateKnl(r *rand.Rand, src string) string {
	lines := strings.Split(src, "\n")
	i := r.IntN(len(lines))
	switch r.IntN(6) {
	case 0:
		lines = slices.Delete(lines, i, i+1)
	case 1:
		lines = slices.Insert(lines, i, lines[i])
	case 2:
		if i+1 < len(lines) {
			lines[i], lines[i+1] = lines[i+1], lines[i]
		}
	case 3:
		if b := []byte(src); len(b) > 0 {
			const chars = "0123456789[](){}:,;=<>+-*/. \n#"
			b[r.IntN(len(b))] = chars[r.IntN(len(chars))]
			return string(b)
		}
	case 4:
		return src[:r.IntN(len(src)+1)]
	case 5:
		extreme := []string{"0", "-1", "2147483648", "9223372036854775807", "-9223372036854775808", "99999999999999999999"}[r.IntN(6)]
		f := strings.FieldsFunc(lines[i], func(c rune) bool { return c < '0' || c > '9' })
		if len(f) > 0 {
			lines[i] = strings.Replace(lines[i], f[r.IntN(len(f))], extreme, 1)
		}
	}
	return strings.Join(lines, "\n")
}

// mutateArrow returns a damaged copy of a table: cut short, bytes
// flipped, a region zeroed, or a 32-bit word (a length, an offset) set to
// an extreme.
func mutateArrow(r *rand.Rand, data []byte) []byte {
	b := slices.Clone(data)
	at := r.IntN(len(b))
	switch r.IntN(4) {
	case 0:
		return b[:at]
	case 1:
		for range 1 + r.IntN(8) {
			b[r.IntN(len(b))] ^= byte(1 + r.IntN(255))
		}
	case 2:
		clear(b[at:min(len(b), at+1+r.IntN(1024))])
	case 3:
		if at+4 <= len(b) {
			binary.LittleEndian.PutUint32(b[at:], []uint32{0xffffffff, 0x7fffffff, 0x80000000, 0}[r.IntN(4)])
		}
	}
	return b
}

// TestCLIRobustness runs uniperf, in child processes limited to 4 GB of
// address space, on malformed sets, mutated .knl files, damaged Arrow
// tables and numeric edges (corpus in testdata/robust, mutations from a
// fixed seed), and checks that none panics or dies of a fatal error, that
// each exits with the status the policy gives, and that a message comes
// with every failure; then interrupts a measurement on PoCL and resumes it
// without losing or repeating a row.
func TestCLIRobustness(t *testing.T) {
	dir := t.TempDir()
	corpus := filepath.Join("testdata", "robust")
	total := map[int]int{}
	add := func(codes map[int]int) {
		for c, n := range codes {
			total[c] += n
		}
	}

	// Malformed sets: every one is bad input.
	sets, err := os.ReadFile(filepath.Join(corpus, "sets.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var batch [][]string
	for _, line := range strings.Split(string(sets), "\n") {
		if !strings.HasPrefix(line, "#") && line != "" {
			batch = append(batch, []string{"card", line})
		}
	}
	batch = append(batch, []string{"card", ""})
	add(robustFamily(t, "sets", batch, only(2)))

	// .knl files: the hand-written corpus, then mutations of every library
	// kernel; a mutation may still be a valid kernel.
	batch = nil
	knls, _ := filepath.Glob(filepath.Join(corpus, "knl", "*.knl"))
	for _, f := range knls {
		batch = append(batch, []string{"count", f}, []string{"kernels", "show", f})
	}
	hand := len(batch)
	r := rand.New(rand.NewPCG(27, 1))
	for _, name := range library.Names() {
		src, err := library.Source(name)
		if err != nil {
			t.Fatal(err)
		}
		for m := range 9 {
			path := filepath.Join(dir, fmt.Sprintf("%s-%d.knl", name, m))
			if err := os.WriteFile(path, []byte(mutateKnl(r, string(src))), 0o644); err != nil {
				t.Fatal(err)
			}
			batch = append(batch, []string{"count", path})
		}
	}
	add(robustFamily(t, "knl", batch, func(i, code int, _ string) string {
		if i < hand && code != 2 || code != 0 && code != 2 {
			return "want 2 for the corpus, 0 or 2 for a mutation"
		}
		return ""
	}))

	// Damaged tables: the crafted corpus and mutations of a shipped table;
	// a flipped byte in a time may leave a valid table.
	shipped, err := datasets.ShippedBytes(shippedTable)
	if err != nil {
		t.Fatal(err)
	}
	batch = nil
	for _, f := range []string{"magic.arrow", "empty.arrow"} {
		batch = append(batch, []string{"table", filepath.Join(corpus, f)})
	}
	for m := range 120 {
		path := filepath.Join(dir, fmt.Sprintf("t%d.arrow", m))
		if err := os.WriteFile(path, mutateArrow(r, shipped), 0o644); err != nil {
			t.Fatal(err)
		}
		batch = append(batch, []string{"table", path})
	}
	add(robustFamily(t, "arrow", batch, func(i, code int, _ string) string {
		if i < 2 && code != 2 || code != 0 && code != 2 {
			return "want 2 for the corpus, 0 or 2 for a mutation"
		}
		return ""
	}))

	// Numeric edges, each with the status it must give.
	props := []string{"global.load.f32.stride=1", "global.minldst.f32.stride=1", "global.store.f32.stride=1", "launch.const", "launch.groups"}
	weights := writeTestWeights(t, dir, "w.arrow", "GPU", "sha256:1", props, []float64{1e-9, 0, 1e-9, 1e-5, 1e-7})
	numeric, err := os.ReadFile(filepath.Join(corpus, "numeric.txt"))
	if err != nil {
		t.Fatal(err)
	}
	batch = nil
	var wantCodes []int
	for _, line := range strings.Split(string(numeric), "\n") {
		code, args, ok := strings.Cut(line, "\t")
		if strings.HasPrefix(line, "#") || !ok {
			continue
		}
		var list []string
		if err := json.Unmarshal([]byte(strings.ReplaceAll(args, "WEIGHTS", weights)), &list); err != nil {
			t.Fatalf("numeric.txt: %q: %v", line, err)
		}
		c, _ := strconv.Atoi(code)
		batch, wantCodes = append(batch, list), append(wantCodes, c)
	}
	add(robustFamily(t, "numeric", batch, func(i, code int, _ string) string {
		if code != wantCodes[i] {
			return fmt.Sprintf("want %d", wantCodes[i])
		}
		return ""
	}))

	add(interruptAndResume(t, dir))
	t.Logf("all families: exits by status %v", total)
}

// interruptAndResume interrupts a measurement of three quick-suite kernels
// on PoCL once its first rows are written, checks status 130 and that the
// table holds every row written, then resumes to the end and checks that
// the rows before are kept as they were and none is repeated.
func interruptAndResume(t *testing.T, dir string) map[int]int {
	out := filepath.Join(dir, "resume.arrow")
	args := []string{"measure", "--device", "opencl", "--suite", "quick", "--kernels", "empty,global_copy,vector_scale_add", "--runs", "5", "--discard", "1", "--out", out, "--quiet"}
	cmd := uniperfProcess(args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	var before *datasets.Table
	for time.Now().Before(deadline) {
		if tab, err := datasets.Read(out); err == nil && len(tab.Rows) >= 2 {
			before = tab
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	codes := map[int]int{cmd.ProcessState.ExitCode(): 1}
	if before == nil {
		t.Fatal("no two rows within a minute")
	}
	if code := cmd.ProcessState.ExitCode(); code != 130 && code != 0 {
		t.Errorf("interrupted measure: exit %d, want 130 (or 0 had it finished)", code)
	}
	after, err := datasets.Read(out)
	if err != nil {
		t.Fatalf("the interrupted table: %v", err)
	}
	if len(after.Rows) < len(before.Rows) {
		t.Errorf("%d rows after the interrupt, %d seen before it", len(after.Rows), len(before.Rows))
	}
	resume := uniperfProcess(args...)
	var msg bytes.Buffer
	resume.Stderr = &msg
	err = resume.Run()
	codes[resume.ProcessState.ExitCode()]++
	if err != nil {
		t.Fatalf("resumed measure: %v: %s", err, tail(msg.String()))
	}
	final, err := datasets.Read(out) // Read refuses a repeated key
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range after.Rows {
		if final.Rows[i].Key() != r.Key() || final.Rows[i].TimeS != r.TimeS {
			t.Errorf("row %d changed on resume", i)
		}
	}
	if len(final.Rows) <= len(after.Rows) {
		t.Errorf("the resumed run added no rows (%d)", len(final.Rows))
	}
	t.Logf("interrupt: %d rows seen, %d after the interrupt, %d after resuming", len(before.Rows), len(after.Rows), len(final.Rows))
	return codes
}

// TestOutputNeverAnInput names, as the output of every command that writes
// one, one of its inputs: the same path, another spelling of it, a hard
// link and a symbolic link to it; and, as an output, a symbolic link
// (/dev/stdout among them); and two outputs that are one file. Each must
// exit 2 naming the output (and the input or output it is), and leave
// every file as it was (issue 45: fit T --out T replaced the measurement
// table with weights, exit 0; compare --out X --plot X lost the report).
func TestOutputNeverAnInput(t *testing.T) {
	dir := t.TempDir()
	// A table written now, with a checksum: no note precedes the message.
	table, shipped := checksummedCopy(t, dir, "T.arrow")
	if code, msg := runAll(t, "fit", table, "--out", filepath.Join(dir, "W.arrow")); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, msg)
	}
	weights := filepath.Join(dir, "W.arrow")
	hard, sym := filepath.Join(dir, "hard.arrow"), filepath.Join(dir, "sym.arrow")
	if err := os.Link(table, hard); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(table, sym); err != nil {
		t.Fatal(err)
	}
	respelt := dir + "/./T.arrow"
	report := filepath.Join(dir, "report.md")
	cases := []struct {
		args []string
		want string // what the message says after "uniperf: OUTPUT: "
	}{
		{[]string{"fit", table, "--out", table}, "this output is the input " + table},
		{[]string{"fit", table, "--out", hard}, "this output is the same file as the input " + table},
		{[]string{"fit", sym, "--out", table}, "this output is the same file as the input " + sym},
		{[]string{"fit", table, "--out", respelt}, "this output is the same file as the input " + table},
		{[]string{"fit", table, "--model", "hongkim", "--out", table}, "this output is the input " + table},
		{[]string{"table", table, "--format", "csv", "--out", table}, "this output is the input " + table},
		{[]string{"table", table, "--format", "parquet", "--out", hard}, "this output is the same file as the input " + table},
		{[]string{"validate", "--weights", weights, table, "--warn-share", "1", "--plot", table}, "this output is the input " + table},
		{[]string{"validate", "--weights", weights, table, "--warn-share", "1", "--plot", weights}, "this output is the input " + weights},
		{[]string{"export", weights, "--out", weights}, "this output is the input " + weights},
		{[]string{"export", weights, "--format", "arrow", "--out", weights}, "this output is the input " + weights},
		{[]string{"export", weights, "--plot", weights}, "this output is the input " + weights},
		{[]string{"predict", "--weights", weights, "global_copy", "--param", "n=1024,2048", "--warn-share", "1", "--plot", weights}, "this output is the input " + weights},
		{[]string{"compare", table, "--out", table}, "this output is the input " + table},
		{[]string{"compare", table, "--plot", hard}, "this output is the same file as the input " + table},
		{[]string{"measure", "global_copy", "--device", "opencl", "--param", "n=1024", "--compare-with", weights, "--out", weights}, "this output is the input " + weights},
		// Two outputs that are one file: the second write replaced the first.
		{[]string{"compare", table, "--out", report, "--plot", report}, "this output of --out is also the output of --plot (" + report + "), which would replace it"},
		{[]string{"export", weights, "--out", report, "--plot", dir + "/./report.md"}, "this output of --out is also the output of --plot (" + dir + "/./report.md)"},
		// Symbolic links as outputs: the rename would replace the link.
		{[]string{"fit", "embedded:" + shippedTable, "--out", sym}, "a symbolic link (to " + table + "), which an output would replace rather than write through: name " + table + " itself"},
		{[]string{"table", "embedded:" + shippedTable, "--format", "csv", "--out", "/dev/stdout"}, "a symbolic link (to /proc/self/fd/1), which an output would replace rather than write through: leave the output out to write to standard output"},
		{[]string{"measure", "--device", "opencl", "--kernels", "empty", "--out", sym}, "a symbolic link (to " + table + ")"},
	}
	var batch [][]string
	for _, c := range cases {
		batch = append(batch, c.args)
	}
	robustFamily(t, "outputs", batch, func(i, code int, msg string) string {
		args := cases[i].args
		out := args[slices.IndexFunc(args, func(a string) bool { return a == "--out" || a == "--plot" })+1]
		if code != 2 || !strings.HasPrefix(msg, "uniperf: "+out+": "+cases[i].want) {
			return fmt.Sprintf("want 2 and %q", "uniperf: "+out+": "+cases[i].want)
		}
		return ""
	})
	if data, err := os.ReadFile(table); err != nil || !bytes.Equal(data, shipped) {
		t.Errorf("the measurement table was changed (%v)", err)
	}
	if target, err := os.Readlink(sym); err != nil || target != table {
		t.Errorf("the symbolic link is now %q, %v", target, err)
	}
	if target, err := os.Readlink("/dev/stdout"); err != nil || target != "/proc/self/fd/1" {
		t.Errorf("/dev/stdout is no longer a link to /proc/self/fd/1: %q, %v", target, err)
	}
	if _, err := weightsio.ReadWeights(weights); err != nil {
		t.Errorf("the weights were damaged: %v", err)
	}
	if _, err := os.Stat(report); !os.IsNotExist(err) {
		t.Errorf("%s was written (%v)", report, err)
	}
}

// TestByteFlippedTables flips one byte of a checksummed copy of the
// shipped quick table at 150 seeded positions and runs uniperf table and
// uniperf fit on each: every run exits 0 (the flip left the decoded
// content as written: datasets.TestByteFlips checks the content) or 2 with
// a message free of a recovered panic's text (issue 45: "runtime error:
// slice bounds out of range").
func TestByteFlippedTables(t *testing.T) {
	dir := t.TempDir()
	_, data := checksummedCopy(t, dir, "checked.arrow")
	r := rand.New(rand.NewPCG(45, 5))
	var batch [][]string
	for m := range 150 {
		b := slices.Clone(data)
		b[r.IntN(len(b))] ^= byte(1 + r.IntN(255))
		path := filepath.Join(dir, fmt.Sprintf("f%d.arrow", m))
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := []string{"table", path, "--format", "csv"}
		if m%3 == 0 {
			cmd = []string{"fit", path, "--out", filepath.Join(dir, fmt.Sprintf("w%d.arrow", m))}
		}
		batch = append(batch, cmd)
	}
	robustFamily(t, "flips", batch, only(0, 2))
}

// TestMeasureKilledAndResumed measures the whole quick suite on PoCL into
// a new table, kills the run with SIGKILL at three random rows and resumes
// it after each; the final table must hold exactly the keys of the suite's
// plan, and a further run must measure nothing and exit 0 (issue 45: once
// convolution rows existed a rerun re-timed them and exited 1, and a
// SIGKILL at row 225 left a table that could never be completed). Under
// -short it measures shortKilledKernels (--kernels), 70 of the suite's
// 410 rows, and the plan is theirs.
//
// The plan's keys stand for an uninterrupted run's, without measuring the
// suite a second time: a complete run measures every case of suite.Cases
// at the sizes the table's calibration records, and the test enumerates
// those cases from the suite's description itself, where the rows' keys
// come from the launches the runs made. The one freedom a run has is the
// suite's time budget: a size past the ones the budget must keep is
// skipped where its run is predicted over the budget, from times that a
// loaded machine makes longer (grid_fill_chain's largest size did so
// beside the demo test), so those keys may be missing, and no other.
func TestMeasureKilledAndResumed(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "killed.arrow")
	args := []string{"measure", "--device", "opencl", "--suite", "quick", "--size-class", "large",
		"--runs", "2", "--discard", "1", "--out", path, "--quiet"}
	var only []string
	if testing.Short() {
		only = shortKilledKernels
		args = append(args, "--kernels", strings.Join(only, ","))
	}
	// Row 2 is the first after calibration, which records every kernel's
	// size in the table before any kernel but the empty one is timed.
	run := startChild(t, args)
	want, skippable := quickPlanKeys(t, run.waitRows(t, path, 2), "large", only)
	r := rand.New(rand.NewPCG(45, 2))
	at := []int{2 + r.IntN(len(want)-2), 2 + r.IntN(len(want)-2), 2 + r.IntN(len(want)-2)}
	slices.Sort(at)
	seen := 0
	for i, row := range at {
		if i > 0 {
			run = startChild(t, args)
		}
		run.waitRows(t, path, row)
		if err := run.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		<-run.done
		tab, err := datasets.Read(path) // Read refuses a repeated key
		if err != nil {
			t.Fatalf("after SIGKILL at row %d: %v", row, err)
		}
		if len(tab.Rows) < seen {
			t.Fatalf("after SIGKILL at row %d: %d rows, %d before", row, len(tab.Rows), seen)
		}
		seen = len(tab.Rows)
		t.Logf("SIGKILL at row %d: %d rows in the table", row, seen)
	}
	if out, err := uniperfProcess(args...).CombinedOutput(); err != nil || !strings.Contains(string(out), "rows measured in this run") {
		t.Fatalf("resumed run: %v, want exit 0: %s", err, tail(string(out)))
	}
	got, err := datasets.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, row := range got.Rows {
		keys = append(keys, string(row.Key()))
	}
	slices.Sort(keys)
	for _, k := range want {
		if _, found := slices.BinarySearch(keys, k); !found && !skippable[k] {
			t.Errorf("killed and resumed: the plan's case %s is missing", k)
		}
	}
	for _, k := range keys {
		if _, found := slices.BinarySearch(want, k); !found {
			t.Errorf("killed and resumed: %s is not in the plan", k)
		}
	}
	wantOut := "0 rows measured in this run, " + strconv.Itoa(len(keys)) + " already present"
	if out, err := uniperfProcess(args...).CombinedOutput(); err != nil || !strings.Contains(string(out), wantOut) {
		t.Fatalf("run after the last: %v, want exit 0 and %q: %s", err, wantOut, tail(string(out)))
	}
	t.Logf("%d rows, killed at rows %v, resumed to the plan's keys", len(got.Rows), at)
}

// child is a uniperf process of a test and the result of its Wait.
type child struct {
	cmd  *exec.Cmd
	done chan error
}

func startChild(t *testing.T, args []string) *child {
	t.Helper()
	c := &child{cmd: uniperfProcess(args...), done: make(chan error, 1)}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { c.done <- c.cmd.Wait() }()
	return c
}

// waitRows polls the table at path until it holds at least rows rows,
// and returns it; the child ending first is a failure.
func (c *child) waitRows(t *testing.T, path string, rows int) *datasets.Table {
	t.Helper()
	for {
		select {
		case err := <-c.done:
			t.Fatalf("the run to be killed at row %d ended by itself: %v", rows, err)
		case <-time.After(50 * time.Millisecond):
		}
		if tab, err := datasets.Read(path); err == nil && len(tab.Rows) >= rows {
			return tab
		}
	}
}

// shortKilledKernels are the kernels TestMeasureKilledAndResumed measures
// under -short (a tenth of the CPU time): a kernel of many configurations
// (arith_int_i32, 40 rows), 1-D and 2-D work-groups, a test kernel
// (convolution, whose rows a rerun once re-timed) and a kernel whose
// largest size the time budget may skip (grid_fill_chain).
var shortKilledKernels = []string{"arith_int_i32", "vector_scale_add", "global_copy", "matmul_tiled", "grid_fill_chain", "convolution"}

// quickPlanKeys lists, sorted, the keys of every case that the quick suite
// plans for work-group size class class at the sizes that tab's
// calibration (JSON of the base size p per kernel, see docs/datasets.md)
// records, and which of them the suite's time budget may skip (sizes
// past the ones a kernel with a budget must keep); only the kernels in
// only, where it is not empty.
func quickPlanKeys(t *testing.T, tab *datasets.Table, class string, only []string) (keys []string, skippable map[string]bool) {
	t.Helper()
	var cal struct{ P map[string]int }
	if err := json.Unmarshal([]byte(tab.Meta.Calibration), &cal); err != nil {
		t.Fatalf("calibration %q: %v", tab.Meta.Calibration, err)
	}
	s, err := suite.Load("quick")
	if err != nil {
		t.Fatal(err)
	}
	skippable = map[string]bool{}
	for _, k := range s.Kernels {
		if k.OptIn || len(only) > 0 && !slices.Contains(only, k.Kernel) {
			continue
		}
		budget, keep := s.Budget(k)
		p, ok := cal.P[k.Kernel]
		if !ok {
			t.Fatalf("the calibration lacks %s: %s", k.Kernel, tab.Meta.Calibration)
		}
		cases, err := s.Cases(k, class, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			key := string(datasets.MakeKey(k.Kernel, c.Consts, c.Params, c.Group))
			keys = append(keys, key)
			if budget > 0 && slices.Index(k.Sizes.T, c.T) >= keep {
				skippable[key] = true
			}
		}
	}
	slices.Sort(keys)
	return keys, skippable
}

// TestCLIRobustnessBounds runs the hostile inputs of issue 45 that crashed
// the Go runtime or ran unbounded, each made as small as still shows the
// defect: extreme device-file numbers (a division by zero in occupancy),
// deep nesting (a stack overflow), huge dimensions and enumerations past
// their budget (minutes, out of memory). Every one must exit 2 with a
// message, in a child limited to 4 GB.
func TestCLIRobustnessBounds(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	var batch [][]string

	// Device files: each limit of a shipped file made extreme.
	dev, err := os.ReadFile(filepath.Join("..", "..", "fit", "gpus", "devices", "gtx280.json"))
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range []struct{ from, to string }{
		{`"shared_alloc_unit": 512`, `"shared_alloc_unit": 9223372036854775807`},
		{`"warp_alloc_granularity": 2`, `"warp_alloc_granularity": 9223372036854775807`},
		{`"warp_alloc_granularity": 2`, `"warp_alloc_granularity": -2`},
		{`"warp_size": 32`, `"warp_size": 0`},
		{`"sm_count": 30`, `"sm_count": 1e308`},
		{`"clock_hz": 1300000000.0`, `"clock_hz": 1e308`},
		{`"issue_cycles": 4`, `"issue_cycles": 1e308`},
		{`"reg_alloc_unit": 512`, `"reg_alloc_unit": -9223372036854775808`},
	} {
		if !bytes.Contains(dev, []byte(c.from)) {
			t.Fatalf("gtx280.json lacks %s", c.from)
		}
		f := write(fmt.Sprintf("dev%d.json", i), strings.Replace(string(dev), c.from, c.to, 1))
		batch = append(batch, []string{"blocksize", "global_copy", "--device-file", f, "--param", "n=1048576", "--model", "xu"})
	}

	// Deep nesting in kernels and sets.
	const header = "kernel k\ndomain [n] -> { [i] : 0 <= i < n }\narray a f32 [n]\narray b f32 [n]\n"
	parens := write("parens.knl", header+"b[i] = "+strings.Repeat("(", 200_000)+"a[i]"+strings.Repeat(")", 200_000)+"\n")
	ifs := write("ifs.knl", header+"b[i] = "+strings.Repeat("if(i > 0, ", 10_000)+"a[i]"+strings.Repeat(", 0)", 10_000)+"\n")
	blocks := write("blocks.knl", header+strings.Repeat("if i > 0\n", 5000)+"b[i] = a[i]\n"+strings.Repeat("end\n", 5000))
	batch = append(batch, []string{"count", parens}, []string{"kernels", "show", parens},
		[]string{"count", ifs, "--param", "n=10"}, []string{"count", blocks},
		[]string{"card", "{ [i] : " + strings.Repeat("(", 100_000) + "0 <= i < 3" + strings.Repeat(")", 100_000) + " }"})

	// Huge dimensions and enumerations past their budget.
	dims := make([]string, 800)
	for i := range dims {
		dims[i] = fmt.Sprintf("x%d", i)
	}
	box := "{ [" + strings.Join(dims, ", ") + "] : " + strings.Join(dims, " >= 0 and ") + " >= 0 and " + strings.Join(dims, " <= 1 and ") + " <= 1 }"
	batch = append(batch, []string{"card", box, "--max-pieces", "1"}, []string{"card", box},
		[]string{"card", "[n] -> { [a, b, c, d, e, f] : 0 <= a < n and 0 <= b <= a and 0 <= c <= b and 0 <= d < n and 0 <= e <= d and 0 <= f <= e and (a + b) mod 7 = 1 and (c + d) mod 11 = 2 and (e + f) mod 13 = 3 }",
			"--param", "n=1000", "--max-pieces", "50", "--max-points", "100000"},
		[]string{"count", "matmul_tiled", "--max-pieces", "1", "--max-points", "100000", "--param", "n=m=ell=100000"})

	robustFamily(t, "bounds", batch, only(2))
}

// checksummedCopy writes the shipped quick table to dir/name as uniperf
// writes tables now (with a checksum) and returns its path and bytes.
func checksummedCopy(t *testing.T, dir, name string) (string, []byte) {
	t.Helper()
	shipped, err := datasets.ShippedBytes(shippedTable)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := datasets.Decode("shipped", shipped)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := datasets.WriteFile(path, tab); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, data
}
