package codegen_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/launch/pocltest"
)

// unrolledHeads are the loop headers that follow #pragma unroll in src.
func unrolledHeads(src string) []string {
	lines := strings.Split(src, "\n")
	var heads []string
	for i, l := range lines {
		if strings.TrimSpace(l) == "#pragma unroll" && i+1 < len(lines) {
			heads = append(heads, strings.TrimSpace(lines[i+1]))
		}
	}
	return heads
}

// The unrolled loops of matmul_kernel run over constant ranges, as
// Kernel Tuner's matmul.cu's do, with the matrix's edge in the guards.
// From the domains by hand (BX = 32, BY = 8): ti and ra run to TY, tj and
// rt to TX, kb to BX and rb to BX/BY = 4 (ty + BY*rb < BX at ty = 0);
// every unrolled loop's header is one of these, in OpenCL C and CUDA C.
func TestUnrolledMatmulRanges(t *testing.T) {
	for _, c := range []struct{ tx, ty int64 }{{2, 1}, {4, 8}, {2, 4}} {
		k := exampleWith(t, "matmul_kernel", consts{"TX": c.tx, "TY": c.ty})
		want := map[string]bool{}
		for name, n := range map[string]int64{"ti": c.ty, "ra": c.ty, "tj": c.tx, "rt": c.tx, "kb": 32, "rb": 4} {
			want[fmt.Sprintf("for (int %s = 0; %s < %d; ++%s) {", name, name, n, name)] = true
		}
		for _, b := range []gpu.Backend{gpu.OpenCL, gpu.CUDA} {
			code, err := codegen.Generate(k, b)
			if err != nil {
				t.Fatal(err)
			}
			heads := unrolledHeads(code.Source)
			seen := map[string]bool{}
			for _, h := range heads {
				if !want[h] {
					t.Errorf("TX=%d TY=%d %v: unrolled loop %q, want a constant range", c.tx, c.ty, b, h)
				}
				seen[h] = true
			}
			if len(seen) != len(want) {
				t.Errorf("TX=%d TY=%d %v: unrolled loops %q, want %d distinct\n%s", c.tx, c.ty, b, heads, len(want), code.Source)
			}
			if !strings.Contains(code.Source, fmt.Sprintf("if ((%d*gy + ty + 8*ti < n) && (%d*gx + tx + 32*tj < n)) {", 8*c.ty, 32*c.tx)) {
				t.Errorf("TX=%d TY=%d %v: no edge guard on ti and tj\n%s", c.tx, c.ty, b, code.Source)
			}
		}
	}
}

// The unrolled loops of convolution_kernel with 16 x 16 work-groups and a
// 17 x 17 filter run over constant ranges (by hand: yi to TY, xi to TX,
// ri to ceil((16*TY + 16)/16) = TY + 1, rj to TX + 1).
func TestUnrolledConvolutionRanges(t *testing.T) {
	for _, c := range []struct{ tx, ty int64 }{{2, 2}, {4, 8}, {1, 1}} {
		k := exampleWith(t, "convolution_kernel", consts{"TX": c.tx, "TY": c.ty})
		want := map[string]bool{}
		for name, n := range map[string]int64{"yi": c.ty, "xi": c.tx, "ri": c.ty + 1, "rj": c.tx + 1} {
			want[fmt.Sprintf("for (int %s = 0; %s < %d; ++%s) {", name, name, n, name)] = true
		}
		code, err := codegen.Generate(k, gpu.OpenCL)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range unrolledHeads(code.Source) {
			if !want[h] {
				t.Errorf("TX=%d TY=%d: unrolled loop %q, want a constant range\n%s", c.tx, c.ty, h, code.Source)
			}
		}
	}
}

// matmul_kernel and convolution_kernel, their unrolled loops over
// constant ranges, compute on PoCL what the reference interpreter does at
// sizes that neither tiles nor slabs divide, so that the edge guards
// decide, and at sizes below one tile.
func TestUnrolledOnPoCL(t *testing.T) {
	dev := pocltest.Open(t)
	cases := []struct {
		name   string
		cs     []consts
		params []params
	}{
		{"matmul_kernel",
			[]consts{{"TX": 2, "TY": 1}, {"TX": 4, "TY": 8}, {"TX": 1, "TY": 1}, {"TX": 2, "TY": 4, "BX": 16, "BY": 4}, {"TX": 3, "TY": 2, "BX": 8, "BY": 16}},
			[]params{{"n": 37}, {"n": 70}, {"n": 5}, {"n": 1}}},
		{"convolution_kernel",
			[]consts{{"TX": 2, "TY": 2}, {"TX": 1, "TY": 4}, {"TX": 3, "TY": 1, "BX": 8, "BY": 4}},
			[]params{{"h": 37, "w": 21}, {"h": 5, "w": 40}, {"h": 1, "w": 1}}},
	}
	for _, c := range cases {
		for _, cs := range c.cs {
			t.Run(c.name+"/"+constString(cs), func(t *testing.T) {
				checkCase(t, dev, exampleWith(t, c.name, cs), c.params)
			})
		}
	}
}
