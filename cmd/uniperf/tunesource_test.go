package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const ktConvolution = "../../counts/cimport/testdata/kerneltuner/convolution.cu"

// ktConvolutionFlags import Kernel Tuner's tiled convolution at a 64 x
// 48 image with a 5 x 5 filter (the source's #defines give way to -D),
// launched as Kernel Tuner's grid_div rounds up.
var ktConvolutionFlags = "--kernel convolution_kernel -D image_width=64 -D image_height=48 -D filter_width=5 -D filter_height=5 " +
	"--local block_size_x,block_size_y " +
	"--groups (64+block_size_x*tile_size_x-1)/(block_size_x*tile_size_x),(48+block_size_y*tile_size_y-1)/(block_size_y*tile_size_y) " +
	"--array output=64*48 --array input=68*52 --array filter=25"

// TestTuneCSource ranks a space of Kernel Tuner's convolution.cu itself.
// Its #ifs read block_size_x/y, tile_size_x/y, use_padding and
// read_only, so no one import can vary them. Oracle: each configuration
// imported with uniperf import (its tunables as -D) and predicted with
// uniperf predict. By hand: 3 x 2 x 2 x 2 x 2 = 48 combinations of
// block, tile and padding, less the 8 with use_padding = 1 at
// block_size_x = 32, are 40 kernels, all distinct (the tile sizes are
// literals in each, and padding widens every tile row at block_size_x
// = 16 and 48: (bx*(tx - 1) + 4) % 32 is 4, 20, 4 or 20); use_cmem,
// which the source never reads (1 or 2: a const of the .knl either
// way, where 0, no tunable, would be none and change the text), doubles
// them to 80 valid configurations; read_only = 2 leaves LDG undefined,
// so the importer refuses the other 80. Each of the 160 is a binding.
func TestTuneCSource(t *testing.T) {
	weights := fitQuickWeights(t)
	space := writeTestFile(t, "space.json", `{"tune_params": {"block_size_x": [16, 32, 48], "block_size_y": [2, 4], "tile_size_x": [1, 2], "tile_size_y": [1, 3],
 "use_padding": [0, 1], "read_only": [0, 2], "use_cmem": [1, 2]}, "restrictions": ["use_padding==0 or block_size_x % 32 != 0"]}`)
	code, out, stderr := runCommand(t, tuneCmd, "tune", ktConvolution, "--import-flags", ktConvolutionFlags, "--space", space,
		"--weights", weights, "--top", "200", "--json")
	if code != 0 {
		t.Fatalf("tune: exit %d: %s", code, stderr)
	}
	if want := "warning: 80 of 160 configurations skipped as invalid"; !strings.Contains(stderr, want) || !strings.Contains(stderr, "LDG") {
		t.Errorf("stderr %q: want %q, naming LDG", stderr, want)
	}
	var entries []tuneEntry
	if err := json.Unmarshal([]byte(out), &entries); err != nil {
		t.Fatal(err)
	}
	if len(entries) != 80 {
		t.Fatalf("%d configurations ranked, want 80", len(entries))
	}
	dir := t.TempDir()
	byKernel := map[string]float64{}
	for i, e := range entries {
		c := e.Consts
		if c["read_only"] != 0 {
			t.Fatalf("entry %d: %v ranked, want only read_only = 0", i, c)
		}
		key := fmt.Sprint(c["block_size_x"], c["block_size_y"], c["tile_size_x"], c["tile_size_y"], c["use_padding"])
		if p, seen := byKernel[key]; seen {
			if e.Predicted != p {
				t.Errorf("%v: %g s, and %g s with use_cmem otherwise, which the source never reads", c, e.Predicted, p)
			}
			continue
		}
		knl := filepath.Join(dir, fmt.Sprintf("k%d.knl", i))
		args := []string{"import", ktConvolution, "--out", knl}
		args = append(args, strings.Fields(ktConvolutionFlags)...)
		for _, n := range []string{"block_size_x", "block_size_y", "tile_size_x", "tile_size_y", "use_padding", "read_only", "use_cmem"} {
			args = append(args, "-D", fmt.Sprintf("%s=%d", n, c[n]))
		}
		if code, _, stderr := runCommand(t, importCmd, args...); code != 0 {
			t.Fatalf("import %v: exit %d: %s", c, code, stderr)
		}
		p := predictOne(t, weights, knl, nil, nil)
		if e.Predicted != p.Predicted {
			t.Errorf("%v: tune %g s, import and predict %g s", c, e.Predicted, p.Predicted)
		}
		byKernel[key] = e.Predicted
	}
	if len(byKernel) != 40 {
		t.Errorf("%d kernels, want 40", len(byKernel))
	}
	code, out, _ = runCommand(t, tuneCmd, "tune", ktConvolution, "--import-flags", ktConvolutionFlags, "--space", space, "--weights", weights)
	if want := "80 valid configurations (80 more skipped as invalid), 160 distinct const bindings (imported as 40 distinct kernels)"; code != 0 || !strings.Contains(out, want) {
		t.Errorf("text: exit %d, %q; want %q", code, out, want)
	}
}

// Kernel Tuner's matmul.cu keeps its tunables as consts (no #if reads
// them), so its 44 configurations import as one kernel, bound 44 ways,
// and each is predicted as uniperf import and predict predict it.
func TestTuneCSourceOneKernel(t *testing.T) {
	weights := fitQuickWeights(t)
	flags := "-D WIDTH=512 --local block_size_x,block_size_y --groups WIDTH/(block_size_x*tile_size_x),WIDTH/(block_size_y*tile_size_y) " +
		"--array A=WIDTH*WIDTH --array B=WIDTH*WIDTH --array C=WIDTH*WIDTH"
	const src = "../../counts/cimport/testdata/kerneltuner/matmul.cu"
	code, out, stderr := runCommand(t, tuneCmd, "tune", src, "--import-flags", flags, "--space", ktMatmulSpace(t), "--weights", weights)
	if want := "44 valid configurations, 44 distinct const bindings (imported as 1 distinct kernel)"; code != 0 || !strings.Contains(out, want) {
		t.Fatalf("exit %d, %q (%s); want %q", code, out, stderr, want)
	}
	// At WIDTH = 256 the three configurations with 64-wide blocks of
	// 8-wide tiles (512 columns a group) launch no group along x.
	narrow := strings.Replace(flags, "WIDTH=512", "WIDTH=256", 1)
	code, out, stderr = runCommand(t, tuneCmd, "tune", src, "--import-flags", narrow, "--space", ktMatmulSpace(t), "--weights", weights)
	if want := "the launch grid at its const values is empty along axis 0"; code != 0 || !strings.Contains(out, "41 valid configurations (3 more skipped as invalid)") || !strings.Contains(stderr, want) {
		t.Errorf("WIDTH = 256: exit %d, %q (%s); want 41 valid, 3 skipped, %q", code, out, stderr, want)
	}
	code, out, stderr = runCommand(t, tuneCmd, "tune", src, "--import-flags", flags, "--space", ktMatmulSpace(t), "--weights", weights, "--top", "3", "--json")
	var entries []tuneEntry
	if code != 0 || json.Unmarshal([]byte(out), &entries) != nil || len(entries) != 3 {
		t.Fatalf("exit %d, %q (%s)", code, out, stderr)
	}
	knl := filepath.Join(t.TempDir(), "mm.knl")
	args := append([]string{"import", src, "--out", knl, "-D", "block_size_x=16", "-D", "block_size_y=16", "-D", "tile_size_x=1", "-D", "tile_size_y=1"},
		strings.Fields(flags)...)
	if code, _, stderr := runCommand(t, importCmd, args...); code != 0 {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	for _, e := range entries {
		consts := map[string]int64{}
		for _, n := range []string{"block_size_x", "block_size_y", "tile_size_x", "tile_size_y"} {
			consts[n] = e.Consts[n]
		}
		if p := predictOne(t, weights, knl, consts, nil); e.Predicted != p.Predicted {
			t.Errorf("%v: tune %g s, import and predict %g s", consts, e.Predicted, p.Predicted)
		}
	}
}

// --import-flags belongs to a C source, and is read as import's flags.
func TestTuneCSourceBadInput(t *testing.T) {
	space := ktMatmulSpace(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"../../examples/matmul_kernel.knl", "--import-flags", "--local 16"}, "--import-flags is for a CUDA or OpenCL source"},
		{[]string{ktConvolution, "--import-flags", "--no-such-flag 3"}, "--import-flags: "},
		{[]string{ktConvolution, "--import-flags", ktConvolutionFlags, "--measure", "pocl"}, "--measure times .knl kernels"},
	} {
		args := append([]string{"tune"}, tc.args...)
		args = append(args, "--space", space, "--weights", "w.arrow")
		code, _, stderr := runCommand(t, tuneCmd, args...)
		if code != 2 || !regexp.MustCompile(regexp.QuoteMeta(tc.want)).MatchString(stderr) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}

// An imported kernel's text is kept only while a binding of it is
// predicted; read later, it is imported again from the macros that first
// gave it, to the same text, and a second configuration of the same
// shape (block_size_y, a const of matmul.cu) is the same kernel.
func TestImportedKernelsKeepNoText(t *testing.T) {
	ik, err := newImportedKernels("../../counts/cimport/testdata/kerneltuner/matmul.cu",
		"-D WIDTH=512 --local block_size_x,block_size_y --groups WIDTH/(block_size_x*tile_size_x),WIDTH/(block_size_y*tile_size_y) --array A=WIDTH*WIDTH --array B=WIDTH*WIDTH --array C=WIDTH*WIDTH")
	if err != nil {
		t.Fatal(err)
	}
	macros := map[string]int64{"block_size_x": 32, "block_size_y": 8, "tile_size_x": 2, "tile_size_y": 4}
	name, bound, err := ik.kernel(macros)
	if err != nil {
		t.Fatal(err)
	}
	if len(bound) != 4 || bound["block_size_y"] != 8 {
		t.Errorf("consts bound %v, want the four tunables", bound)
	}
	_, kept, err := ik.source(name)
	if err != nil {
		t.Fatal(err)
	}
	ik.done(name)
	if len(ik.pending) != 0 {
		t.Errorf("%d texts kept after done", len(ik.pending))
	}
	_, again, err := ik.source(name)
	if err != nil || string(again) != string(kept) {
		t.Errorf("read again: %v; the same text: %v", err, string(again) == string(kept))
	}
	macros["block_size_y"] = 16
	if other, bound, err := ik.kernel(macros); err != nil || other != name || bound["block_size_y"] != 16 {
		t.Errorf("block_size_y = 16: kernel %q (%v), consts %v; want %q with block_size_y = 16", other, err, bound, name)
	}
}
