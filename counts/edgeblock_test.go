package counts

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An edge block of testdata/lang/edgehalo.knl loads its whole tile and
// halo unguarded, past the image's n + 2 elements, and every one of
// those loads is counted. By hand, with G = ceil(n/16) groups of 16:
// each work-item loads in[16g + l] and the first two the halo
// in[16g + 16 + l], 18G loads and as many local stores; each of the n
// guarded stores sums three local values (3n local loads, 2n adds); the
// index 16g + l costs one multiplication and one addition per
// work-item, 16G each; 16G work-items meet the barrier.
func TestEdgeBlockHandCounts(t *testing.T) {
	_, counted := countedLang(t, "edgehalo")
	for _, n := range []int64{37, 32, 1} {
		got, err := counted.Eval(map[string]int64{"n": n})
		if err != nil {
			t.Fatal(err)
		}
		g := (n + 15) / 16
		t.Run(fmt.Sprint("n=", n), func(t *testing.T) {
			compareProps(t, got, map[string]int64{
				"global.load.f32.stride=1": 18 * g, "global.store.f32.stride=1": n, "global.minldst.f32.stride=1": min(18*g, n),
				"local.store.f32": 18 * g, "local.load.f32": 3 * n, "flop.f32.add": 2 * n,
				"int.i32.mul": 16 * g, "int.i32.add": 16 * g,
				"sync.barrier": 16 * g, "launch.groups": g, "launch.const": 1,
			})
		})
	}
}

// The interpreter runs the edge block's loads into the padding the host
// allocates, n + 18 elements, and computes the 3-point sums of the
// image: Go's sum is the oracle. The padding holds NaN, which would
// reach out if a guarded store read it. Its tally has the 18G loads.
func TestEdgeBlockRunReadsPadding(t *testing.T) {
	k := langKernel(t, "edgehalo", nil)
	const n = 37
	in := make([]float32, n+18)
	for i := range in {
		in[i] = float32(math.NaN())
		if i < n+2 {
			in[i] = float32(i*i%11) - 3.5
		}
	}
	out := make([]float32, n)
	tl, err := Run(k, map[string]int64{"n": n}, map[string]any{"in": in, "out": out}, nil)
	if err != nil {
		t.Fatalf("the edge block's loads of the padding: %v", err)
	}
	for i := range n {
		if want := in[i] + in[i+1] + in[i+2]; out[i] != want {
			t.Errorf("out[%d] = %v, want %v", i, out[i], want)
		}
	}
	loads := int64(0)
	for acc, c := range tl.Global {
		if !acc.Store {
			loads += c
		}
	}
	if loads != 54 {
		t.Errorf("the interpreter loaded %d elements, want 18*3 = 54", loads)
	}
}

// An extent that holds the image but not what the edge block reads is
// refused at the sizes where it is too small, with the elements it
// reaches past the end and what to declare instead: at n = 37 the tile
// loads of the third group read in[32..47], 39..47 past an extent of
// n + 2 = 39, so the host must allocate at least 48 (the halo's, checked
// next, 50). At n = 32 the tiles divide the image and the halo ends at
// 33, within the extent.
func TestEdgeBlockExtentTooSmall(t *testing.T) {
	k := edgeKernelTooSmall(t)
	c, err := Count(k)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.CheckBounds(map[string]int64{"n": 32}); err != nil {
		t.Errorf("n = 32: %v, want no error", err)
	}
	err = c.CheckBounds(map[string]int64{"n": 37})
	for _, want := range []string{"in[16*g + l] is out of bounds at n=37", "takes 0..47, and in has extent 39 there, so it reaches 39..47 past the end",
		"declare the extent the host allocates, at least 48 along subscript 1", "--array in=EXTENT", "// uniperf: --array in=EXTENT"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("n = 37: error %v, want it to say %q", err, want)
		}
	}
}

// The interpreter, which checks every access it makes, stops at the
// first load past an extent declared as the image, n + 2 = 39 at
// n = 37, with the same advice: the third group's work-item 7 loads
// in[39].
func TestEdgeBlockRunPastExtent(t *testing.T) {
	k := edgeKernelTooSmall(t)
	const n = 37
	_, err := Run(k, map[string]int64{"n": n}, map[string]any{"in": make([]float32, n+2), "out": make([]float32, n)}, nil)
	for _, want := range []string{"in[39] is out of bounds for shape [39]", "declare the extent the host allocates", "--array in=EXTENT"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want it to say %q", err, want)
		}
	}
}

// edgeKernelTooSmall is testdata/lang/edgehalo.knl with in declared as the
// image, n + 2 elements, not as the host allocates it.
func edgeKernelTooSmall(t *testing.T) *Kernel {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "lang", "edgehalo.knl"))
	if err != nil {
		t.Fatal(err)
	}
	small := strings.Replace(string(src), "array in f32 [n + B + 2]", "array in f32 [n + 2]", 1)
	k, err := ParseKernel("edge.knl", []byte(small), nil)
	if err != nil {
		t.Fatal(err)
	}
	return k
}
