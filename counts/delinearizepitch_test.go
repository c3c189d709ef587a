package counts

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestExtentPitches checks the pitches read from extents against
// factorizations by hand: a pitch where the extent is a power of a*p + c
// times the rest, none where it is p itself or no such power.
func TestExtentPitches(t *testing.T) {
	for _, tc := range []struct {
		extent string
		want   map[string]string
	}{
		{"(h + 14)*(w + 14)", map[string]string{"h'": "h + 14", "w'": "w + 14"}},
		{"h*(w + 16)", map[string]string{"w'": "w + 16"}},
		{"(2*w + 1)*h", map[string]string{"w'": "2*w + 1"}},
		{"(n + 1)*(n + 1)", map[string]string{"n'": "n + 1"}},
		{"(d + 2)*(h + 2)*(w + 2)", map[string]string{"d'": "d + 2", "h'": "h + 2", "w'": "w + 2"}},
		{"(w - 3)*h", map[string]string{"w'": "w - 3"}},
		// n*(n + 2) and (n + 1)*(n + 7) are no power of one n + c; the
		// others hold no shifted factor.
		{"n*(n + 2)", nil},
		{"(n + 1)*(n + 7)", nil},
		{"(h + 14)*(w + 14) + 1", nil},
		{"n*m", nil},
		{"2*n*m*n", nil},
		{"n", nil},
		// (a*n + c)^4 with 4*c/a = 1/2^62: a = 2^64 is past int64, so no
		// pitch (the product wrapped to 0 and divided by it).
		{"4611686018427387904*n*n*n*n + n*n*n", nil},
	} {
		src := fmt.Sprintf("kernel k\ndomain [n, m, h, w, d] -> { [i] : 0 <= i < n }\narray a f32 [%s]\na[i] = 1\n", tc.extent)
		k, err := ParseKernel("pitch.knl", []byte(src), nil)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for fresh, v := range extentPitches(k.arrayIndex["a"].Shape[0]) {
			got[fresh] = v.String()
		}
		if !maps.Equal(got, tc.want) {
			t.Errorf("extent %s: pitches %v, want %v", tc.extent, got, tc.want)
		}
	}
}

// affinePitchTwins are kernels whose flattened subscripts have affine
// pitches that their extents declare, each with the kernel written with
// a dimension per pitch: the same accesses, cell for cell.
var affinePitchTwins = []struct {
	name, flat, twoD string
	params           []map[string]int64
}{
	{"paddedRows", paddedRows, paddedRows2d, []map[string]int64{{"w": 20, "h": 17}, {"w": 40, "h": 40}, {"w": 1, "h": 3}}},
	// pitch 2*w + 1, a row read backwards (2*w - x) and the next row.
	{"oddPitch", `kernel odd
domain [w, h] -> { [y, x] : 0 <= y < h and 0 <= x <= 2*w }
array a f32 [(h + 1)*(2*w + 1)]
array o f32 [h*(2*w + 1)]
split x 8 x_out x_in
tag x_out g.0, x_in l.0, y g.1
o[y*(2*w + 1) + x] = a[y*(2*w + 1) + 2*w - x] + a[(y + 1)*(2*w + 1) + x]
`, `kernel odd
domain [w, h] -> { [y, x] : 0 <= y < h and 0 <= x <= 2*w }
array a f32 [h + 1, 2*w + 1]
array o f32 [h, 2*w + 1]
split x 8 x_out x_in
tag x_out g.0, x_in l.0, y g.1
o[y, x] = a[y, 2*w - x] + a[y + 1, x]
`, []map[string]int64{{"w": 9, "h": 5}, {"w": 0, "h": 2}}},
	// two pitches of a padded box, h + 2 and w + 2.
	{"paddedBox", `kernel box
domain [d, h, w] -> { [z, y, x] : 0 <= z < d and 0 <= y < h and 0 <= x < w }
array a f32 [(d + 2)*(h + 2)*(w + 2)]
array o f32 [d, h, w]
split x 8 x_out x_in
tag x_out g.0, x_in l.0, y g.1
o[z, y, x] = a[((z + 1)*(h + 2) + y + 1)*(w + 2) + x + 1] + a[(z*(h + 2) + y + 2)*(w + 2) + x]
`, `kernel box
domain [d, h, w] -> { [z, y, x] : 0 <= z < d and 0 <= y < h and 0 <= x < w }
array a f32 [d + 2, h + 2, w + 2]
array o f32 [d, h, w]
split x 8 x_out x_in
tag x_out g.0, x_in l.0, y g.1
o[z, y, x] = a[z + 1, y + 1, x + 1] + a[z, y + 2, x]
`, []map[string]int64{{"d": 3, "h": 5, "w": 11}, {"d": 1, "h": 1, "w": 8}}},
	// a square of side n + 1 read along rows and columns.
	{"square", `kernel sq
domain [n] -> { [i, j] : 0 <= i <= n and 0 <= j <= n }
array a f32 [(n + 1)*(n + 1)]
array o f32 [n + 1, n + 1]
split j 4 j_out j_in
tag j_out g.0, j_in l.0
o[i, j] = a[i*(n + 1) + j] + a[j*(n + 1) + i]
`, `kernel sq
domain [n] -> { [i, j] : 0 <= i <= n and 0 <= j <= n }
array a f32 [n + 1, n + 1]
array o f32 [n + 1, n + 1]
split j 4 j_out j_in
tag j_out g.0, j_in l.0
o[i, j] = a[i, j] + a[j, i]
`, []map[string]int64{{"n": 6}, {"n": 0}}},
}

// paddedRows2d is paddedRows with a dimension per pitch.
var paddedRows2d = strings.NewReplacer("[(h + 14)*(w + 14)]", "[h + 14, w + 14]", "in[(y + k)*(w + 14) + x + k]", "in[y + k, x + k]").Replace(paddedRows)

// TestAffinePitchHierarchy checks that flattened subscripts whose pitch
// is affine count symbolically, and that at small sizes every memory-
// hierarchy count equals the one the interpreter's accesses give (the
// distinct cells touched, enumerated) and the twin's with a dimension
// per pitch, as do the kernel's other counts (stride classes, from the
// footprints).
func TestAffinePitchHierarchy(t *testing.T) {
	for _, tc := range affinePitchTwins {
		t.Run(tc.name, func(t *testing.T) {
			flat, twin := countedSrc(t, tc.name+".knl", tc.flat), countedSrc(t, tc.name+"2d.knl", tc.twoD)
			if _, err := flat.Hierarchy(); err != nil {
				t.Fatalf("no symbolic hierarchy counts: %v", err)
			}
			if _, err := flat.Footprints(); err != nil {
				t.Fatalf("no symbolic footprints: %v", err)
			}
			for _, p := range tc.params {
				hs, vals, err := flat.HierarchyAt(p)
				if err != nil {
					t.Fatal(err)
				}
				checkHierarchyCounts(t, p, hs, vals, traceHierarchy(t, flat.k, p, nil))
				ths, tvals, err := twin.HierarchyAt(p)
				if err != nil {
					t.Fatal(err)
				}
				if got, want := hierarchyMap(hs, vals), hierarchyMap(ths, tvals); !maps.Equal(got, want) {
					t.Errorf("at %v: flattened %v, with a dimension per pitch %v", p, got, want)
				}
				checkSameCounts(t, p, flat, twin)
			}
		})
	}
}

// hierarchyMap keys hierarchy counts' values by "name array".
func hierarchyMap(hs []HierarchyCount, vals []int64) map[string]int64 {
	m := map[string]int64{}
	for i, h := range hs {
		m[h.Name+" "+h.Array] = vals[i]
	}
	return m
}

// TestAffinePitchLaunchFootprint checks paddedRows' symbolic launch
// footprint of in against the cells counted by enumerating its domain:
// the distinct (y + k)*(w + 14) + x + k.
func TestAffinePitchLaunchFootprint(t *testing.T) {
	c := countedSrc(t, "w14.knl", paddedRows)
	for _, p := range []map[string]int64{{"w": 5, "h": 3}, {"w": 33, "h": 18}, {"w": 1, "h": 1}} {
		cells := map[int64]bool{}
		for y := range p["h"] {
			for x := range p["w"] {
				for k := range int64(15) {
					cells[(y+k)*(p["w"]+14)+x+k] = true
				}
			}
		}
		hs, vals, err := c.HierarchyAt(p)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(hs, func(h HierarchyCount) bool { return h.Name == FootprintLaunch && h.Array == "in" })
		if i < 0 || hs[i].AtSizes || vals[i] != 4*int64(len(cells)) {
			t.Errorf("at %v: in's launch footprint %v, want %d bytes, symbolic", p, hs[i:i+1], 4*len(cells))
		}
	}
}

// overlappingRows reads 16 points of each row's diagonal, pitch w + 14:
// x + k reaches w + 14, the next row's first cell, so pairs (row,
// column) are not distinct cells and the pitch does not split.
var overlappingRows = strings.NewReplacer("0 <= k < 15", "0 <= k < 16", "[(h + 14)*(w + 14)]", "[(h + 15)*(w + 14)]").Replace(paddedRows)

// TestAffinePitchRefusals checks what stays refused, with the message
// of a pitch that does not split: an inner index that reaches the pitch,
// a pitch that is 0 or negative somewhere in the domain (w - 3 at w <= 3,
// where no column lies in 0..w - 4; assumed away, it splits), a pitch
// the extent does not declare, and an extent whose candidate pitch is
// past int64 (its coefficient overflowed to 0 and was divided by).
func TestAffinePitchRefusals(t *testing.T) {
	neg := "kernel k\ndomain [w, h] -> { [y, x] : 0 <= y < h and 0 <= x < 1 }\narray a f32 [h*(w - 3)]\narray o f32 [h]\ntag x l.0\no[y] = a[y*(w - 3) + x]\n"
	for _, tc := range []struct{ name, src, want string }{
		{"row overlaps the next", overlappingRows, "the index 224*y_out + 14*y_in + 15*k + 16*x_out + x_in, weighed by 1, leaves 0..w-1 at some points"},
		{"pitch not positive", neg, "the index -3*y + x, weighed by 1, leaves 0..w-1 at [w, h] -> { h : w <= 0 and h >= 1; (-1 + h) : w >= 1 and h >= 2 } points"},
		{"pitch not declared", strings.Replace(paddedRows, "[(h + 14)*(w + 14)]", "[(h + 14)*(w + 14) + 1]", 1), "leaves 0..w-1 at some points"},
		// an extent whose candidate pitch, 2^64*n + 1, is past int64.
		{"pitch past int64", "kernel k\ndomain [n] -> { [i, j] : 0 <= i < n and 0 <= j < n }\narray a f32 [4611686018427387904*n*n*n*n + n*n*n]\narray o f32 [n, n]\no[i, j] = a[i*n + 2*j]\n",
			"the index 2*j, weighed by 1, leaves 0..n-1 at [n] -> { n * floor(n/2) : n >= 2 } points"},
	} {
		_, err := countedSrc(t, "refused.knl", tc.src).Hierarchy()
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "declare the array with a dimension per pitch") {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	hs, err := countedSrc(t, "assumed.knl", strings.Replace(neg, "array a", "assume w >= 4\narray a", 1)).Hierarchy()
	if err != nil {
		t.Fatal(err)
	}
	if hs[0].Name != FootprintLaunch || hs[0].Array != "a" || hs[0].Expression != "[w, h] -> { 4 * h : w >= 4 and h >= 1 }" {
		t.Errorf("with w >= 4 assumed, %v, want a's launch footprint 4*h bytes (a cell a row)", hs[0])
	}
}
