package counts

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestExactRangeAgainstEnumeration checks the projected subscript ranges
// of exactRange against enumeration of the domain, for every subscript
// of the examples whose pitches are not chains of parameters and of
// kernels whose subscripts have a gap, a reversed row, a condition that
// keeps the ends of the bounding range out, no value at all, or values
// below 0; and reachesOutside's answer at extents on either side of the
// greatest value.
func TestExactRangeAgainstEnumeration(t *testing.T) {
	cases := []struct {
		kernel string
		src    string
		params map[string]int64
	}{
		{"pathfinder.knl", "", map[string]int64{"cols": 300, "rows": 3, "row": 1}},
		{"bpnn_adjust_weights.knl", "", map[string]int64{"nb": 3, "hid": 16}},
		{"convolution_naive.knl", "", map[string]int64{"h": 37, "w": 45}},
		{"lud_perimeter.knl", "", map[string]int64{"matrix_dim": 64, "offset": 16}},
		{"transpose_finegrained.knl", "", map[string]int64{"width": 64, "height": 64}},
		{"testdata/hierarchy/pitches.knl", "", map[string]int64{"n": 7, "m": 5}},
		{"gap", "kernel gap\ndomain [n] -> { [i, j] : 0 <= i < n and 0 <= j < 2 }\narray a f32 [n*n*n]\na[i*n*n + j] = 1\n", map[string]int64{"n": 9}},
		{"reversed", "kernel rev\ndomain [n] -> { [i, j] : 0 <= i < n and i <= j < n }\narray a f32 [n*n]\na[(n - 1 - i)*n + j - i] = 1\n", map[string]int64{"n": 11}},
		{"guarded", "kernel g\ndomain [n] -> { [i, j, k] : 0 <= i, j, k < n }\narray a f32 [n*n*n]\nif i + j + k == n - 1 and i > 1\n  a[i*n*n + j*n + k] = 1\nend\n", map[string]int64{"n": 6}},
		{"never", "kernel never\ndomain [n] -> { [i] : 0 <= i < n }\narray a f32 [n]\nif i > n: a[i] = 1\n", map[string]int64{"n": 6}},
		{"shifted", "kernel s\ndomain [n] -> { [i] : 0 <= i < n }\narray a f32 [n]\na[i - 2] = 1\n", map[string]int64{"n": 7}},
	}
	for _, tc := range cases {
		t.Run(tc.kernel, func(t *testing.T) {
			var k *Kernel
			if tc.src == "" {
				k = readKernel(t, tc.kernel, nil)
			} else {
				var err error
				if k, err = ParseKernel(tc.kernel+".knl", []byte(tc.src), nil); err != nil {
					t.Fatal(err)
				}
			}
			c, err := Count(k)
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range c.plan.bounded {
				for d, ix := range b.acc.Index {
					lo, hi, ok, err := c.scannedRange(b, ix, tc.params, maxBoundsCandidates, 0)
					if err != nil {
						t.Fatal(err)
					}
					start := time.Now()
					elo, ehi, eok, err := c.exactRange(b, ix, tc.params)
					if err != nil {
						t.Fatalf("%s subscript %d: %v", b.acc, d+1, err)
					}
					if eok != ok || ok && (elo != lo || ehi != hi) {
						t.Errorf("%s subscript %d: exact range %d..%d (runs %v), enumeration %d..%d (runs %v)", b.acc, d+1, elo, ehi, eok, lo, hi, ok)
					}
					t.Logf("%s subscript %d: %d..%d in %v", b.acc, d+1, elo, ehi, time.Since(start))
					if r, rok := c.enclosedRange(b, ix, tc.params); rok && ok && (r.empty() || r.lo > lo || r.hi < hi) {
						t.Errorf("%s subscript %d: enclosure %+v misses enumeration's %d..%d", b.acc, d+1, r, lo, hi)
					}
					// At an extent one past the greatest value the subscript
					// reaches outside only if it goes below 0; at the greatest
					// value itself it does wherever it runs.
					for _, ext := range []int64{hi + 1, hi} {
						want := ok && (lo < 0 || ext == hi)
						if out, decided := c.reachesOutside(b, ix, tc.params, ext, quickBoundsCandidates); !decided || out != want {
							t.Errorf("%s subscript %d at extent %d: outside %v (decided %v), want %v: enumeration gives %d..%d (runs %v)", b.acc, d+1, ext, out, decided, want, lo, hi, ok)
						}
					}
				}
			}
		})
	}
}

// TestCheckBoundsPastEnumeration checks subscripts whose ranges
// enumeration cannot find (values past its limits, or more candidates
// than the 1000 it may try here): CheckBounds finds them by projection
// instead. At n = 2^20, a[i*n*n + j*n + k] under i + j + k = n - 1
// and i >= 1 spans n*n + n - 2 (i = 1, k = n - 2) .. (n - 1)*n*n, 2^60
// values in all; it fits an array of n*n*n and overruns one of
// (n - 1)*n*n.
func TestCheckBoundsPastEnumeration(t *testing.T) {
	src := func(extent string) string {
		return "kernel gap\ndomain [n] -> { [i, j, k] : 0 <= i, j, k < n }\narray a f32 [" + extent + "]\nif i + j + k == n - 1 and i >= 1\n  a[i*n*n + j*n + k] = 1\nend\n"
	}
	n := int64(1) << 20
	params := map[string]int64{"n": n}
	for _, tc := range []struct {
		extent, msg string
	}{
		{"n*n*n", ""},
		{"(n - 1)*n*n", fmt.Sprintf("its subscript 1 (i*n*n + j*n + k) takes %d..%d, and a has extent %d there", n*n+n-2, (n-1)*n*n, (n-1)*n*n)},
	} {
		k, err := ParseKernel("gap.knl", []byte(src(tc.extent)), nil)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Count(k)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range c.plan.bounded {
			if _, _, _, err := c.scannedRange(b, b.acc.Index[0], params, 1000, 0); err == nil {
				t.Errorf("%s: enumeration within 1000 candidates succeeds", b.acc)
			}
		}
		err = c.CheckBounds(params)
		if tc.msg == "" && err != nil || tc.msg != "" && (err == nil || !strings.Contains(err.Error(), tc.msg)) {
			t.Errorf("extent %s: %v, want %q", tc.extent, err, tc.msg)
		}
	}
}

// Where projection fails for a reason other than its limits (here an
// overflow of its arithmetic at n = 3000000007, m = 1000003), the scan
// finds the range, as it did before projection came first: by hand, the
// least value is 2m + 1 (i = 2, j = 1: at i < 2 no j meets i//2 + j >=
// 2) and the greatest n*m - 1 (i = n - 1, j = m - 1).
func TestCheckBoundsProjectionOverflow(t *testing.T) {
	k, err := ParseKernel("ovf.knl", []byte("kernel ovf\ndomain [n, m] -> { [i, j] : 0 <= i < n and 0 <= j <= floor(i/2) and j < m }\narray a f32 [50]\nif i // 2 + j >= 2: a[i*m + j] = 1\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Count(k)
	if err != nil {
		t.Fatal(err)
	}
	const n, m = 3000000007, 1000003
	err = c.CheckBounds(map[string]int64{"n": n, "m": m})
	if want := fmt.Sprintf("takes %d..%d, and a has extent 50", 2*m+1, n*m-1); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%v, want %q", err, want)
	}
}
