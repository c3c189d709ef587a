package counts

import (
	"fmt"
	"path/filepath"
	"testing"
)

// launchCase is a kernel at sizes below or not divisible by its
// work-group, with the launch a C host makes and the counts derived by
// hand from it.
type launchCase struct {
	kernel        string // testdata/lang name, or a path
	params        map[string]int64
	global, local [3]int64
	bases         map[string]int64
	counts        map[string]int64
}

// launchCases derives each case by hand. block256 (split i 256): g =
// ceil(n/256) groups of 256; what runs in i counts n times, the barrier
// and w = c*c 256g times. box16 (16 x 16 box, the image's edge in the
// domain) at w = 10, h = 20: ceil(10/16) x ceil(20/16) = 1 x 2 groups of
// 16 x 16, 200 points, the barrier 2*256 times. jacobi1d1 (interior
// 1 <= i <= n - 2, split by 256): i_in from 0 at every n, work-item 0 of
// group 0 idle; groups ceil((n - 1)/256) (i_out runs 0..(n - 2)/256), n - 2
// points of 2 adds, 1 multiply, 3 loads, 1 store. tiedlane (l bounded
// above only by n - 16g, g < 4): the group is the projection onto l,
// n work-items at n <= 64 as at n = 100 (l runs 0..99 where g = 0); its
// points are the sum over g of n - 16g, 100 + 84 + 68 + 52 at n = 100.
func launchCases() []launchCase {
	block := func(n int64) launchCase {
		g := (n + 255) / 256
		return launchCase{"block256", map[string]int64{"n": n}, [3]int64{256 * g, 1, 1}, [3]int64{256, 1, 1},
			map[string]int64{"i_in": 0, "i_out": 0},
			map[string]int64{"flop.f32.mul": 256*g + n, "flop.f32.add": n,
				"global.load.f32.stride=1": n, "global.store.f32.stride=1": n, "global.minldst.f32.stride=1": n,
				"local.load.f32": n, "local.store.f32": n,
				"sync.barrier": 256 * g, "launch.groups": g, "launch.const": 1}}
	}
	jacobi := func(n int64) launchCase {
		g := (n - 1 + 255) / 256
		p := n - 2
		return launchCase{filepath.Join("..", "examples", "jacobi1d1.knl"), map[string]int64{"n": n},
			[3]int64{256 * g, 1, 1}, [3]int64{256, 1, 1}, map[string]int64{"i_in": 0, "i_out": 0},
			map[string]int64{"flop.f32.add": 2 * p, "flop.f32.mul": p,
				"global.load.f32.stride=1": 3 * p, "global.store.f32.stride=1": p, "global.minldst.f32.stride=1": p,
				"launch.groups": g, "launch.const": 1}}
	}
	tied := func(n, groups, points int64) launchCase {
		return launchCase{"tiedlane", map[string]int64{"n": n}, [3]int64{groups * n, 1, 1}, [3]int64{n, 1, 1},
			map[string]int64{"g": 0, "l": 0},
			map[string]int64{"flop.f32.mul": points, "global.load.f32.stride=1": points,
				"global.store.f32.stride=1": points, "global.minldst.f32.stride=1": points,
				"launch.groups": groups, "launch.const": 1}}
	}
	return []launchCase{
		block(100), block(300), block(256),
		{"box16", map[string]int64{"w": 10, "h": 20}, [3]int64{16, 32, 1}, [3]int64{16, 16, 1},
			map[string]int64{"gx": 0, "gy": 0, "lx": 0, "ly": 0},
			map[string]int64{"flop.f32.mul": 200, "flop.f32.add": 200,
				"global.load.f32.stride=1": 200, "global.store.f32.stride=1": 200, "global.minldst.f32.stride=1": 200,
				"local.load.f32": 200, "local.store.f32": 200,
				"sync.barrier": 512, "launch.groups": 2, "launch.const": 1}},
		jacobi(100), jacobi(1000), jacobi(258),
		tied(10, 1, 10), tied(100, 4, 304),
	}
}

// TestLaunchWholeBlocks checks the launch, the first values and the
// counts of kernels whose sizes launch a partial group, against the
// launch a C host makes and the counts derived by hand from it
// (launchCases), symbolically (Count, Eval) and at the sizes (CountAt);
// the reference interpreter's totals equal them too.
func TestLaunchWholeBlocks(t *testing.T) {
	for _, tc := range launchCases() {
		t.Run(fmt.Sprint(filepath.Base(tc.kernel), " ", tc.params), func(t *testing.T) {
			var k *Kernel
			if filepath.Ext(tc.kernel) == ".knl" {
				k = readKernel(t, tc.kernel, nil)
			} else {
				k = langKernel(t, tc.kernel, nil)
			}
			global, local, err := k.Launch(tc.params)
			if err != nil {
				t.Fatal(err)
			}
			if global != tc.global || local != tc.local {
				t.Errorf("launch %v/%v, want %v/%v", global, local, tc.global, tc.local)
			}
			bases, err := k.IndexBases(tc.params)
			if err != nil {
				t.Fatal(err)
			}
			for x, want := range tc.bases {
				if bases[x] != want {
					t.Errorf("iname %s starts at %d, want %d", x, bases[x], want)
				}
			}
			c, err := Count(k)
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.Eval(tc.params)
			if err != nil {
				t.Fatal(err)
			}
			compareProps(t, got, tc.counts)
			at, _, err := CountAt(k, Options{}, tc.params, 1e9)
			if err != nil {
				t.Fatal(err)
			}
			compareProps(t, at, tc.counts)
			compareProps(t, runTotals(t, k, tc.params), sumClasses(tc.counts))
		})
	}
}

// A grid whose work-items no int64 holds is refused with its place and
// cause rather than wrapped round (2^36 groups of 2^40 work-items is 2^76
// at n = 2^40, which wrapped to a global size of 0, an "empty" grid);
// below that the product is exact: 2 groups of 2^40 at n = 20 (g < 20/16
// leaves g = 0 and 1; l's own range 0 <= l < 2^40 sets the group).
func TestLaunchOverflow(t *testing.T) {
	k := parseSrc(t, "wide", `kernel wide
domain [n] -> { [g, l] : 0 <= g < n and 0 <= l < 1099511627776 and l + 16*g < n }
array a f32 [n]
tag g g.0, l l.0
a[l + 16*g] = 2.0f * a[l + 16*g]
`)
	global, local, err := k.Launch(map[string]int64{"n": 20})
	if err != nil {
		t.Fatal(err)
	}
	if want := [3]int64{1 << 41, 1, 1}; global != want || local != [3]int64{1 << 40, 1, 1} {
		t.Errorf("launch %v/%v at n = 20, want %v/%v", global, local, want, [3]int64{1 << 40, 1, 1})
	}
	_, _, err = k.Launch(map[string]int64{"n": 1 << 40})
	want := "wide.knl: the launch grid along axis 0, 68719476736 groups of 1099511627776 work-items, has more work-items than 64-bit integers hold (at n=1099511627776)"
	if err == nil || err.Error() != want {
		t.Errorf("launch at n = 2^40: %v, want %q", err, want)
	}
}
