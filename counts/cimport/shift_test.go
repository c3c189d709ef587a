package cimport

import (
	"maps"
	"strings"
	"testing"
)

// TestShiftOfWorkItemIndex imports a warp's index t >> 5 in a global
// array's subscript, as CUDA and OpenCL C write it, and counts the .knl
// (which refused to count while t >> 5 was l0 // 32 in the subscript,
// issue 43), against a hand derivation. Where 32 divides the
// work-group's size, the shift is the run of the split index, as t / 32
// is: C computes it once in each of the n work-items that pass the
// guard (i < n, the launch's domain, as a hand port's), and a[t >> 5]
// is the same element across a warp's lanes (stride 0). In the .cl,
// t & 31 is the lane of the same split, an AND each, and a[t & 31]
// stride 1. Where 32 does not divide it (48), t >> 5 and (t + 1) >> 5
// are data, each a shift (and the + 1 an addition) where C computes
// it, and the loads they index are gathers.
func TestShiftOfWorkItemIndex(t *testing.T) {
	for _, c := range []struct {
		file, src, split string
		want             func(n int64) map[string]int64
	}{
		{"k.cu", `// uniperf: --local 128 --global n --array a=n --array out=n
__global__ void w(const float *a, float *out, int n) {
    int i = blockIdx.x*blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * a[threadIdx.x >> 5];
}
`, "split tx 32 tx_run tx_lane\n", func(n int64) map[string]int64 {
			return map[string]int64{"flop.f32.mul": n, "global.load.f32.stride=0": n, "global.store.f32.stride=1": n,
				"int.i32.shift": n, "launch.const": 1, "launch.groups": (n + 127) / 128}
		}},
		{"k.cl", `// uniperf: --local 64 --global n --array a=n --array out=n
__kernel void w(__global const float *a, __global float *out, int n) {
    int i = get_global_id(0);
    int l = get_local_id(0);
    if (i < n) out[i] = a[l >> 5] - a[l & 31];
}
`, "split l0 32 l0_run l0_lane\n", func(n int64) map[string]int64 {
			return map[string]int64{"flop.f32.add": n, "global.load.f32.stride=0": n, "global.load.f32.stride=1": n,
				"global.minldst.f32.stride=1": n, "global.store.f32.stride=1": n, "int.i32.bitwise": n, "int.i32.shift": n,
				"launch.const": 1, "launch.groups": (n + 63) / 64}
		}},
		{"k.cu", `// uniperf: --local 48 --global n --array a=n --array out=n
__global__ void w(const float *a, float *out, int n) {
    int i = blockIdx.x*blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[threadIdx.x >> 5] + a[(threadIdx.x + 1) >> 5];
}
`, "", func(n int64) map[string]int64 {
			return map[string]int64{"flop.f32.add": n, "global.load.indirect.f32": 2 * n, "global.store.f32.stride=1": n,
				"int.i32.add": n, "int.i32.shift": 2 * n, "launch.const": 1, "launch.groups": (n + 47) / 48}
		}},
	} {
		cnt, r := importCountedWith(t, c.file, c.src, Options{})
		knl := string(r.Knl)
		if c.split != "" && !strings.Contains(knl, c.split) {
			t.Errorf("no %q in\n%s", c.split, knl)
		}
		if c.split == "" && (strings.Contains(knl, "\nsplit tx 32") || !strings.Contains(knl, "# >> at line 4:39 is data")) {
			t.Errorf("want no split by 32 and a note on the shift at 4:39 in\n%s", knl)
		}
		for _, n := range []int64{1000, 77} {
			got, err := cnt.Eval(map[string]int64{"n": n})
			if err != nil {
				t.Fatal(err)
			}
			if want := c.want(n); !maps.Equal(nonzero(got), want) {
				t.Errorf("%s at n = %d: counts\n%v\nwant\n%v\n%s", c.file, n, nonzero(got), want, knl)
			}
		}
	}
}
