package main

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/datasets"
)

// mainEnv makes the test binary run main with the JSON list of arguments
// it holds, so that tests can see the exit status and signals of the real
// process.
const mainEnv = "UNIPERF_TEST_MAIN_ARGS"

func TestMain(m *testing.M) {
	if path := os.Getenv(batchEnv); path != "" {
		runBatch(path)
	}
	if args := os.Getenv(mainEnv); args != "" {
		var list []string
		if err := json.Unmarshal([]byte(args), &list); err != nil {
			panic(err)
		}
		os.Args = append([]string{"uniperf"}, list...)
		main()
	}
	// This process fits, cross-validates and compares every model on the
	// shipped tables, allocating much and keeping little: collecting at
	// four times the live heap rather than twice takes about a sixth off
	// the CPU time (TestDemoSummaryStale: 3.35 s → 2.66 s, 87 → 128 MB).
	// The children above run as uniperf does, and the limit keeps a small
	// machine's memory in bounds.
	debug.SetGCPercent(400)
	debug.SetMemoryLimit(2 << 30)
	os.Exit(m.Run())
}

// uniperfProcess is the command that runs uniperf with args as a process
// of its own.
func uniperfProcess(args ...string) *exec.Cmd {
	list, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), mainEnv+"="+string(list))
	return cmd
}

// commandPaths lists every command of the tree, "kernels show" for a
// subcommand.
func commandPaths() []string {
	strictCommands(nil)
	var out []string
	var walk func(c *cobra.Command, prefix string)
	walk = func(c *cobra.Command, prefix string) {
		for _, s := range c.Commands() {
			path := strings.TrimSpace(prefix + " " + s.Name())
			out = append(out, path)
			walk(s, path)
		}
	}
	walk(rootCmd, "")
	return out
}

// TestExitCodePolicy walks every command with a bad input and checks the
// status of the policy in uniperf --help: 2 for bad input and usage,
// with file:line:col where the input is text; then the faults of the
// system, which exit 1.
func TestExitCodePolicy(t *testing.T) {
	dir := t.TempDir()
	badKnl := filepath.Join(dir, "bad.knl")
	if err := os.WriteFile(badKnl, []byte("kernel bad\ndomain [n] -> { [i] : 0 <= i < n }\narray a f32 [n]\na[i] = b[i]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.arrow")
	missing := filepath.Join(dir, "missing.arrow")
	bad := map[string]struct {
		args []string
		want string // a regular expression the message matches
	}{
		"blocksize":             {[]string{"blocksize", "global_copy", "--device-file", "pocl-cpu", "--param", "n=1024", "--model", "nosuch"}, "--model"},
		"card":                  {[]string{"card", "{ [i] : i < }"}, `^SET:1:\d+: `},
		"compare":               {[]string{"compare", missing}, "missing.arrow"},
		"completion":            {[]string{"completion", "nosh"}, `unknown command "nosh"`},
		"completion bash":       {[]string{"completion", "bash", "extra"}, "extra"},
		"completion fish":       {[]string{"completion", "fish", "extra"}, "extra"},
		"completion powershell": {[]string{"completion", "powershell", "extra"}, "extra"},
		"completion zsh":        {[]string{"completion", "zsh", "extra"}, "extra"},
		"count":                 {[]string{"count", badKnl}, regexp.QuoteMeta(badKnl) + `:4:\d+: `},
		"demo":                  {[]string{"demo", "extra"}, `unknown command "extra"`},
		"devices":               {[]string{"devices", "--nosuch"}, "unknown flag: --nosuch"},
		"export":                {[]string{"export", missing}, "missing.arrow"},
		"fit":                   {[]string{"fit", missing, "--out", out}, "missing.arrow"},
		"help":                  {[]string{"help", "nosuch"}, `unknown help topic "nosuch"`},
		"import":                {[]string{"import", badKnl}, regexp.QuoteMeta(badKnl) + ": the file must end in .cu"},
		"kernels":               {[]string{"kernels", "nosuch"}, `unknown command "nosuch"`},
		"kernels list":          {[]string{"kernels", "list", "extra"}, `unknown command "extra"`},
		"kernels show":          {[]string{"kernels", "show", badKnl}, regexp.QuoteMeta(badKnl) + `:4:\d+: `},
		"measure":               {[]string{"measure", "--device", "opencl", "--out", out, "--runs", "0"}, "--runs 0"},
		"predict":               {[]string{"predict", "--weights", missing, "global_copy", "--param", "n=1024"}, "missing.arrow"},
		"table":                 {[]string{"table", missing}, "missing.arrow"},
		"tune":                  {[]string{"tune", "global_copy", "--space", missing, "--weights", missing}, "missing.arrow"},
		"validate":              {[]string{"validate", "--weights", missing, "embedded:pocl-epyc-quick"}, "missing.arrow"},
	}
	for _, path := range commandPaths() {
		c, ok := bad[path]
		if !ok {
			t.Errorf("uniperf %s: no bad input for this command in the walk", path)
			continue
		}
		code, msg := runAll(t, c.args...)
		body, _ := strings.CutPrefix(strings.TrimSpace(msg), "uniperf: ")
		if code != 2 || !regexp.MustCompile(c.want).MatchString(body) || len(msg) > 1000 {
			t.Errorf("uniperf %s: exit %d, %q; want 2 and a message matching %q", strings.Join(c.args, " "), code, msg, c.want)
		}
	}
	// An output the user names that cannot be: bad input, and /dev/null
	// stays a device.
	for _, args := range [][]string{
		{"fit", "embedded:pocl-epyc-quick", "--out", filepath.Join(dir, "no", "such", "dir", "w.arrow")},
		{"measure", "--device", "opencl", "--suite", "quick", "--kernels", "empty", "--out", filepath.Join(dir, "no", "such", "t.arrow")},
		{"fit", "embedded:pocl-epyc-quick", "--out", "/dev/null"},
		{"table", "embedded:pocl-epyc-quick", "--format", "csv", "--out", "/dev/null"},
	} {
		if code, msg := runAll(t, args...); code != 2 {
			t.Errorf("uniperf %s: exit %d, %q; want 2", strings.Join(args, " "), code, msg)
		}
	}
	if info, err := os.Stat("/dev/null"); err != nil || info.Mode()&os.ModeDevice == 0 {
		t.Fatalf("/dev/null is no longer a device: %v", info)
	}
	// A full disk under the output is the system's fault, whether the
	// command checks its writes (kernels list) or not (card).
	for _, args := range [][]string{
		{"kernels", "list"},
		{"card", "{ [i] : 0 <= i < 3 }"},
		{"table", "embedded:pocl-epyc-quick", "--format", "csv"},
	} {
		full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		cmd := uniperfProcess(args...)
		cmd.Stdout = full
		err = cmd.Run()
		full.Close()
		if cmd.ProcessState.ExitCode() != 1 {
			t.Errorf("uniperf %s > /dev/full: %v, want exit 1", strings.Join(args, " "), err)
		}
	}
	// A closed standard output (a reader that stopped, as head does) ends
	// the command quietly with 141, however it writes.
	for _, args := range [][]string{
		{"kernels", "list"},
		{"card", "{ [i] : 0 <= i < 3 }"},
		{"table", "embedded:pocl-epyc-quick", "--format", "csv"},
		{"kernels", "show", "global_copy"},
	} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		r.Close()
		cmd := uniperfProcess(args...)
		cmd.Stdout = w
		var msg strings.Builder
		cmd.Stderr = &msg
		cmd.Run()
		w.Close()
		if code := cmd.ProcessState.ExitCode(); code != exitClosedPipe || msg.Len() > 0 {
			t.Errorf("uniperf %s | (closed): exit %d (%v), stderr %q; want %d and no message", strings.Join(args, " "), code, cmd.ProcessState, msg.String(), exitClosedPipe)
		}
	}
	// A path that cannot name a file is bad input, as a missing file is:
	// a file where a directory is needed (ENOTDIR), a name over 255 bytes.
	long := filepath.Join(dir, strings.Repeat("a", 300)+".arrow")
	notDir := filepath.Join(badKnl, "t.arrow")
	for _, args := range [][]string{
		{"table", notDir}, {"table", long},
		{"fit", "embedded:pocl-epyc-quick", "--out", notDir}, {"fit", "embedded:pocl-epyc-quick", "--out", long},
		{"export", notDir}, {"predict", "--weights", long, "global_copy", "--param", "n=1024"},
		{"compare", "embedded:pocl-epyc-quick", "--device-file", notDir},
		{"measure", "--device", "opencl", "--suite", "quick", "--kernels", "empty", "--out", notDir},
		{"predict", "--program", notDir, "--device-file", "pocl-cpu"},
	} {
		code, msg := runAll(t, args...)
		if code != 2 || !strings.Contains(msg, "not a directory") && !strings.Contains(msg, "file name too long") {
			t.Errorf("uniperf %s: exit %d, %q; want 2, not a directory or file name too long", strings.Join(args, " "), code, msg)
		}
	}
	if code, _ := runAll(t, "help", "kernels", "show"); code != 0 {
		t.Errorf("uniperf help kernels show: exit %d", code)
	}
}

// TestExitNonFinite gives finite inputs whose results are not finite
// numbers: each is bad input (2) naming the property or parameter, and
// no output is written (issue 45: exit 1 blaming the system, or exit 0
// printing "predicted +Inf s").
func TestExitNonFinite(t *testing.T) {
	dir := t.TempDir()
	tab, err := datasets.Read(filepath.Join("..", "..", "datasets", shippedTable))
	if err != nil {
		t.Fatal(err)
	}
	for i := range tab.Rows {
		tab.Rows[i].TimeS = math.MaxFloat64
		for j := range tab.Rows[i].RawTimesS {
			tab.Rows[i].RawTimesS[j] = math.MaxFloat64
		}
	}
	maxTable := filepath.Join(dir, "max.arrow")
	if err := datasets.WriteFile(maxTable, tab); err != nil {
		t.Fatal(err)
	}
	props := []string{"global.load.f32.stride=1", "global.minldst.f32.stride=1", "global.store.f32.stride=1", "launch.const", "launch.groups"}
	zero := writeTestWeights(t, dir, "zero.arrow", "GPU", "sha256:1", props, []float64{0, 0, 0, 0, 0})
	huge := writeTestWeights(t, dir, "huge.arrow", "GPU", "sha256:1", props, []float64{1e308, 1e308, 1e308, 1e308, 1e308})
	src, err := os.ReadFile(filepath.Join("..", "..", "fit", "gpus", "devices", "pocl-cpu.json"))
	if err != nil {
		t.Fatal(err)
	}
	var dev map[string]any
	if err := json.Unmarshal(src, &dev); err != nil {
		t.Fatal(err)
	}
	dev["hongkim"].(map[string]any)["issue_cycles"] = 1e308
	hk := filepath.Join(dir, "hk.json")
	data, _ := json.Marshal(dev)
	if err := os.WriteFile(hk, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"fit", maxTable, "--out", out}, "the weight of launch.const is +Inf: the tables' times or counts overflow"},
		{[]string{"predict", "--weights", zero, "global_copy", "--param", "n=1024", "--json"}, "the prediction is 0 s: the weights of every property the kernel counts (global.load.f32.stride=1, "},
		{[]string{"predict", "--weights", zero, "global_copy", "--param", "n=1024"}, "the prediction is 0 s"},
		{[]string{"predict", "--weights", huge, "global_copy", "--param", "n=1024"}, "the weight of global.load.f32.stride=1, 1e+308 s, times its count, 1024, gives +Inf s"},
		{[]string{"fit", "embedded:" + shippedTable, "--model", "hongkim", "--device-file", hk, "--out", out}, "hongkim.issue_cycles must be 0 (absent) or 1e-09 to 1e+09, have 1e+308"},
		{[]string{"measure", "global_copy", "--device", "opencl", "--param", "n=1024", "--compare-with", huge}, "the weight of global.load.f32.stride=1, 1e+308 s"},
		{[]string{"measure", "global_copy", "--device", "opencl", "--param", "n=1024", "--compare-with", huge, "--json"}, "the weight of global.load.f32.stride=1, 1e+308 s"},
	} {
		code, msg := runAll(t, c.args...)
		if code != 2 || !strings.Contains(msg, c.want) {
			t.Errorf("uniperf %s: exit %d, %q; want 2 and %q", strings.Join(c.args, " "), code, msg, c.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("an output was written")
	}
}

// Kernels whose trouble is the user's, not the device's: a domain empty
// at the parameters is bad input (2; it was exit 1, "launch grid: sizes
// must be positive"), and a kernel that writes infinities, b[i] = a[i] /
// 0, is measured (0; it was exit 1, "+Inf on the device and +Inf in the
// reference").
func TestExitKernelsOnPoCL(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "e.knl")
	div0 := filepath.Join(dir, "div0.knl")
	for path, src := range map[string]string{
		empty: "kernel e\nconst LX = 16\ndomain [n] -> { [i] : 0 <= i < n - 64 }\narray a f32 [n]\narray b f32 [n]\nsplit i LX i_out i_in\ntag i_out g.0, i_in l.0\nb[i] = a[i]\n",
		div0:  "kernel div0\nconst LX = 16\ndomain [n] -> { [i] : 0 <= i < n }\narray a f32 [n]\narray b f32 [n]\nsplit i LX i_out i_in\ntag i_out g.0, i_in l.0\nb[i] = a[i] / 0\n",
	} {
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"measure", empty, "--device", "opencl", "--param", "n=64"}, 2, "the launch grid is empty (axis 0: global size 0, local size 16)"},
		{[]string{"measure", empty, "--device", "opencl", "--param", "n=64", "--check-param", "n=64"}, 2, "the launch grid is empty"},
		{[]string{"measure", div0, "--device", "opencl", "--param", "n=64"}, 0, ""},
	} {
		code, msg := runAll(t, c.args...)
		if code != c.code || !strings.Contains(msg, c.want) {
			t.Errorf("uniperf %s: exit %d, %q; want %d and %q", strings.Join(c.args, " "), code, msg, c.code, c.want)
		}
	}
}
