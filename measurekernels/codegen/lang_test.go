package codegen_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/launch/pocltest"
	"github.com/uniperf/uniperf/measurekernels/library"
)

// langDir holds the kernels that exercise the language's conditions,
// bitwise operators and loopy spellings (package counts tests them too).
const langDir = "../../counts/testdata/lang"

// langCases are the const settings and parameters at which each of them
// runs: sizes the splits do not divide, sizes below one work-group, and
// the smallest sizes allowed.
var langCases = map[string]libraryCase{
	"edgehalo":           {[]consts{nil}, []params{{"n": 37}, {"n": 32}, {"n": 1}}},
	"block256":           {[]consts{nil}, []params{{"n": 100}, {"n": 300}, {"n": 256}, {"n": 1}}},
	"box16":              {[]consts{nil}, []params{{"w": 10, "h": 20}, {"w": 33, "h": 5}}},
	"tiedlane":           {[]consts{nil}, []params{{"n": 10}, {"n": 100}}},
	"loopy_logic":        {[]consts{nil}, []params{{"n": 3, "m": 13, "ell": 3}, {"n": 2, "m": 21, "ell": 10}, {"n": 1, "m": 1, "ell": 1}}},
	"loopy_bitwise":      {[]consts{nil}, []params{{"n": 3, "m": 5, "ell": 4}, {"n": 1, "m": 1, "ell": 1}}},
	"loopy_specialops":   {[]consts{nil}, []params{{"n": 3, "m": 5, "ell": 4}, {"n": 1, "m": 1, "ell": 1}}},
	"predicated":         {[]consts{{"LX": 16}, {"LX": 5}}, []params{{"n": 37}, {"n": 16}, {"n": 4}, {"n": 2}, {"n": 1}}},
	"ifonce":             {[]consts{{"LX": 16}, {"LX": 5}}, []params{{"n": 37, "m": 5}, {"n": 2, "m": 1}, {"n": 1, "m": 1}}},
	"datadep":            {[]consts{{"LX": 16}, {"LX": 5}}, []params{{"n": 37}, {"n": 1}}},
	"guarded":            {[]consts{{"LX": 16}, {"LX": 5}}, []params{{"n": 37}, {"n": 3}, {"n": 1}}},
	"lazy":               {[]consts{{"LX": 8}, {"LX": 3}}, []params{{"n": 11, "m": 5}, {"n": 1, "m": 1}}},
	"manyrefs":           {[]consts{{"LX": 4}, {"LX": 3}}, []params{{"n": 37}, {"n": 6}, {"n": 1}}},
	"shifts":             {[]consts{{"LX": 16}, {"LX": 5}}, []params{{"n": 37}, {"n": 1}}},
	"matmul_blocks":      {[]consts{{"T": 8}, {"T": 3}}, []params{{"n": 17, "m": 13, "ell": 9}, {"n": 1, "m": 1, "ell": 1}}},
	"flat":               {[]consts{nil}, []params{{"nx": 9, "ny": 5, "nz": 3}, {"nx": 1, "ny": 1, "nz": 1}}},
	"affinetemp":         {[]consts{nil, {"LX": 3}}, []params{{"n": 6, "m": 3}, {"n": 1, "m": 1}}},
	"affinetemp_written": {[]consts{nil, {"LX": 3}}, []params{{"n": 6, "m": 3}, {"n": 1, "m": 1}}},
	"compound":           {[]consts{nil}, []params{{"n": 4, "m": 10}, {"n": 1, "m": 1}}},
	"globaltemp":         {[]consts{nil}, []params{{"n": 3, "m": 5, "ell": 7}, {"n": 1, "m": 1, "ell": 1}}},
	"domainguard":        {[]consts{{"T": 8}, {"T": 3}}, []params{{"n": 37}, {"n": 9}, {"n": 3}}},
	"modsub":             {[]consts{nil, {"T": 5}}, []params{{"n": 5}, {"n": 1}}},
	"scalars":            {[]consts{{"LX": 16}, {"LX": 5}}, []params{{"n": 37}, {"n": 1}}},
	"minmax":             {[]consts{{"LX": 16}, {"LX": 5}}, []params{{"n": 37}, {"n": 1}}},
	"casts":              {[]consts{{"LX": 16}, {"LX": 5}}, []params{{"n": 37}, {"n": 1}}},
	"fold":               {[]consts{{"LX": 16}, {"LX": 5}}, []params{{"n": 37}, {"n": 1}}},
	"narrow":             {[]consts{{"LX": 16}, {"LX": 5}}, []params{{"n": 37}, {"n": 1}}},
	"unsigned":           {[]consts{{"LX": 16}, {"LX": 5}}, []params{{"n": 37}, {"n": 1}}},
	"halfstore":          {[]consts{{"LX": 16}, {"LX": 5}}, []params{{"n": 37}, {"n": 1}}},
	"readonly":           {[]consts{{"LX": 16}, {"LX": 5}}, []params{{"n": 37}, {"n": 1}}},
	"staticif":           {[]consts{{"BS": 32}, {"BS": 12}, {"BS": 4, "LX": 5}}, []params{{"n": 37}, {"n": 1}}},
}

// langKernels returns the names of the kernels in langDir.
func langKernels(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(langDir, "*.knl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no kernels in %s: %v", langDir, err)
	}
	var names []string
	for _, f := range files {
		names = append(names, strings.TrimSuffix(filepath.Base(f), ".knl"))
	}
	return names
}

func langKernel(t *testing.T, name string, cs consts) *counts.Kernel {
	t.Helper()
	file := filepath.Join(langDir, name+".knl")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	k, err := counts.ParseKernel(file, src, cs)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// Every kernel of the language test set, generated as OpenCL C and run on
// PoCL, computes what the reference interpreter computes.
func TestLangOnPoCL(t *testing.T) {
	dev := pocltest.Open(t)
	for _, name := range langKernels(t) {
		c, ok := langCases[name]
		if !ok {
			t.Errorf("kernel %s has no test case", name)
			continue
		}
		for _, cs := range c.consts {
			t.Run(name+"/"+constString(cs), func(t *testing.T) {
				checkCase(t, dev, langKernel(t, name, cs), c.params)
			})
		}
	}
}

// The CUDA C of every kernel of the language test set compiles to PTX.
func TestLangCUDACompiles(t *testing.T) {
	clang, prelude := cudaTools(t)
	dir := t.TempDir()
	for _, name := range langKernels(t) {
		for _, cs := range langCases[name].consts {
			if _, err := compileCUDA(clang, prelude, dir, langKernel(t, name, cs)); err != nil {
				t.Errorf("%s %v: %v", name, cs, err)
			}
		}
	}
}

// No generated kernel searches for the first value of an iname with a
// loop in every work-item: its loops are the schedule's loops over
// inames (for loops) and nothing else.
func TestNoSearchLoops(t *testing.T) {
	var kernels []*counts.Kernel
	for _, name := range langKernels(t) {
		for _, cs := range langCases[name].consts {
			kernels = append(kernels, langKernel(t, name, cs))
		}
	}
	for _, name := range library.Names() {
		kernels = append(kernels, parse(t, name, nil))
	}
	for _, k := range kernels {
		code, err := codegen.Generate(k, gpu.OpenCL)
		if err != nil {
			t.Fatalf("%s: %v", k.Name, err)
		}
		// The helpers before the kernel may loop: an f32 atomic_add
		// retries its compare-exchange until no other work-item
		// intervened.
		_, body, _ := strings.Cut(code.Source, "__kernel void ")
		for _, line := range strings.Split(body, "\n") {
			line = strings.TrimSpace(line)
			if strings.Contains(line, "while") || strings.Contains(line, "goto") {
				t.Errorf("%s: a loop that is not a domain loop: %s", k.Name, line)
			}
			if rest, ok := strings.CutPrefix(line, "for (int "); ok {
				if v, _, _ := strings.Cut(rest, " "); k.Iname(v) == nil {
					t.Errorf("%s: a loop over %s, which is no iname: %s", k.Name, v, line)
				}
			}
		}
	}
}

// An if() or "and" whose lazy operand holds a reduction becomes an if
// statement around the reduction's loop.
func TestLangLazyForms(t *testing.T) {
	code, err := codegen.Generate(langKernel(t, "lazy", nil), gpu.OpenCL)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\t\tif (((8*i_out + i_in) & (1)) == (0)) {", "\t\t} else {\n", "\t\tint cnd", "\t\tif (cnd"} {
		if !strings.Contains(code.Source, want) {
			t.Errorf("source lacks %q:\n%s", want, code.Source)
		}
	}
}

// A left shift is generated on the unsigned type, since C leaves the left
// shift of a negative value undefined, and cast back.
func TestLangShiftForms(t *testing.T) {
	for _, c := range []struct {
		backend gpu.Backend
		want    []string
	}{
		{gpu.OpenCL, []string{"((int)((unsigned int)(k[", "((long)((unsigned long)(g["}},
		{gpu.CUDA, []string{"((int)((unsigned int)(k[", "((long long)((unsigned long long)(g["}},
	} {
		code, err := codegen.Generate(langKernel(t, "shifts", nil), c.backend)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range c.want {
			if !strings.Contains(code.Source, want) {
				t.Errorf("%s source lacks %q:\n%s", c.backend, want, code.Source)
			}
		}
	}
}
