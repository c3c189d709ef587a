package codegen_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/library"
)

// Generate returns code or an error for every kernel that parses, never
// panics, for both backends, and its code agrees with the kernel (see
// checkCode). The seeds are the library and the language test set.
func FuzzGenerate(f *testing.F) {
	for _, name := range library.Names() {
		src, err := library.Source(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	lang, err := filepath.Glob(filepath.Join(langDir, "*.knl"))
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range lang {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		k, err := counts.ParseKernel("fuzz.knl", src, nil)
		if err != nil {
			return
		}
		for _, b := range []gpu.Backend{gpu.OpenCL, gpu.CUDA} {
			code, err := codegen.Generate(k, b)
			if err != nil {
				continue
			}
			if msg := checkCode(k, b, code); msg != "" {
				t.Errorf("%s: %s\n%s", b, msg, code.Source)
			}
		}
	})
}

// checkCode compares generated code with the kernel it came from: the
// entry is the kernel's name, declared with the backend's qualifiers and
// the parameters Args lists; Args are global arrays of the kernel in
// declaration order, then its scalar arguments, then its size
// parameters; every instruction has its code (marked by its id);
// brackets balance.
func checkCode(k *counts.Kernel, b gpu.Backend, code *codegen.Code) string {
	if code.Entry != k.Name {
		return fmt.Sprintf("entry %q for kernel %q", code.Entry, k.Name)
	}
	var arrays, scalars, params []string
	for _, a := range code.Args {
		switch {
		case a.Array == nil:
			params = append(params, a.Name)
		case a.Array.Space == counts.Argument:
			scalars = append(scalars, a.Name)
		case len(scalars) == 0 && len(params) == 0:
			arrays = append(arrays, a.Name)
		default:
			return fmt.Sprintf("args %v: global array %s after a scalar or parameter", code.Args, a.Name)
		}
	}
	var global, wantScalars []string
	for _, a := range k.Arrays {
		switch a.Space {
		case counts.Global:
			global = append(global, a.Name)
		case counts.Argument:
			wantScalars = append(wantScalars, a.Name)
		}
	}
	if !isSubsequence(arrays, global) || !slices.Equal(scalars, wantScalars) || len(arrays)+len(scalars)+len(params) != len(code.Args) || !slices.Equal(params, k.Params) {
		return fmt.Sprintf("args %v: want global arrays of %v in order, then the scalar arguments %v, then the parameters %v", code.Args, global, wantScalars, k.Params)
	}
	head := "__kernel void " + k.Name + "("
	if b == gpu.CUDA {
		head = `extern "C" __global__ void ` + k.Name + "("
	}
	i := strings.Index(code.Source, head)
	if i < 0 {
		return "no " + head
	}
	sig := code.Source[i+len(head):]
	sig = sig[:max(strings.Index(sig, ")"), 0)]
	at := 0
	for _, a := range code.Args {
		j := strings.Index(sig[at:], a.Name)
		if j < 0 {
			return fmt.Sprintf("parameter %s missing from the signature (%s)", a.Name, sig)
		}
		at += j + len(a.Name)
	}
	for _, st := range k.Statements {
		if ins, ok := st.(*counts.Instruction); ok && !strings.Contains(code.Source, "/* "+ins.ID+" */") {
			return "no code for instruction " + ins.ID
		}
	}
	for _, pair := range []string{"()", "{}", "[]"} {
		if strings.Count(code.Source, pair[:1]) != strings.Count(code.Source, pair[1:]) {
			return "unbalanced " + pair
		}
	}
	return ""
}

func isSubsequence(sub, of []string) bool {
	i := 0
	for _, x := range of {
		if i < len(sub) && sub[i] == x {
			i++
		}
	}
	return i == len(sub)
}
