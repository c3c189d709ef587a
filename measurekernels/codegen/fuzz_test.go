package codegen_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/library"
)

// Generate returns code or an error for every kernel that parses, never
// panics, for both backends. The seeds are the library and the language
// test set.
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
			if err == nil && code.Source == "" {
				t.Errorf("%s: empty source without an error", b)
			}
		}
	})
}
