package codegen_test

import (
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/gpu"
)

// Generation runs once per kernel and work-group size before measuring;
// it should take well under a second.
func BenchmarkGenerate(b *testing.B) {
	for _, name := range []string{"matmul_tiled", "finite_diff"} {
		b.Run(name, func(b *testing.B) {
			k := parse(b, name, nil)
			for b.Loop() {
				if _, err := codegen.Generate(k, gpu.OpenCL); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A split whose first value can be any of 256 is decided by one query,
// not a chain of candidates (15 s of CPU for this kernel when it tried
// 64 of them, on a loaded machine).
func BenchmarkGenerateWideFirst(b *testing.B) {
	k, err := counts.ParseKernel("wide.knl", []byte(wideFirst), nil)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := codegen.Generate(k, gpu.OpenCL); err != nil {
			b.Fatal(err)
		}
	}
}
