package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A kernel whose sizes are all consts (one imported with every size as
// -D, as docs/importing.md's matmul.cu) has no parameter to give: predict
// takes it without --param, at its one size. The oracle is the same
// kernel with its size a parameter, given as --param at the const's
// value: the two count the same launch and predict the same time. A
// kernel with parameters still asks for them.
func TestPredictKernelWithoutParameters(t *testing.T) {
	body := "split i 64 g l\ntag l l.0, g g.0\na[i] = 2.0f*a[i]\n"
	fixed := writeTestFile(t, "fixed.knl", "kernel scale\nconst N = 4096\ndomain { [i] : 0 <= i < N }\narray a f32 [N]\n"+body)
	sized := writeTestFile(t, "sized.knl", "kernel scale\ndomain [n] -> { [i] : 0 <= i < n }\narray a f32 [n]\n"+body)
	got, want := predictPoCL(t, fixed).Predicted, predictPoCL(t, sized, "--param", "n=4096").Predicted
	if got != want || got <= 0 {
		t.Errorf("predicted %g s without parameters, want %g s, the parametric kernel's at n = 4096", got, want)
	}
	code, out, stderr := runCommand(t, predictCmd, "predict", "--weights", poclWeights, fixed)
	if code != 0 || !strings.HasPrefix(out, fixed+" on ") {
		t.Errorf("text: exit %d, %q (stderr %q); want the header %q without \" at \"", code, out, stderr, fixed+" on ")
	}
	code, _, stderr = runCommand(t, predictCmd, "predict", "--weights", poclWeights, sized)
	if code != 2 || !strings.Contains(stderr, "give the kernel's parameters") {
		t.Errorf("parametric kernel without --param: exit %d, %q; want 2 and a request for its parameters", code, stderr)
	}
}

// A kernel without parameters whose const is a placeholder every call
// overrides (const M = 0, an extent, refused at its default) is
// predicted with --const M=8 as the same kernel with const M = 8 written
// in (the oracle), not asked for parameters; without the --const its
// reading names what is wrong. measure alike goes on to the device
// (--device nosuch, refused there) rather than ask for parameters.
func TestPlaceholderConstWithoutParameters(t *testing.T) {
	text := "kernel scale\nconst N = 4096\nconst M = 0\ndomain { [i] : 0 <= i < N }\narray a f32 [N]\narray b f32 [M]\nsplit i 64 g l\ntag l l.0, g g.0\na[i] = 2.0f*a[i]\n"
	placeholder := writeTestFile(t, "placeholder.knl", text)
	written := writeTestFile(t, "written.knl", strings.Replace(text, "const M = 0", "const M = 8", 1))
	got, want := predictPoCL(t, placeholder, "--const", "M=8"), predictPoCL(t, written)
	if got.Predicted != want.Predicted || got.Predicted <= 0 || fmt.Sprint(got.Terms) != fmt.Sprint(want.Terms) {
		t.Errorf("placeholder with --const M=8: %g s, terms %s; want the kernel with M = 8 written in: %g s, terms %s", got.Predicted, got.Terms, want.Predicted, want.Terms)
	}
	code, _, stderr := runCommand(t, predictCmd, "predict", "--weights", poclWeights, placeholder)
	if want := placeholder + ":6:14: array b: extent 0 is not positive"; code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("placeholder at its default: exit %d, %q; want 2 and %q", code, stderr, want)
	}
	code, _, stderr = runCommand(t, measureCmd, "measure", placeholder, "--const", "M=8", "--device", "nosuch")
	if code != 2 || !strings.Contains(stderr, `--device nosuch: device "nosuch": no such device`) {
		t.Errorf("measure with --const M=8: exit %d, %q; want 2 and the device refused", code, stderr)
	}
}

// A kernel without parameters is named alone in predict's warnings, as
// in its header: "warning: K: ...", not "warning: K at : ..." with an
// empty place. --warn-share 0.01 makes the launch constant's weakly
// determined share (about half of a 4096-element launch) warned of.
func TestWarningsWithoutParameters(t *testing.T) {
	fixed := writeTestFile(t, "fixed.knl", "kernel scale\nconst N = 4096\ndomain { [i] : 0 <= i < N }\narray a f32 [N]\nsplit i 64 g l\ntag l l.0, g g.0\na[i] = 2.0f*a[i]\n")
	code, _, stderr := runCommand(t, predictCmd, "predict", "--weights", poclWeights, "--warn-share", "0.01", fixed)
	if code != 0 || !strings.Contains(stderr, "warning: "+fixed+": ") || strings.Contains(stderr, " at :") {
		t.Errorf("exit %d, stderr %q; want warnings that begin %q", code, stderr, "warning: "+fixed+": ")
	}
}

// poclWeights is the shipped linear fit of the tuning run on PoCL.
const poclWeights = "../../datasets/tuning/pocl.weights.arrow"

// writeTestFile writes text as name in a folder of the test's and
// returns its path.
func writeTestFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// predictPoCL runs predict --json with poclWeights and args.
func predictPoCL(t *testing.T, args ...string) (p struct {
	Predicted float64           `json:"predicted_s"`
	Terms     []json.RawMessage `json:"terms"`
}) {
	t.Helper()
	code, out, stderr := runCommand(t, predictCmd, append([]string{"predict", "--weights", poclWeights, "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("predict %v: exit %d: %s", args, code, stderr)
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("predict %v: %v\n%s", args, err, out)
	}
	return p
}
