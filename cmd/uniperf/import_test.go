package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

const gemmCl = "../../counts/cimport/testdata/polybench/gemm.cl"

var gemmFlags = []string{"--local", "32,8", "--global", "nj,ni", "-D", "alpha=32412.0f", "-D", "beta=2123.0f",
	"--array", "a=ni*nk", "--array", "b=nk*nj", "--array", "c=ni*nj"}

// TestImportThenCount imports PolyBench's gemm.cl, writes it with --out
// and counts the file: the three commands of docs/importing.md.
func TestImportThenCount(t *testing.T) {
	out := filepath.Join(t.TempDir(), "gemm.knl")
	code, stdout, msg := runCommand(t, importCmd, append([]string{"import", gemmCl, "--out", out}, gemmFlags...)...)
	if code != 0 || stdout != "" {
		t.Fatalf("import: exit %d, %q, %q", code, stdout, msg)
	}
	src, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := counts.ParseKernel(out, src, nil); err != nil {
		t.Fatal(err)
	}
	code, stdout, msg = runCommand(t, countCmd, "count", out, "--param", "ni=64", "--param", "nj=64", "--param", "nk=64")
	if code != 0 {
		t.Fatalf("count: exit %d, %q", code, msg)
	}
	// c[i*nj + j] *= beta once and += alpha*a*b 64 times per element:
	// 64*64*(1 + 2*64) multiplications, 64*64*64 additions.
	for _, want := range []string{`flop\.f32\.mul\s+528384\s`, `flop\.f32\.add\s+262144\s`} {
		if !regexp.MustCompile(want).MatchString(stdout) {
			t.Errorf("count prints no %q:\n%s", want, stdout)
		}
	}
}

func TestImportJSON(t *testing.T) {
	code, stdout, msg := runCommand(t, importCmd, append([]string{"import", gemmCl, "--json"}, gemmFlags...)...)
	if code != 0 {
		t.Fatalf("exit %d, %q", code, msg)
	}
	var v struct{ File, Kernel, Knl string }
	if err := json.Unmarshal([]byte(stdout), &v); err != nil {
		t.Fatal(err)
	}
	if v.File != gemmCl || v.Kernel != "gemm" || !strings.Contains(v.Knl, "kernel gemm\n") {
		t.Errorf("JSON %+v", v)
	}
}

// TestImportRefusals: a refusal is bad input with file:line:col, and
// --out never overwrites the input.
func TestImportRefusals(t *testing.T) {
	dir := t.TempDir()
	src := "__global__ void k(float *a, int n)\n{\n    int i = threadIdx.x;\n    while (a[i] > 0) a[i] -= 1;\n}\n"
	cu, good := filepath.Join(dir, "k.cu"), filepath.Join(dir, "good.cu")
	if err := os.WriteFile(cu, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	goodSrc := "__global__ void k(float *a, int n)\n{\n    int i = blockIdx.x*blockDim.x + threadIdx.x;\n    if (i < n) a[i] *= 2.0f;\n}\n"
	if err := os.WriteFile(good, []byte(goodSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"import", cu, "--local", "64", "--groups", "n", "--array", "a=64*n"}, regexp.QuoteMeta(cu) + `:4:5: a while loop`},
		{[]string{"import", good, "--array", "a=n"}, regexp.QuoteMeta(good) + `:1:17: kernel k: the work-group size is not in the source`},
		{[]string{"import", good, "--local", "64"}, regexp.QuoteMeta(good) + `:1:26: the extent of array a`},
		{[]string{"import", cu, "--local", "64", "--array", "a=64*n", "--groups", "n", "-D", "=1"}, `-D =1: want NAME=VALUE`},
		{[]string{"import", cu, "--local", "64", "--groups", "n", "--array", "a=64*n", "--out", cu}, `is the input file`},
		{[]string{"import", good, "--local", "64", "--global", "0", "--array", "a=n"}, `--global 0: axis 0 launches no work-item`},
		{[]string{"import", good, "--local", "64", "--groups", "0", "--array", "a=n"}, `--groups 0: axis 0 launches no work-item`},
		{[]string{"import", good, "--local", "64", "--groups", "1 - 1", "--array", "a=n"}, `--groups 1 - 1: axis 0 launches no work-item`},
	} {
		code, msg := runAll(t, c.args...)
		if code != 2 || !regexp.MustCompile(c.want).MatchString(msg) {
			t.Errorf("uniperf %s: exit %d, %q; want 2 and %q", strings.Join(c.args, " "), code, msg, c.want)
		}
	}
	if got, _ := os.ReadFile(cu); string(got) != src {
		t.Errorf("the input was changed: %q", got)
	}
}

// TestImportTrips imports SHOC's CSR SpMV, whose row loop is bounded by
// data, with --trips: the loop runs below maxrl, a new size parameter,
// and its body counts dim*maxrl times at most, marked as an upper bound.
func TestImportTrips(t *testing.T) {
	out := filepath.Join(t.TempDir(), "spmv.knl")
	code, _, msg := runCommand(t, importCmd, "import", filepath.Join("..", "..", "counts", "cimport", "testdata", "shoc", "spmv.cl"),
		"--kernel", "spmv_csr_scalar_kernel", "-D", "SINGLE_PRECISION", "--local", "128", "--global", "dim",
		"--array", "val=nnz", "--array", "vec=dim", "--array", "cols=nnz", "--array", "rowDelimiters=dim+1", "--array", "out=dim",
		"--trips", "j=maxrl", "--out", out)
	if code != 0 {
		t.Fatalf("import: exit %d, %q", code, msg)
	}
	code, stdout, msg := runCommand(t, countCmd, "count", out, "--param", "dim=100", "--param", "nnz=300", "--param", "maxrl=5")
	if code != 0 {
		t.Fatalf("count: exit %d, %q", code, msg)
	}
	// One multiply-add a row and iteration: 100*5, an upper bound.
	if want := `flop\.f32\.mul\s+500\s.*upper bound`; !regexp.MustCompile(want).MatchString(stdout) {
		t.Errorf("count prints no %q:\n%s", want, stdout)
	}
}

// TestImportAssume imports Rodinia's Fan1 with what its host guarantees,
// --assume 't >= 0 && t < Size - 1', and counts the footprints of the
// file symbolically: column t of rows t + 1 .. Size - 1 of m_cuda
// stored, and of a_cuda loaded with the pivot a_cuda[t*Size + t], by
// hand 596 and 597 elements at Size = 600, t = 3.
func TestImportAssume(t *testing.T) {
	out := filepath.Join(t.TempDir(), "fan1.knl")
	code, _, msg := runCommand(t, importCmd, "import", "../../counts/cimport/testdata/rodinia/gaussian.cu", "--kernel", "Fan1",
		"--local", "MAXBLOCKSIZE", "--global", "Size", "--array", "m_cuda=Size*Size", "--array", "a_cuda=Size*Size",
		"--assume", "t >= 0 && t < Size - 1", "--out", out)
	if code != 0 {
		t.Fatalf("import: exit %d, %q", code, msg)
	}
	src, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := "\nassume 0 <= t and t + 1 < Size\n"; !strings.Contains(string(src), want) {
		t.Errorf("no %q in\n%s", want, src)
	}
	code, stdout, msg := runCommand(t, countCmd, "count", out, "--footprint", "--param", "Size=600", "--param", "t=3")
	if code != 0 {
		t.Fatalf("count: exit %d, %q", code, msg)
	}
	for _, want := range []string{`m_cuda\s+store\s+f32\s+596 elements`, `a_cuda\s+load\s+f32\s+597 elements`} {
		if !regexp.MustCompile(want).MatchString(stdout) {
			t.Errorf("count prints no %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout+msg, "no symbolic form") {
		t.Errorf("footprints counted at sizes, not symbolically:\n%s%s", stdout, msg)
	}
}

// TestImportGroupsWarning: a --groups whose truncated division may
// launch fewer work-items than the guard admits imports (exit 0) with a
// warning on stderr naming the file, and in --json's warnings; the
// host's rounded-up expression imports without one.
func TestImportGroupsWarning(t *testing.T) {
	cu := filepath.Join(t.TempDir(), "k.cu")
	src := "__global__ void k(float *a, int n)\n{\n    int i = blockIdx.x*blockDim.x + threadIdx.x;\n    if (i < n) a[i] *= 2.0f;\n}\n"
	if err := os.WriteFile(cu, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "warning: " + cu + ": --groups n/256 (axis 0) may launch fewer work-items than the guard at line 4 admits"
	code, _, msg := runCommand(t, importCmd, "import", cu, "--local", "256", "--groups", "n/256", "--array", "a=n")
	if code != 0 || !strings.Contains(msg, want) {
		t.Errorf("n/256: exit %d, stderr %q, want 0 and %q", code, msg, want)
	}
	code, stdout, _ := runCommand(t, importCmd, "import", cu, "--local", "256", "--groups", "n/256", "--array", "a=n", "--json")
	var v struct{ Warnings []string }
	if err := json.Unmarshal([]byte(stdout), &v); code != 0 || err != nil || len(v.Warnings) != 1 {
		t.Errorf("n/256 --json: exit %d, %v, warnings %q", code, err, v.Warnings)
	}
	code, _, msg = runCommand(t, importCmd, "import", cu, "--local", "256", "--groups", "(n+255)/256", "--array", "a=n")
	if code != 0 || msg != "" {
		t.Errorf("(n+255)/256: exit %d, stderr %q, want 0 and nothing", code, msg)
	}
}
