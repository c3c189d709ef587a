package cimport

import (
	"maps"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// barrierIfSrc reverses each group's elements through shared memory,
// its barrier inside the guard i < n, with an else that stores to a[0].
const barrierIfSrc = `// uniperf: --local 64 --groups (n+63)/64 --array a=n
__global__ void k(float *a, int n) {
    __shared__ float s[64];
    int i = blockIdx.x*blockDim.x + threadIdx.x;
    s[threadIdx.x] = 0.0f;
    if (i < n) {
        s[threadIdx.x] = a[i];
        __syncthreads();
        a[i] = s[63 - threadIdx.x];
    } else {
        a[0] = 1.0f;
    }
}
`

// TestBarrierInHoldingIf imports a kernel whose barrier stands inside
// an if that is not its guard: refused without --assume, the refusal
// naming the assumption under which every work-item launched passes the
// test; with it, counted against a hand derivation at two sizes. With
// G = n/64 groups and W = n work-items, every work-item stores a 0 and
// an element to s (2W local stores), tests 64*bx + tx < n once (W
// multiplications and additions), loads its element, reaches the
// barrier, loads s and stores its element back (stride 1); the else,
// which no work-item runs, counts nothing.
func TestBarrierInHoldingIf(t *testing.T) {
	_, err := Import("k.cu", []byte(barrierIfSrc), Options{})
	want := "k.cu:8:9: a barrier inside an if (the if at line 6): not every work-item would reach it; move it out of the if: close the if before the barrier and test its condition again in an if after it (where the if computes a value the code after the barrier reads, set it in an else too); or, where the host makes n a multiple of 64, say so with --assume 'n % 64 == 0'"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("%v\nwant %s", err, want)
	}
	c, r := importCountedWith(t, "k.cu", barrierIfSrc, Options{Assume: []string{"n % 64 == 0"}})
	if !strings.Contains(string(r.Knl), "# assumed: the if at line 6 (64*bx + tx < n) holds at every work-item launched") {
		t.Errorf("no note of the if that holds:\n%s", r.Knl)
	}
	holdingIfCounts(t, c, r, 2)
}

// holdingIfCounts checks the counts of a kernel of TestBarrierInHoldingIf's
// shape at n = 128 and 640 against its hand derivation, with stores
// local stores a work-item.
func holdingIfCounts(t *testing.T, c *counts.Counted, r *Result, stores int64) {
	t.Helper()
	for _, n := range []int64{128, 640} {
		want := map[string]int64{"global.load.f32.stride=1": n, "global.store.f32.stride=1": n, "global.minldst.f32.stride=1": n,
			"int.i32.add": n, "int.i32.mul": n, "launch.const": 1, "launch.groups": n / 64,
			"local.load.f32": n, "local.store.f32": stores * n, "sync.barrier": n}
		got, err := c.Eval(map[string]int64{"n": n})
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(nonzero(got), want) {
			t.Errorf("at n = %d: counts\n%v\nwant\n%v\n%s", n, nonzero(got), want, r.Knl)
		}
	}
}

// barrierIfVarSrc sets r under the if, before the barrier, and reads it
// after: as s[63 - threadIdx.x] in barrierIfSrc.
const barrierIfVarSrc = `// uniperf: --local 64 --groups n/64 --array a=n
__global__ void k(float *a, int n) {
    __shared__ float s[64];
    int i = blockIdx.x*blockDim.x + threadIdx.x;
    int r = 0;
    if (i < n) {
        s[threadIdx.x] = a[i];
        r = 63 - threadIdx.x;
        __syncthreads();
        a[i] = s[r];
    }
}
`

// TestBarrierInHoldingIfVariable imports a kernel whose if, holding at
// every work-item launched, sets a variable before its barrier that the
// statements after it read: every work-item takes the if, so the
// variable holds what it set, rather than a value that depends on the
// branch taken (the refusal before). Counted by hand at two sizes as
// TestBarrierInHoldingIf, less the store of the 0: W = n work-items
// test 64*bx + tx < n once (W multiplications and additions), load
// their element and store it to s (W local stores), reach the barrier,
// load s[63 - tx] and store it back.
func TestBarrierInHoldingIfVariable(t *testing.T) {
	c, r := importCountedWith(t, "k.cu", barrierIfVarSrc, Options{Assume: []string{"n % 64 == 0"}})
	if !strings.Contains(string(r.Knl), "s[-tx + 63]") {
		t.Errorf("the load after the barrier does not read s[63 - tx]:\n%s", r.Knl)
	}
	holdingIfCounts(t, c, r, 1)
}
