package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit/tune"
)

// ktMatmulSpace writes Kernel Tuner's matmul.py space, with its
// restriction block_size_x = block_size_y*tile_size_y (44
// configurations), which the shipped space drops as the port does not
// need it.
func ktMatmulSpace(t *testing.T) string {
	t.Helper()
	return writeTestFile(t, "matmul.json", `{"tune_params": {"block_size_x": [16, 32, 64], "block_size_y": [1, 2, 4, 8, 16, 32], "tile_size_x": [1, 2, 4, 8], "tile_size_y": [1, 2, 4, 8]},
 "restrictions": ["block_size_x==block_size_y*tile_size_y"]}`)
}

var matmulMaps = []string{"--map", "BX=block_size_x", "--map", "BY=block_size_y", "--map", "TX=tile_size_x", "--map", "TY=tile_size_y"}

// TestTuneEqualsPredict ranks the space of Kernel Tuner's matmul
// example (44 configurations) and checks every configuration's
// prediction in the T4 output against uniperf predict run for it alone,
// and the order against the predictions.
func TestTuneEqualsPredict(t *testing.T) {
	weights := fitQuickWeights(t)
	out := filepath.Join(t.TempDir(), "r.json")
	args := append([]string{"tune", "../../examples/matmul_kernel.knl", "--space", ktMatmulSpace(t),
		"--weights", weights, "--param", "n=512", "--out", out}, matmulMaps...)
	if code, _, stderr := runCommand(t, tuneCmd, args...); code != 0 {
		t.Fatalf("tune: exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var t4 struct {
		Version string `json:"schema_version"`
		Results []struct {
			Configuration map[string]int64
			Invalidity    string
			Correctness   int
			Measurements  []struct {
				Name  string
				Value float64
				Unit  string
			}
		}
	}
	if err := json.Unmarshal(data, &t4); err != nil {
		t.Fatal(err)
	}
	if t4.Version != "1.0.0" || len(t4.Results) != 44 {
		t.Fatalf("schema %q, %d results, want 1.0.0 and 44", t4.Version, len(t4.Results))
	}
	prev := 0.0
	for i, r := range t4.Results {
		c := r.Configuration
		if r.Invalidity != "correct" || r.Correctness != 1 || len(r.Measurements) != 1 || r.Measurements[0].Name != "predicted_time" || r.Measurements[0].Unit != "ms" {
			t.Fatalf("result %d: %+v", i, r)
		}
		consts := map[string]int64{"BX": c["block_size_x"], "BY": c["block_size_y"], "TX": c["tile_size_x"], "TY": c["tile_size_y"]}
		p := predictOne(t, weights, "../../examples/matmul_kernel.knl", consts, map[string]int64{"n": 512})
		if got := r.Measurements[0].Value; got != p.Predicted*1e3 {
			t.Errorf("%v: tune %g ms, predict %g ms", consts, got, p.Predicted*1e3)
		}
		if p.Predicted < prev {
			t.Errorf("result %d (%v) predicted %g s after %g s: not ranked", i, consts, p.Predicted, prev)
		}
		prev = p.Predicted
	}
}

// TestTuneEvaluate checks --evaluate on tune's own CSV with a measured
// column made up so that the answer is known: measured = predicted
// reversed in rank, so τ-b is -1 but for ties in prediction, and the
// predicted best is the slowest (or, tied, the expected of those it ties with).
func TestTuneEvaluate(t *testing.T) {
	weights := fitQuickWeights(t)
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "r.csv")
	args := append([]string{"tune", "../../examples/matmul_kernel.knl", "--space", ktMatmulSpace(t),
		"--weights", weights, "--param", "n=512", "--out", csvPath}, matmulMaps...)
	if code, _, stderr := runCommand(t, tuneCmd, args...); code != 0 {
		t.Fatalf("tune: exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	var b strings.Builder
	b.WriteString(lines[0] + ",time\n")
	n := len(lines) - 1
	var pred []float64
	for i, l := range lines[1:] {
		fmt.Fprintf(&b, "%s,%d\n", l, n-i)
		var p float64
		fmt.Sscan(l[strings.LastIndexByte(l, ',')+1:], &p)
		pred = append(pred, p)
	}
	// τ-b by its definition: measured falls strictly with rank, so every
	// pair untied in prediction is discordant.
	var disc, tied float64
	for i := range pred {
		for j := i + 1; j < len(pred); j++ {
			if pred[i] == pred[j] {
				tied++
			} else {
				disc++
			}
		}
	}
	wantTau := -disc / math.Sqrt(disc*(disc+tied))
	measured := filepath.Join(dir, "m.csv")
	if err := os.WriteFile(measured, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	check := func(args ...string) {
		t.Helper()
		code, out, stderr := runCommand(t, tuneCmd, args...)
		var ev tune.Evaluation
		if code != 0 || json.Unmarshal([]byte(out), &ev) != nil {
			t.Fatalf("%v: exit %d: %s\n%s", args, code, stderr, out)
		}
		// Measured times 44..1 ms down the ranking, the optimum 1 ms.
		// Untied, the predicted best measures 44 and the top 10 35. Where
		// the k-th prediction ties with positions lo+1..hi (1-based), those
		// measure n-hi+1..n-lo, all less than the positions before them, and
		// the k take k-lo of the hi-lo at random: the least of r drawn from
		// a+1..a+g is a + (g+1)/(r+1). Random: E[min of 1] = 22.5, of 10 =
		// 45/11 (the expected minimum of k of 1..n is (n+1)/(k+1)).
		best := func(k int) float64 {
			lo, hi := k-1, k
			for lo > 0 && pred[lo-1] == pred[k-1] {
				lo--
			}
			for hi < n && pred[hi] == pred[k-1] {
				hi++
			}
			return float64(n-hi) + float64(hi-lo+1)/float64(k-lo+1)
		}
		if ev.N != 44 || math.Abs(ev.Tau-wantTau) > 1e-12 || math.Abs(ev.Picks[0].BestRatio-best(1)) > 1e-12 || math.Abs(ev.Picks[2].BestRatio-best(10)) > 1e-12 ||
			math.Abs(ev.Picks[0].RandomRatio-22.5) > 1e-9 || math.Abs(ev.Picks[2].RandomRatio-45.0/11) > 1e-9 {
			t.Errorf("%v: %+v, want best ratios %g and %g", args, ev, best(1), best(10))
		}
	}
	check("tune", "--evaluate", measured, "--json")
	check(append([]string{"tune", "../../examples/matmul_kernel.knl", "--space", ktMatmulSpace(t),
		"--weights", weights, "--param", "n=512", "--evaluate", measured, "--json"}, matmulMaps...)...)
}

// TestTuneModelHierarchy ranks four matmul bindings with the hierarchy
// model calibrated on the PoCL quick table (any calibration serves: the
// oracle is predict with the same one; the paper table's took seven
// times the CPU) and checks each prediction
// against uniperf predict --model hierarchy run for that binding alone,
// the order, and the ties' ranges: tile_size_x is read by no const, so
// its two values tie at every binding. Under -short block_size_y takes
// one value: two bindings, each with its tie.
func TestTuneModelHierarchy(t *testing.T) {
	dir := t.TempDir()
	cal := filepath.Join(dir, "pocl.hierarchy.json")
	if code, _, stderr := runFit(t, "embedded:pocl-epyc-quick.arrow", "--model", "hierarchy", "--out", cal); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	space := filepath.Join(dir, "s.json")
	ys, bindings := "4, 8", 4
	if testing.Short() {
		ys, bindings = "4", 2
	}
	if err := os.WriteFile(space, []byte(`{"tune_params": {"block_size_x": [16, 32], "block_size_y": [`+ys+`], "tile_size_x": [1, 2]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCommand(t, tuneCmd, "tune", "../../examples/matmul_kernel.knl", "--space", space, "--model", "hierarchy",
		"--weights", cal, "--param", "n=96", "--map", "BX=block_size_x", "--map", "BY=block_size_y", "--map", "TX=1", "--map", "TY=2", "--top", "8", "--json")
	var entries []tuneEntry
	if code != 0 || json.Unmarshal([]byte(out), &entries) != nil || len(entries) != 2*bindings {
		t.Fatalf("tune: exit %d: %s\n%s", code, stderr, out)
	}
	// The tile_size_x twins bind the same consts: one predict serves both.
	predicted := map[[2]int64]float64{}
	for i, e := range entries {
		binding := [2]int64{e.Consts["BX"], e.Consts["BY"]}
		if _, ok := predicted[binding]; !ok {
			_, pout, perr := runPredict(t, "--model", "hierarchy", "--weights", cal, "../../examples/matmul_kernel.knl", "--param", "n=96",
				"--const", fmt.Sprintf("BX=%d", binding[0]), "--const", fmt.Sprintf("BY=%d", binding[1]), "--const", "TX=1", "--const", "TY=2", "--json")
			var p modelPrediction
			if json.Unmarshal([]byte(pout), &p) != nil || p.Model != "hierarchy" {
				t.Fatalf("predict %v: %s\n%s", e.Consts, perr, pout)
			}
			predicted[binding] = p.Predicted
		}
		if p := predicted[binding]; e.Predicted != p {
			t.Errorf("%v: tune %g s, predict --model hierarchy %g s", e.Consts, e.Predicted, p)
		}
		lo, hi := i, i
		for lo > 0 && entries[lo-1].Predicted == e.Predicted {
			lo--
		}
		for hi < len(entries)-1 && entries[hi+1].Predicted == e.Predicted {
			hi++
		}
		if e.Tied != [2]int{lo + 1, hi + 1} || hi == lo {
			t.Errorf("rank %d: tied %v, want %d-%d, at least its tile_size_x twin", e.Rank, e.Tied, lo+1, hi+1)
		}
		if i > 0 && e.Predicted < entries[i-1].Predicted {
			t.Errorf("rank %d predicted %g after %g: not ranked", e.Rank, e.Predicted, entries[i-1].Predicted)
		}
	}
	if len(predicted) != bindings {
		t.Errorf("%d distinct bindings of BX and BY among the %d entries, want %d", len(predicted), len(entries), bindings)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--model", "hierarchy", "--weights", cal, "--strict"}, "--strict and --allow-unpriced concern the linear model's"},
		{[]string{"--model", "nosuch", "--weights", cal}, "--model"},
		{[]string{"--weights", cal, "--device-file", "pocl-cpu"}, "--device-file is for models other than linear"},
	} {
		args := append([]string{"tune", "../../examples/matmul_kernel.knl", "--space", space, "--param", "n=96"}, c.args...)
		if code, _, stderr := runCommand(t, tuneCmd, args...); code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d: %s, want %q", c.args, code, stderr, c.want)
		}
	}
}

// TestTuneErrors checks tune's refusals.
func TestTuneErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "s.json")
	if err := os.WriteFile(bad, []byte(`{"tune_params": {"BX": [16, 32]}, "restrictions": ["BX.bit_length() > 2"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tune", "../../examples/stencil_kernel.knl", "--weights", "w"}, "--space is required"},
		{[]string{"tune", "../../examples/stencil_kernel.knl", "--space", bad, "--weights", "w"}, `restrictions[0] "BX.bit_length() > 2": 1:3: attributes are not supported`},
		{[]string{"tune", "../../examples/stencil_kernel.knl", "--space", "../../examples/stencil_kernel.space.json", "--weights", "w", "--map", "XX=block_size_x"}, "the kernel has no const XX"},
		{[]string{"tune", "--evaluate", bad}, "neither T4 results"},
		{[]string{"tune", "k", "--top", "0"}, "--top 0"},
		{[]string{"tune", "k", "--space", bad, "--weights", "w", "--out", "r.txt"}, "name a .json"},
		{[]string{"tune", "k", "--space", bad, "--weights", "w", "--resume"}, "--resume goes on with an interrupted --measure"},
		// matmul_kernel.knl's one size parameter is n (its domain's [n]).
		{[]string{"tune", "../../examples/matmul_kernel.knl", "--space", "../../examples/matmul_kernel.space.json", "--weights", "w"},
			"missing parameter n: give --param n=VALUE"},
		{[]string{"tune", "../../examples/matmul_kernel.knl", "--space", "../../examples/matmul_kernel.space.json", "--weights", "w", "--param", "n=64", "--param", "m=3"},
			`--param "m=3": ../../examples/matmul_kernel.knl has no parameter m (its parameters: n)`},
	} {
		code, _, stderr := runCommand(t, tuneCmd, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d: %s, want %q", c.args, code, stderr, c.want)
		}
	}
}

// TestTuneMeasureOnPoCL times a tiny stencil space on PoCL: two block
// widths, two heights and a tunable the kernel does not read, so eight
// configurations and four kernels, each checked against the interpreter
// before it is timed. The largest block, 128 × 64 work-items (the
// interior of the 130 × 66 domain), is beyond PoCL's 4096 a group: its
// two configurations are skipped, not timed. Configurations of one
// kernel share its time, the best found is the least time, and the CSV
// written reads back into --evaluate.
func TestTuneMeasureOnPoCL(t *testing.T) {
	weights := fitQuickWeights(t)
	dir := t.TempDir()
	space := filepath.Join(dir, "s.json")
	if err := os.WriteFile(space, []byte(`{"tune_params": {"block_size_x": [32, 128], "block_size_y": [2, 64], "read_only": [0, 1]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	csvPath := filepath.Join(dir, "r.csv")
	code, out, stderr := runCommand(t, tuneCmd, "tune", "../../examples/stencil_kernel.knl", "--space", space, "--weights", weights,
		"--param", "w=130", "--param", "h=66", "--map", "BX=block_size_x", "--map", "BY=block_size_y", "--measure", "opencl",
		"--brute-force", "--runs", "3", "--discard", "1", "--out", csvPath, "--json")
	var rep tuneMeasured
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil {
		t.Fatalf("tune --measure: exit %d: %s\n%s", code, stderr, out)
	}
	if len(rep.Timed) != 6 || rep.Skipped != 2 || rep.Evaluation == nil || rep.Evaluation.N != 6 {
		t.Fatalf("%+v", rep)
	}
	if !strings.Contains(stderr, "2 of 8 configurations skipped as invalid while timing") || !strings.Contains(stderr, "exceeds the device's limit 4096") {
		t.Errorf("stderr does not name the skipped work-groups:\n%s", stderr)
	}
	byBlock := map[[2]int64]float64{}
	for _, e := range rep.Timed {
		b := [2]int64{e.Consts["BX"], e.Consts["BY"]}
		if b == [2]int64{128, 64} || e.Measured <= 0 || byBlock[b] != 0 && byBlock[b] != e.Measured {
			t.Errorf("%+v: measured %g, the other configuration of %v %g", e.Configuration, e.Measured, b, byBlock[b])
		}
		byBlock[b] = e.Measured
		if e.Measured < rep.Best.Measured {
			t.Errorf("best %g s, but %+v measured %g s", rep.Best.Measured, e.Configuration, e.Measured)
		}
	}
	// An interrupted run: one kernel's times lost. --resume times that
	// kernel only and keeps the other four times as they were.
	data, err := os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	kept := map[string]string{}
	for i, l := range lines[1:] {
		cells := strings.Split(l, ",")
		if cells[1] == "32" && cells[2] == "2" {
			cells[len(cells)-1] = ""
		} else if cells[len(cells)-1] != "" {
			kept[strings.Join(cells[1:4], ",")] = cells[len(cells)-1]
		}
		lines[i+1] = strings.Join(cells, ",")
	}
	if err := os.WriteFile(csvPath, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = runCommand(t, tuneCmd, "tune", "../../examples/stencil_kernel.knl", "--space", space, "--weights", weights,
		"--param", "w=130", "--param", "h=66", "--map", "BX=block_size_x", "--map", "BY=block_size_y", "--measure", "opencl",
		"--brute-force", "--runs", "3", "--discard", "1", "--out", csvPath, "--resume", "--json")
	var again tuneMeasured
	if code != 0 || json.Unmarshal([]byte(out), &again) != nil {
		t.Fatalf("tune --measure --resume: exit %d: %s\n%s", code, stderr, out)
	}
	if again.Resumed != 4 || len(again.Timed) != 6 || again.Skipped != 2 {
		t.Errorf("resumed %d, timed %d, skipped %d; want 4, 6, 2", again.Resumed, len(again.Timed), again.Skipped)
	}
	data, err = os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
		cells := strings.Split(l, ",")
		if want, ok := kept[strings.Join(cells[1:4], ",")]; ok && !sameMs(cells[len(cells)-1], want) {
			t.Errorf("%s: time %s after resuming, %s before", l, cells[len(cells)-1], want)
		}
		if cells[1] == "32" && cells[2] == "2" && cells[len(cells)-1] == "" {
			t.Errorf("%s: not timed again", l)
		}
	}
	code, out, stderr = runCommand(t, tuneCmd, "tune", "--evaluate", csvPath, "--json")
	var ev tune.Evaluation
	if code != 0 || json.Unmarshal([]byte(out), &ev) != nil {
		t.Fatalf("tune --evaluate: exit %d: %s\n%s", code, stderr, out)
	}
	if ev.N != 6 || math.Abs(ev.Optimum-again.Best.Measured) > 1e-15 {
		t.Errorf("--evaluate of the CSV: %+v, best timed %g", ev, again.Best.Measured)
	}
}

// sameMs reports whether two CSV cells hold the same milliseconds, but
// for the rounding of reading seconds back from them and writing them
// again.
func sameMs(a, b string) bool {
	var x, y float64
	if _, err := fmt.Sscan(a, &x); err != nil {
		return false
	}
	if _, err := fmt.Sscan(b, &y); err != nil {
		return false
	}
	return math.Abs(x-y) <= 1e-12*math.Abs(y)
}

// TestTuneSkipsInvalid ranks a stencil space whose block sizes include
// 0, which the kernel refuses (a split factor must be positive): tune
// skips those configurations with the reason and ranks the rest. The
// oracle counts by enumeration the configurations with no zero.
func TestTuneSkipsInvalid(t *testing.T) {
	weights := fitQuickWeights(t)
	dir := t.TempDir()
	space := filepath.Join(dir, "s.json")
	xs, ys := []int{0, 32, 64}, []int{0, 1, 2, 4}
	if err := os.WriteFile(space, []byte(`{"tune_params": {"block_size_x": [0, 32, 64], "block_size_y": [0, 1, 2, 4]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "r.csv")
	code, stdout, stderr := runCommand(t, tuneCmd, "tune", "../../examples/stencil_kernel.knl", "--space", space, "--weights", weights,
		"--param", "w=256", "--param", "h=64", "--map", "BX=block_size_x", "--map", "BY=block_size_y", "--out", out)
	if code != 0 {
		t.Fatalf("tune: exit %d: %s", code, stderr)
	}
	valid := 0
	for _, x := range xs {
		for _, y := range ys {
			if x != 0 && y != 0 {
				valid++
			}
		}
	}
	all := len(xs) * len(ys)
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if rows := strings.Count(string(data), "\n") - 1; rows != valid || strings.Contains(string(data), ",0,") {
		t.Errorf("%d configurations ranked, want %d, none with a zero:\n%s", rows, valid, data)
	}
	if want := fmt.Sprintf("%d valid configurations (%d more skipped as invalid)", valid, all-valid); !strings.Contains(stdout, want) {
		t.Errorf("stdout lacks %q:\n%s", want, stdout)
	}
	if want := fmt.Sprintf("warning: %d of %d configurations skipped as invalid while predicting", all-valid, all); !strings.Contains(stderr, want) || !strings.Contains(stderr, "split factor must be positive, not 0") {
		t.Errorf("stderr lacks %q and the kernel's reason:\n%s", want, stderr)
	}
}

// TestTuneCheckParam checks that tune --measure checks each kernel at
// --check-param's sizes: at w=0 the check's grid is empty and the run
// stops naming that size, while at a small size the best is timed at
// --param's.
func TestTuneCheckParam(t *testing.T) {
	weights := fitQuickWeights(t)
	space := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(space, []byte(`{"tune_params": {"block_size_x": [32], "block_size_y": [2]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"tune", "../../examples/stencil_kernel.knl", "--space", space, "--weights", weights,
		"--param", "w=130", "--param", "h=66", "--map", "BX=block_size_x", "--map", "BY=block_size_y",
		"--measure", "opencl", "--top", "1", "--runs", "2", "--discard", "1"}
	code, _, stderr := runCommand(t, tuneCmd, append(args, "--check-param", "w=0")...)
	if code == 0 || !strings.Contains(stderr, "w=0") {
		t.Errorf("check at w=0: exit %d, stderr does not name w=0:\n%s", code, stderr)
	}
	code, out, stderr := runCommand(t, tuneCmd, append(args, "--check-param", "w=34", "--check-param", "h=18", "--json")...)
	var rep tuneMeasured
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || len(rep.Timed) != 1 || rep.Timed[0].Measured <= 0 {
		t.Fatalf("check at w=34,h=18: exit %d: %s\n%s", code, stderr, out)
	}
	if code, _, stderr := runCommand(t, tuneCmd, "tune", "../../examples/stencil_kernel.knl", "--space", space, "--weights", weights, "--check-param", "w=34"); code != 2 || !strings.Contains(stderr, "--measure") {
		t.Errorf("--check-param without --measure: exit %d:\n%s", code, stderr)
	}
}
