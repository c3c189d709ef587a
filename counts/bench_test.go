package counts

import (
	"testing"

	"github.com/uniperf/uniperf/measurekernels/library"
)

func benchKernel(b testing.TB, name string) *Kernel {
	src, err := library.Source(name)
	if err != nil {
		b.Fatal(err)
	}
	k, err := ParseKernel(library.FileName(name), src, nil)
	if err != nil {
		b.Fatal(err)
	}
	return k
}

// BenchmarkParseMatmulTiled parses, types and schedules the tiled matmul.
func BenchmarkParseMatmulTiled(b *testing.B) {
	src, _ := library.Source("matmul_tiled")
	for b.Loop() {
		if _, err := ParseKernel("matmul_tiled.knl", src, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlanMatmulTiled builds the counting plan of the tiled matmul
// (the sets to count, before any counting).
func BenchmarkPlanMatmulTiled(b *testing.B) {
	k := benchKernel(b, "matmul_tiled")
	for b.Loop() {
		if _, err := newPlan(k, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunMatmulTiled interprets the tiled matmul at n = m = ell = 64
// (262144 multiply-adds); ns/op divided by that is the interpreter's cost
// per inner-loop iteration.
func BenchmarkRunMatmulTiled(b *testing.B) {
	k := benchKernel(b, "matmul_tiled")
	p := map[string]int64{"n": 64, "m": 64, "ell": 64}
	arrays := map[string]any{"a": make([]float32, 64*64), "b": make([]float32, 64*64), "c": make([]float32, 64*64)}
	for b.Loop() {
		if _, err := Run(k, p, arrays, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLaunchVector computes the launch grid of the vector kernel at
// a measurement size (n = 2^24, 65536 groups).
func BenchmarkLaunchVector(b *testing.B) {
	k := benchKernel(b, "vector_scale_add")
	p := map[string]int64{"n": 1 << 24}
	for b.Loop() {
		if _, _, err := k.Launch(p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCountMatmulTiled counts every property of the tiled matmul
// symbolically.
func BenchmarkCountMatmulTiled(b *testing.B) {
	k := benchKernel(b, "matmul_tiled")
	for b.Loop() {
		if _, err := Count(k); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEvaluatorMatmulTiled evaluates every property of the tiled
// matmul at one parameter point per call, as predictions do.
func BenchmarkEvaluatorMatmulTiled(b *testing.B) {
	c, err := Count(benchKernel(b, "matmul_tiled"))
	if err != nil {
		b.Fatal(err)
	}
	ev, err := c.Compile(c.names)
	if err != nil {
		b.Fatal(err)
	}
	out := make([]float64, len(c.names))
	params := []int64{1000, 1000, 1000}
	for i := 0; b.Loop(); i++ {
		params[0] = 1000 + int64(i%64)
		if err := ev.Eval(params, out); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCountLibrary counts every library kernel, one sub-benchmark
// per kernel.
func BenchmarkCountLibrary(b *testing.B) {
	for _, name := range library.Names() {
		k := benchKernel(b, name)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Count(k); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPropertiesMatmulTiled counts the tiled matmul and forms every
// property's expression (Properties), which evaluation does not need.
func BenchmarkPropertiesMatmulTiled(b *testing.B) {
	k := benchKernel(b, "matmul_tiled")
	for b.Loop() {
		c, err := Count(k)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := c.Properties(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFootprintsLibrary counts every library kernel and its
// footprints (subtract BenchmarkCountLibrary for the footprints alone).
func BenchmarkFootprintsLibrary(b *testing.B) {
	for _, name := range library.Names() {
		k := benchKernel(b, name)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				c, err := Count(k)
				if err == nil {
					_, err = c.Footprints()
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBreakdownAtMatmulTiled splits the counted properties of the
// tiled matmul, with subscript arithmetic, by instruction at one size.
func BenchmarkBreakdownAtMatmulTiled(b *testing.B) {
	c, err := CountWith(benchKernel(b, "matmul_tiled"), Options{CountSubscripts: true})
	if err != nil {
		b.Fatal(err)
	}
	params := map[string]int64{"n": 1000, "m": 1000, "ell": 1000}
	for b.Loop() {
		if _, _, err := c.BreakdownAt(ByInstruction, params); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckBoundsMatmulTiled checks every reference of the tiled
// matmul at n = m = ell = 4096, as count, predict and measure do before
// pricing a size.
func BenchmarkCheckBoundsMatmulTiled(b *testing.B) {
	c, err := Count(benchKernel(b, "matmul_tiled"))
	if err != nil {
		b.Fatal(err)
	}
	p := map[string]int64{"n": 4096, "m": 4096, "ell": 4096}
	for b.Loop() {
		if err := c.CheckBounds(p); err != nil {
			b.Fatal(err)
		}
	}
}
