package codegen_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/devices"
	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/launch"
	"github.com/uniperf/uniperf/measurekernels/launch/pocltest"
	"github.com/uniperf/uniperf/measurekernels/library"
)

// sizePreamble and sizeFactor bound the generated source of a kernel by
// its .knl text (see TestGeneratedSizeBound).
const (
	sizePreamble = 1024
	sizeFactor   = 3
)

// knlText is a kernel's text without comments and with runs of blanks
// made one: what the user wrote.
func knlText(src []byte) string {
	var b strings.Builder
	for _, line := range strings.Split(string(src), "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		if f := strings.Fields(line); len(f) > 0 {
			b.WriteString(strings.Join(f, " ") + "\n")
		}
	}
	return b.String()
}

// Generated code is about as long as the kernel a person would write from
// the .knl: every library and example kernel, in OpenCL C and CUDA C,
// takes at most a fixed preamble of 1 KiB (the header comment, the
// function head and at most the seven integer helpers, 900 bytes all
// together) plus three bytes per byte of the .knl's text. Each .knl
// statement becomes one C statement, the loops and the guard around it,
// whose bounds are the domain's constraints: a few times the statement's
// length, since a split iname reads 16*i_out + i_in where the .knl says i,
// but no more. Before the first values of split inames were simplified,
// jacobi-2d's CUDA C took 2937 bytes for its 332 (bound 2020): a 32-deep
// conditional per work-item index.
func TestGeneratedSizeBound(t *testing.T) {
	type kernel struct {
		name string
		src  []byte
	}
	var kernels []kernel
	for _, name := range library.Names() {
		src, err := library.Source(name)
		if err != nil {
			t.Fatal(err)
		}
		kernels = append(kernels, kernel{library.FileName(name), src})
	}
	paths, err := filepath.Glob(filepath.Join("..", "..", "examples", "*.knl"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no example kernels: %v", err)
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		kernels = append(kernels, kernel{filepath.Base(p), src})
	}
	for _, kn := range kernels {
		k, err := counts.ParseKernel(kn.name, kn.src, nil)
		if err != nil {
			t.Fatal(err)
		}
		bound := sizePreamble + sizeFactor*len(knlText(kn.src))
		for _, b := range []gpu.Backend{gpu.OpenCL, gpu.CUDA} {
			code, err := codegen.Generate(k, b)
			if err != nil {
				t.Fatalf("%s: %v", kn.name, err)
			}
			if n := len(code.Source); n > bound {
				t.Errorf("%s in %s: %d bytes of source, more than the %d its .knl allows:\n%s", kn.name, b, n, bound, code.Source)
			}
		}
	}
}

// A split's inner iname starts at 0 on local id 0 at every size, as the
// C original's blocks do: jacobi-2d's interior 1 <= j <= n - 2 leaves
// work-item j_in = 0 of the first group idle (likewise i with 8), guarded
// out by the domain. The kernel computes what the reference interpreter
// computes on both sides of the sizes where the interior first holds a
// multiple of the block (n = 10 for i, 34 for j), below one block and
// above.
func TestJacobiFirstValues(t *testing.T) {
	path := filepath.Join("..", "..", "examples", "jacobi2d.knl")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	k, err := counts.ParseKernel(path, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	code, err := codegen.Generate(k, gpu.OpenCL)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"int i_in = (int)get_local_id(1);",
		"int j_in = (int)get_local_id(0);",
		"b[(8*i_out + i_in)*n + 32*j_out + j_in] = ",
		"a[(8*i_out + i_in + 1)*n + 32*j_out + j_in]",
	} {
		if !strings.Contains(code.Source, want) {
			t.Errorf("no %q in\n%s", want, code.Source)
		}
	}
	if m := regexp.MustCompile(`\?[^?]*\?[^?]*\?`).FindString(code.Source); m != "" {
		t.Errorf("a chain of three conditionals, %q, in\n%s", m, code.Source)
	}
	dev := pocltest.Open(t)
	lk := pocltest.Build(t, dev, k, code)
	for _, n := range []int64{3, 4, 9, 10, 11, 33, 34, 35, 45} {
		if err := lk.Check(map[string]int64{"n": n}); err != nil {
			t.Errorf("n = %d: %v", n, err)
		}
	}
}

// jacobi-1d's interior 1 <= i <= n - 2, split by 256, runs i_in from 0
// on local id 0 at every n, as its original does (work-item 0 of the first
// group idle), with no loop or test for a first value: the domain guards
// the idle work-items, and the kernel computes what the reference
// interpreter computes below one group (n = 3, 4), on both sides of
// n = 258 where the interior first holds a multiple of 256, and above.
func TestJacobi1DFirstValue(t *testing.T) {
	for name, x := range map[string]string{"jacobi1d1": "i_in", "jacobi1d2": "j_in"} {
		path := filepath.Join("..", "..", "examples", name+".knl")
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		k, err := counts.ParseKernel(path, src, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range []gpu.Backend{gpu.OpenCL, gpu.CUDA} {
			code, err := codegen.Generate(k, b)
			if err != nil {
				t.Fatal(err)
			}
			id := map[gpu.Backend]string{gpu.OpenCL: "(int)get_local_id(0)", gpu.CUDA: "(int)threadIdx.x"}[b]
			if want := "int " + x + " = " + id + ";"; !strings.Contains(code.Source, want) {
				t.Errorf("%s in %s: no %q in\n%s", name, b, want, code.Source)
			}
			if strings.Contains(code.Source, "while") {
				t.Errorf("%s in %s: a loop in\n%s", name, b, code.Source)
			}
		}
		code, err := codegen.Generate(k, gpu.OpenCL)
		if err != nil {
			t.Fatal(err)
		}
		dev, err := devices.Open("opencl")
		if err != nil {
			t.Fatalf("an OpenCL device is needed (PoCL in CI): %v", err)
		}
		lk, err := launch.Build(dev, k, code)
		if err != nil {
			dev.Close()
			t.Fatalf("%v\n%s", err, code.Source)
		}
		for _, n := range []int64{3, 4, 100, 257, 258, 259, 300, 514, 515, 1000} {
			if err := lk.Check(map[string]int64{"n": n}); err != nil {
				t.Errorf("%s at n = %d: %v", name, n, err)
			}
		}
		lk.Close()
		dev.Close()
	}
}

// wideFirst is a split of a range that starts at a parameter: its first
// group is floor(s/256), and its inner iname runs from 0 on local id 0
// whatever s is, the work-items below s idle.
const wideFirst = `kernel wide
domain [n, s] -> { [i] : s <= i < n }
assume s >= 0
array a f32 [n]
split i 256 i_out i_in
tag i_in l.0, i_out g.0
a[i] = 2.0f*a[i]
`

// TestWideSplitStartsAtZero checks the other side of
// TestJacobi1DFirstValue: where the domain's first value can be any of the
// block's 256 (s <= i), the inner iname still starts at 0, the groups at
// floor(s/256), and the kernel computes what the interpreter computes for
// s at, below and above multiples of 256.
func TestWideSplitStartsAtZero(t *testing.T) {
	k, err := counts.ParseKernel("wide.knl", []byte(wideFirst), nil)
	if err != nil {
		t.Fatal(err)
	}
	code, err := codegen.Generate(k, gpu.OpenCL)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"int i_out = floordiv(s, 256) + (int)get_group_id(0);", "int i_in = (int)get_local_id(0);"} {
		if !strings.Contains(code.Source, want) {
			t.Errorf("no %q in\n%s", want, code.Source)
		}
	}
	if strings.Contains(code.Source, "while") {
		t.Errorf("a loop in\n%s", code.Source)
	}
	dev := pocltest.Open(t)
	lk := pocltest.Build(t, dev, k, code)
	for _, s := range []int64{0, 1, 255, 256, 300} {
		if err := lk.Check(map[string]int64{"n": 700, "s": s}); err != nil {
			t.Errorf("s = %d: %v", s, err)
		}
	}
}

// The generated code's temporaries take names the kernel does not use: a
// global array named red0 stays the array where the reduction's
// accumulator would have taken its name.
func TestTemporariesAvoidKernelNames(t *testing.T) {
	src := `kernel names
domain [n] -> { [i, k] : 0 <= i < n and 0 <= k < 4 }
array a f32 [n, 4]
array red0 f32 [n]
split i 16 i_out i_in
tag i_out g.0, i_in l.0
red0[i] = sum(k, a[i, k])
`
	k, err := counts.ParseKernel("names.knl", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	code, err := codegen.Generate(k, gpu.OpenCL)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(code.Source, "float red1 = ") {
		t.Errorf("the accumulator is not red1:\n%s", code.Source)
	}
	dev := pocltest.Open(t)
	lk := pocltest.Build(t, dev, k, code)
	if err := lk.Check(map[string]int64{"n": 37}); err != nil {
		t.Errorf("%v\n%s", err, code.Source)
	}
}

// A loop that the domain bounds by a work-item's own index runs from
// there, as the user's kernel does (covariance's "for j2 = j1 + 1"), not
// from the least value of any work-item with a mask inside; the kernel
// computes what the reference interpreter computes, at sizes the
// work-groups do not divide, below one group and at one column.
func TestTriangularLoopPerLane(t *testing.T) {
	src := `kernel covar
const LX = 16
domain [m, n] -> { [j1, j2, i] : 0 <= j1 < m and j1 + 1 <= j2 < m and 0 <= i < n }
array data f32 [n, m]
array symmat f32 [m, m]
split j1 LX j1_out j1_in
tag j1_out g.0, j1_in l.0
symmat[j1, j2] = sum(i, data[i, j1]*data[i, j2])
symmat[j2, j1] = symmat[j1, j2]
`
	k, err := counts.ParseKernel("covar.knl", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []gpu.Backend{gpu.OpenCL, gpu.CUDA} {
		code, err := codegen.Generate(k, b)
		if err != nil {
			t.Fatal(err)
		}
		if want := "for (int j2 = 16*j1_out + j1_in + 1; j2 < m; ++j2) {"; !strings.Contains(code.Source, want) {
			t.Errorf("%s: no %q in\n%s", b, want, code.Source)
		}
		if strings.Contains(code.Source, "if (j2 ") {
			t.Errorf("%s: the loop over j2 is masked:\n%s", b, code.Source)
		}
	}
	code, err := codegen.Generate(k, gpu.OpenCL)
	if err != nil {
		t.Fatal(err)
	}
	dev := pocltest.Open(t)
	lk := pocltest.Build(t, dev, k, code)
	for _, p := range []map[string]int64{{"m": 37, "n": 5}, {"m": 5, "n": 3}, {"m": 2, "n": 1}, {"m": 16, "n": 2}} {
		if err := lk.Check(p); err != nil {
			t.Errorf("%v: %v\n%s", p, err, code.Source)
		}
	}
}
