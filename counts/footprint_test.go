package counts

import (
	"os"
	"strings"
	"testing"
)

// TestFootprintsByHand checks footprints against closed forms derived by
// hand, at sizes far beyond enumeration and at small ones.
func TestFootprintsByHand(t *testing.T) {
	type fp struct {
		array string
		store bool
		n     func(p map[string]int64) int64
	}
	cases := []struct {
		name, src string
		params    []map[string]int64
		want      []fp
	}{
		{
			// Every tile of a and b is loaded by a whole row (column) of
			// work-groups, but each element counts once: all of a (n x m),
			// all of b (m x ell); every element of c is stored.
			name:   "matmul_tiled",
			params: []map[string]int64{{"n": 4096, "m": 1000, "ell": 2048}, {"n": 37, "m": 40, "ell": 17}, {"n": 1, "m": 1, "ell": 1}},
			want: []fp{{"a", false, func(p map[string]int64) int64 { return p["n"] * p["m"] }},
				{"b", false, func(p map[string]int64) int64 { return p["m"] * p["ell"] }},
				{"c", true, func(p map[string]int64) int64 { return p["n"] * p["ell"] }}},
		},
		{
			// img[im, 3 + y - dy, 3 + x - dx, ch] over 0 <= y, x < n and
			// -3 <= dy, dx <= 3 covers rows and columns 0..n+5 of each of 3
			// images of 3 channels; the 3 filters of 7 x 7 x 3.
			name:   "convolution",
			params: []map[string]int64{{"n": 1000}, {"n": 1}},
			want: []fp{{"img", false, func(p map[string]int64) int64 { return 9 * (p["n"] + 6) * (p["n"] + 6) }},
				{"filt", false, func(map[string]int64) int64 { return 3 * 7 * 7 * 3 }},
				{"r", true, func(p map[string]int64) int64 { return 9 * p["n"] * p["n"] }}},
		},
		{
			// Not injective: b[i + j] over 0 <= i < n, 0 <= j < m touches
			// n + m - 1 elements n*m times; every y[i] reads all of x.
			name: "conv1d",
			src: `kernel conv1d
domain [n, m] -> { [i, j] : 0 <= i < n and 0 <= j < m }
assume n >= 1 and m >= 1
array b f32 [n + m]
array x f32 [m]
array y f32 [n]
split i 4 io ii
tag io g.0, ii l.0
y[i] = sum(j, b[i + j]*x[j])
`,
			params: []map[string]int64{{"n": 100000, "m": 333}, {"n": 5, "m": 3}},
			want: []fp{{"b", false, func(p map[string]int64) int64 { return p["n"] + p["m"] - 1 }},
				{"x", false, func(p map[string]int64) int64 { return p["m"] }},
				{"y", true, func(p map[string]int64) int64 { return p["n"] }}},
		},
		{
			// Overlapping references: a[i] and a[i + 2] together touch
			// n + 2 elements (2 for n = 1: a[0] and a[2]); a[3*i] n elements spread over 3n - 2; the
			// store c[i] and the load c[n - 1 - i] the same n elements.
			name: "overlap",
			src: `kernel overlap
domain [n] -> { [i] : 0 <= i < n }
assume n >= 1
array a f64 [n + 2]
array s f64 [3*n]
array c f64 [n]
array d f64 [n]
split i 8 io ii
tag io g.0, ii l.0
d[i] = a[i] + a[i + 2] + s[3*i]
c[i] = d[n - 1 - i]
`,
			params: []map[string]int64{{"n": 1 << 40}, {"n": 13}, {"n": 1}},
			want: []fp{{"a", false, func(p map[string]int64) int64 { return min(p["n"]+2, 2*p["n"]) }},
				{"s", false, func(p map[string]int64) int64 { return p["n"] }},
				{"c", true, func(p map[string]int64) int64 { return p["n"] }},
				{"d", false, func(p map[string]int64) int64 { return p["n"] }},
				{"d", true, func(p map[string]int64) int64 { return p["n"] }}},
		},
	}
	pitches, err := os.ReadFile("testdata/hierarchy/pitches.knl")
	if err != nil {
		t.Fatal(err)
	}
	cases = append(cases, struct {
		name, src string
		params    []map[string]int64
		want      []fp
	}{
		// Flattened subscripts with no symbolic footprint, counted at the
		// sizes given. a: rows 1..n-1 of both loads hold columns 0..n,
		// row 0 columns 1..n, row n columns 0..n-1. b: rows of n + 5 cells
		// at pitch n + 1 overlap into one run from 0 to
		// (n - 1)(n + 1) + n + 4. d: n rows of m even cells; e: n rows
		// of m.
		name:   "pitches",
		src:    string(pitches),
		params: []map[string]int64{{"n": 3000, "m": 2000}, {"n": 7, "m": 5}, {"n": 1, "m": 1}},
		want: []fp{{"a", false, func(p map[string]int64) int64 { return p["n"]*p["n"] + 2*p["n"] - 1 }},
			{"b", false, func(p map[string]int64) int64 { return p["n"]*p["n"] + p["n"] + 4 }},
			{"d", false, func(p map[string]int64) int64 { return p["n"] * p["m"] }},
			{"e", false, func(p map[string]int64) int64 { return p["n"] * p["m"] }},
			{"r", true, func(p map[string]int64) int64 { return p["n"] * p["n"] }}},
	})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bc := breakdownCase{name: c.name, src: []byte(c.src)}
			if c.src == "" {
				bc.src = nil
			}
			k := bc.kernel(t)
			counted, err := Count(k)
			if err != nil {
				t.Fatal(err)
			}
			for _, params := range c.params {
				fps, sizes, err := counted.FootprintsAt(params)
				if err != nil {
					t.Fatal(err)
				}
				if len(fps) != len(c.want) {
					t.Errorf("%d footprints, want %d: %v", len(fps), len(c.want), fps)
				}
				for _, w := range c.want {
					i := -1
					for j, f := range fps {
						if f.Array == w.array && f.Store == w.store {
							i = j
						}
					}
					n := w.n(params)
					if i < 0 {
						t.Errorf("%s %s: no footprint", w.array, direction(w.store))
					} else if sizes[i].Elements != n || sizes[i].Bytes != n*int64(fps[i].DType.Size()) {
						t.Errorf("%s %s at %v: %+v, want %d elements", w.array, direction(w.store), params, sizes[i], n)
					} else if fps[i].AtSizes != (c.name == "pitches") {
						t.Errorf("%s %s at %v: AtSizes %v", w.array, direction(w.store), params, fps[i].AtSizes)
					}
				}
			}
		})
	}
}

// TestFootprintErrors checks that footprints check their parameters and
// report sizes beyond int64.
func TestFootprintErrors(t *testing.T) {
	k, err := ParseKernel("big.knl", []byte(`kernel big
domain [n, m] -> { [i, j] : 0 <= i < n and 0 <= j < m }
assume n >= 1 and m >= 1
array a f64 [n, m]
a[i, j] = 1
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Count(k)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		params map[string]int64
		msg    string
	}{
		{map[string]int64{"n": 1 << 31, "m": 1 << 30}, "footprint of a (store)"}, // 2^61 elements, 2^64 bytes
		{map[string]int64{"n": 1 << 32, "m": 1 << 32}, "overflow"},
		{map[string]int64{"n": 0, "m": 1}, "violate the assumptions"},
		{map[string]int64{"n": 1}, "missing parameter m"},
	} {
		if _, _, err := c.FootprintsAt(tc.params); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%v: error %v, want one containing %q", tc.params, err, tc.msg)
		}
	}
}
