package codegen

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/gpu"
)

// Generating a sum of n terms allocates bytes linear in n: four times the
// terms may not take much more than four times the bytes (the rendering
// that copied the growing left operand per operator took sixteen). The
// work is counted in bytes allocated, not timed. The source is checked
// against the sum written out by hand.
func TestLongSumLinear(t *testing.T) {
	generate := func(n int) (uint64, string) {
		src := "kernel k\ndomain [n] -> { [i] : 0 <= i < n }\narray a f32 [n]\narray b f32 [n]\nb[i] = " +
			strings.TrimSuffix(strings.Repeat("a[i] + ", n), " + ") + "\n"
		k, err := counts.ParseKernel("sum.knl", []byte(src), nil)
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		code, err := Generate(k, gpu.OpenCL)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		return after.TotalAlloc - before.TotalAlloc, code.Source
	}
	_, src := generate(4)
	if want := "b[i] = (((a[i] + a[i]) + a[i]) + a[i]);"; !strings.Contains(src, want) {
		t.Fatalf("the sum of 4 terms is not %s:\n%s", want, src)
	}
	small, _ := generate(5000)
	large, _ := generate(20000)
	if ratio := float64(large) / float64(small); ratio > 8 {
		t.Fatalf("bytes for 5,000 terms %d, for 20,000 %d: ratio %.1f, want about 4 (linear), not 16", small, large, ratio)
	}
}

// Generating a chain of n comparisons joined by and or by or allocates
// bytes linear in n, as a sum does (issue 45: a 1 MB if() condition took
// seconds a 100 KB one did not; each level of the chain copied the one
// inside it). The source of three is checked against the chain written
// out by hand.
func TestLongLogicChainLinear(t *testing.T) {
	for _, op := range []string{"and", "or"} {
		generate := func(n int) (uint64, string) {
			conds := make([]string, n)
			for k := range conds {
				conds[k] = fmt.Sprintf("a[i] > %d", k)
			}
			src := "kernel k\ndomain [n] -> { [i] : 0 <= i < n }\narray a f32 [n]\narray b f32 [n]\nb[i] = if(" +
				strings.Join(conds, " "+op+" ") + ", a[i], 0)\n"
			k, err := counts.ParseKernel("chain.knl", []byte(src), nil)
			if err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			code, err := Generate(k, gpu.OpenCL)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			return after.TotalAlloc - before.TotalAlloc, code.Source
		}
		c := map[string]string{"and": "&&", "or": "||"}[op]
		_, src := generate(3)
		if want := "b[i] = ((((a[i] > (0.0f)) " + c + " (a[i] > (1.0f))) " + c + " (a[i] > (2.0f))) ? a[i] : (0.0f));"; !strings.Contains(src, want) {
			t.Fatalf("the chain of 3 is not %s:\n%s", want, src)
		}
		small, _ := generate(5000)
		large, _ := generate(20000)
		if ratio := float64(large) / float64(small); ratio > 8 {
			t.Fatalf("%s: bytes for 5,000 comparisons %d, for 20,000 %d: ratio %.1f, want about 4 (linear), not 16", op, small, large, ratio)
		}
	}
}
