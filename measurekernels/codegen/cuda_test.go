package codegen_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/library"
)

// findClang returns a clang with CUDA support: the default one, or the
// newest versioned one on the PATH.
func findClang() (string, error) {
	if p, err := exec.LookPath("clang"); err == nil {
		return p, nil
	}
	for v := 30; v >= 14; v-- {
		if p, err := exec.LookPath("clang-" + strconv.Itoa(v)); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no clang or clang-14 ... clang-30 on the PATH")
}

// TestLibraryCUDACompiles compiles the CUDA C of every library kernel, at
// each of its test const settings, to PTX with clang's CUDA front end and
// NVRTC's implicit declarations (testdata/nvrtc_prelude.h), warnings as
// errors. There is no GPU or CUDA toolkit here; this is the check that
// the CUDA sources are well-formed, well-typed CUDA C++ that a GPU
// compiler lowers to PTX. make test installs clang. Under -short each
// kernel compiles at one of its settings, the n-th kernel at its n-th
// modulo their number, so that the library's settings of each rank are
// compiled (69 compiles of 155); make test-long compiles them all.
func TestLibraryCUDACompiles(t *testing.T) {
	clang, prelude := cudaTools(t)
	dir := t.TempDir()
	for n, name := range library.Names() {
		c, ok := caseOf(name)
		if !ok {
			t.Errorf("library kernel %s has no test case", name)
			continue
		}
		for i, cs := range c.consts {
			if testing.Short() && i != n%len(c.consts) {
				continue
			}
			k := parse(t, name, cs)
			out, err := compileCUDA(clang, prelude, dir, k)
			if err != nil {
				t.Errorf("%s %v: %v", name, cs, err)
				continue
			}
			if hasLocal(k) && !bytes.Contains(out, []byte("bar.sync")) {
				t.Errorf("%s %v: the PTX has no barrier", name, cs)
			}
		}
	}
}

// cudaTools returns clang and the absolute path of the NVRTC prelude.
func cudaTools(t *testing.T) (clang, prelude string) {
	t.Helper()
	clang, err := findClang()
	if err != nil {
		t.Fatalf("this test needs clang with CUDA support (make test installs Debian's clang): %v", err)
	}
	if prelude, err = filepath.Abs(filepath.Join("testdata", "nvrtc_prelude.h")); err != nil {
		t.Fatal(err)
	}
	return clang, prelude
}

// compileCUDA generates k's CUDA C, compiles it to PTX in dir with clang
// and the NVRTC prelude (and testdata/cudainclude's cuda_fp16.h, the
// declarations of the toolkit's that a kernel of halves uses), and
// returns the PTX, which must hold the kernel's entry.
func compileCUDA(clang, prelude, dir string, k *counts.Kernel) ([]byte, error) {
	code, err := codegen.Generate(k, gpu.CUDA)
	if err != nil {
		return nil, err
	}
	src := filepath.Join(dir, k.Name+".cu")
	if err := os.WriteFile(src, []byte(code.Source), 0o644); err != nil {
		return nil, err
	}
	ptx := filepath.Join(dir, k.Name+".ptx")
	cmd := exec.Command(clang, "-x", "cuda", "--cuda-gpu-arch=sm_80", "--cuda-device-only", "-nocudainc", "-nocudalib",
		"-include", prelude, "-I", filepath.Join(filepath.Dir(prelude), "cudainclude"), "-Wall", "-Wno-unused-variable", "-Werror", "-S", "-o", ptx, src)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("clang: %v\n%s\n%s", err, stderr.String(), code.Source)
	}
	out, err := os.ReadFile(ptx)
	if err != nil {
		return nil, err
	}
	if !bytes.Contains(out, []byte(".entry "+k.Name+"(")) {
		return nil, fmt.Errorf("the PTX has no entry %s", k.Name)
	}
	return out, nil
}
