package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

func TestKernelsList(t *testing.T) {
	var out bytes.Buffer
	kernelsListCmd.SetOut(&out)
	t.Cleanup(func() { kernelsListCmd.SetOut(nil); kernelsListJSON = false })
	if code := run([]string{"kernels", "list"}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) < 26 || !strings.HasPrefix(lines[0], "KERNEL") {
		t.Fatalf("listing:\n%s", out.String())
	}
	found := false
	for _, l := range lines {
		f := strings.Fields(l)
		if f[0] == "matmul_tiled" {
			found = true
			if f[1] != "matmul_tiled" || f[2] != "measurement" || f[3] != "n,m,ell" || f[4] != "LX=16,LY=16" {
				t.Errorf("matmul_tiled line %q", l)
			}
		}
	}
	if !found {
		t.Error("matmul_tiled not listed")
	}

	out.Reset()
	if code := run([]string{"kernels", "list", "--json"}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	var infos []kernelInfo
	if err := json.Unmarshal(out.Bytes(), &infos); err != nil {
		t.Fatal(err)
	}
	tests := 0
	for _, k := range infos {
		if k.Role == "test" {
			tests++
		}
	}
	if tests != 4 {
		t.Errorf("%d test kernels, seed 001 §5 has 4", tests)
	}
}

// runShow runs uniperf kernels show with args and returns the exit status
// and the standard output.
func runShow(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out bytes.Buffer
	kernelsShowCmd.SetOut(&out)
	reset := func() { kernelsShowCmd.SetOut(nil); kernelsShowLang = "opencl"; kernelsShowConsts = nil }
	t.Cleanup(reset)
	reset()
	kernelsShowCmd.SetOut(&out)
	code := run(append([]string{"kernels", "show"}, args...))
	return code, out.String()
}

func TestKernelsShow(t *testing.T) {
	// matmul_tiled.knl declares "local tb f32 [LY, LX]" and the prefetch
	// "ta[i_in, pa] = a[i, LY*k_out + pa]".
	code, out := runShow(t, "matmul_tiled", "--const", "LX=8", "--const", "LY=12")
	for _, want := range []string{"__kernel void matmul_tiled(__global float *a, __global float *b, __global float *c, int n, int m, int ell)",
		"__local float tb[12][8];", "barrier(CLK_LOCAL_MEM_FENCE);", "get_local_id(1)", "ta[i_in][pa] = a["} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("exit %d; the source lacks %q:\n%s", code, want, out)
		}
	}

	code, out = runShow(t, "matmul_tiled", "--lang", "cuda")
	for _, want := range []string{`extern "C" __global__ void matmul_tiled(float *a, float *b, float *c, int n, int m, int ell)`,
		"__shared__ float tb[16][16];", "__syncthreads();", "threadIdx.y", "blockIdx.x"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("exit %d; the CUDA source lacks %q:\n%s", code, want, out)
		}
	}
	if strings.Contains(out, "__kernel") || strings.Contains(out, "get_local_id") {
		t.Errorf("the CUDA source has OpenCL forms:\n%s", out)
	}

	// OpenCL is the default language.
	_, def := runShow(t, "global_copy")
	_, explicit := runShow(t, "global_copy", "--lang", "opencl")
	if def != explicit || !strings.Contains(def, "__kernel void global_copy(") {
		t.Errorf("default:\n%s\n--lang opencl:\n%s", def, explicit)
	}
}

// --lang knl prints the kernel itself, its consts at the values it is
// generated with: matmul_tiled's LX = 16 and LY = 16 by default, LX
// overridden here.
func TestKernelsShowKnl(t *testing.T) {
	code, out := runShow(t, "matmul_tiled", "--lang", "knl", "--const", "LX=8")
	for _, want := range []string{"kernel matmul_tiled\n", "const LX = 8\n", "const LY = 16\n", "local tb f32 [LY, LX]"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("exit %d; the kernel lacks %q:\n%s", code, want, out)
		}
	}
}

func TestKernelsShowErrors(t *testing.T) {
	for _, args := range [][]string{
		{"no_such_kernel"},
		{"global_copy", "--lang", "metal"},
		{"global_copy", "--const", "LY=4"}, // 1-D: no LY
		{"global_copy", "--const", "LX"},
		{"global_copy", "--const", "LX=1.5"},
		{"global_copy", "--const", "LX=16", "--const", "LX=32"},
		{},
	} {
		if code, out := runShow(t, args...); code != 2 || out != "" {
			t.Errorf("%v: exit %d, output %q; want exit 2 and no output", args, code, out)
		}
	}
}

// --lang knl writes an overridden constant's value and keeps a derived
// constant's expression, which follows it.
func TestWithConstsKeepsDerived(t *testing.T) {
	src := "kernel k\nconst BS = 16\nconst PH = 2\nconst S = BS - 2*PH\ndomain [n] -> { [i] : 0 <= i < n }\n"
	k, err := counts.ParseKernel("k.knl", []byte(src), map[string]int64{"PH": 1})
	if err != nil {
		t.Fatal(err)
	}
	out := withConsts(src, literalConsts(k))
	for _, want := range []string{"const BS = 16\n", "const PH = 1\n", "const S = BS - 2*PH\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("the kernel lacks %q:\n%s", want, out)
		}
	}
}
