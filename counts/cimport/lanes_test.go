package cimport

import (
	"maps"
	"strings"
	"testing"
)

// warprowSrc gives each run of 32 work-items a row, by the lane and the
// run of the global index (FuzzImport starts from it too).
const warprowSrc = `// uniperf: --local 64 --global 32*n --array in=n --array out=n
__global__ void warprow(const float *in, float *out, int n) {
    int i = blockIdx.x*blockDim.x + threadIdx.x;
    int row = i / 32;
    int lane = i & 31;
    if (row < n && lane == 0) out[row] = 2.0f * in[row];
}
`

// TestLanesOfGlobalIndex imports a warp-a-row kernel whose lane and row
// come from the global index, i & 31 and i / 32, and checks its counts
// against a hand derivation: with G = ceil(n/2) groups of 64 and W =
// 64*G work-items, each work-item computes the row, (64*bx + tx) //
// 32, and the lane, (64*bx + tx) & 31 (a mul, an add and a shift, and a
// mul, an add and an AND: i is written out at each use, as CUDA's
// blockIdx.x*blockDim.x + threadIdx.x always is), and tests row < n, 2*bx
// + row_in_group < n (a mul, an add); lane 0 of each of the n rows
// loads, multiplies and stores (stride 0 along the lanes).
func TestLanesOfGlobalIndex(t *testing.T) {
	c, knl := importCounted(t, warprowSrc)
	if !strings.Contains(string(knl), "split tx 32 tx_run tx_lane\ntag tx_lane l.0, tx_run l.1, bx g.0\n") {
		t.Errorf("no split of tx into lanes of 32:\n%s", knl)
	}
	for _, n := range []int64{7, 40} {
		g := (n + 1) / 2
		w := 64 * g
		want := map[string]int64{"flop.f32.mul": n, "global.load.f32.stride=0": n, "global.minldst.f32.stride=0": n, "global.store.f32.stride=0": n,
			"int.i32.add": 3 * w, "int.i32.mul": 3 * w, "int.i32.bitwise": w, "int.i32.shift": w, "launch.const": 1, "launch.groups": g}
		got, err := c.Eval(map[string]int64{"n": n})
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(nonzero(got), want) {
			t.Errorf("at n = %d: counts\n%v\nwant\n%v\n%s", n, nonzero(got), want, knl)
		}
	}
}

// TestLaneRefusals checks what a lane or a run that cannot be split
// says to write: a second divisor of an index split already, and a
// launch of three axes, which leaves no hardware axis for the run.
func TestLaneRefusals(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`// uniperf: --local 64 --global n --array out=n
__global__ void k(float *out, int n) {
    int lane = threadIdx.x & 31;
    int h = threadIdx.x / 16;
    out[lane] = h;
}
`, "k.cu:4:25: / is not affine in the indices: / 16 of the work-item index, which & 31 at line 3 already splits into lanes of 32; divide it by 32 alone"},
		{`// uniperf: --local 32,2,2 --global n,2,2 --array out=n
__global__ void k(float *out, int n) {
    out[threadIdx.x % 16] = 1.0f;
}
`, "k.cu:3:21: % is not affine in the indices: % 16 of the work-item index, quasi-affine: its lane and its run would be indices of their own, but the launch's three axes leave none free for the run"},
	} {
		_, err := Import("k.cu", []byte(c.src), Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v\nwant %s", err, c.want)
		}
	}
}
