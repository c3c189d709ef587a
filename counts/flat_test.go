package counts

import (
	"fmt"
	"maps"
	"strconv"
	"strings"
	"testing"
)

// flat2d is testdata/lang/flat.knl written with an array dimension per
// index, as the counts of the flattened kernel must be.
const flat2d = `kernel flat2d
const LX = 4
domain [nx, ny, nz] -> { [i, j, k] : 0 <= i < nx and 0 <= j < ny and 0 <= k < nz }
array a f32 [nz, ny, nx]
array b f32 [nx, ny]
array t f32 [nx, ny]
array c f32 [nz, ny, nx]
array d f32 [nz, ny, nx]
split i LX i_out i_in
tag i_in l.0, i_out g.0, j g.1
c[k, j, i] = a[k, j, i] + b[i, j]
t[i, ny - 1 - j] = 2*b[i, j]
if j >= 1: d[k, j, i] = b[nx - 1 - i, j - 1]
`

// TestFlatIndexing checks that flattened subscripts count as the
// subscripts of the arrays they flatten: strides, stride classes (from
// footprints split into dimensions) and everything else.
func TestFlatIndexing(t *testing.T) {
	flat, err := Count(langKernel(t, "flat", nil))
	if err != nil {
		t.Fatal(err)
	}
	k2, err := ParseKernel("flat2d.knl", []byte(flat2d), nil)
	if err != nil {
		t.Fatal(err)
	}
	twin, err := Count(k2)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range append(flatParams, map[string]int64{"nx": 100, "ny": 37, "nz": 5}) {
		checkSameCounts(t, p, flat, twin)
	}
}

// checkSameCounts checks that a flattened kernel's counts at p equal
// those of its twin written with a dimension per pitch.
func checkSameCounts(t *testing.T, p map[string]int64, flat, twin *Counted) {
	t.Helper()
	got, err := flat.Eval(p)
	if err != nil {
		t.Fatal(err)
	}
	want, err := twin.Eval(p)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(got, want) {
		t.Errorf("at %v: flattened %v, with a dimension per pitch %v", p, got, want)
	}
}

// TestFlatIndexingErrors checks what stays refused: a footprint (needed
// by a strided access) of subscripts that do not split into dimensions.
func TestFlatIndexingErrors(t *testing.T) {
	const head = "kernel k\ndomain [n, m] -> { [i, j] : 0 <= i < n and 0 <= j < m }\narray a f32 [n*m]\narray b f32 [n, m]\ntag i l.0\n"
	cases := []struct{ name, body, msg string }{
		{"not a chain", "b[i, j] = a[i*n + j*m]\n", "weigh inames by n and m, which are not a chain"},
		{"inner index overruns", "b[i, j] = a[i*m + j + 1]\n", "the index j + 1, weighed by 1, leaves 0..m-1"},
		{"columns differ", "b[i, j] = a[i*m + n] + a[i*m + n + 1]\n", "the index n, weighed by 1, leaves 0..m-1"},
		{"lane in a floor", "b[i // 2, j] = 1\n", "the l.0 iname i is inside a floor division or remainder"},
		{"two dimensions", "array z f32 [n*m, 2]\nb[i, j] = z[i*m + j, 1]\n", "a subscript of an array of 2 dimensions multiplies an iname by a parameter"},
		{"floor in a flattened subscript", "b[i, j] = a[i*m + j // 2]\n", "a flattened subscript with a floor division or remainder (i*m + floor((j)/2)) does not split into dimensions"},
		{"too many parameter terms", "array y f32 [(n + 1)*m*m*m*m]\nb[i, j] = y[i*m*m*m*m + m*m*m*m + m*m*m + m*m + m + j]\n", "has 4 terms of parameters alone, more than the 3 whose dimension delinearization chooses"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			k, err := ParseKernel("test.knl", []byte(head+tc.body), nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Count(k)
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %v, want %q", err, tc.msg)
			}
			if hint := "declare the array with a dimension per pitch"; (strings.Contains(tc.msg, "weigh") || strings.Contains(tc.msg, "flattened") || strings.Contains(tc.msg, "parameters alone")) && !strings.Contains(err.Error(), hint) {
				t.Errorf("error %v, want the hint %q", err, hint)
			}
		})
	}
}

// TestFlatStrideAssumption checks that the accesses whose stride is a
// parameter (b[i*ny + j] and t[i*ny + ny - 1 - j] along i) say when
// their class >4 is exact.
func TestFlatStrideAssumption(t *testing.T) {
	c, err := Count(langKernel(t, "flat", nil))
	if err != nil {
		t.Fatal(err)
	}
	props, err := c.Properties()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"global.load.f32.stride=k/>4": "ny > 4", "global.store.f32.stride=k/>4": "ny > 4"}
	for _, p := range props {
		if got := strings.Join(p.Assumed, ", "); got != want[p.Name] {
			t.Errorf("%s: assumed %q, want %q", p.Name, got, want[p.Name])
		}
	}
}

// TestFlatSubscriptOps checks the arithmetic of flattened subscripts
// against a count by hand: a[2*i*n + j] takes an add and two muls (by 2
// and by n) per access, b[i, j] none.
func TestFlatSubscriptOps(t *testing.T) {
	src := "kernel k\ndomain [n] -> { [i, j] : 0 <= i, j < n }\narray a f32 [2*n*n]\narray b f32 [n, n]\nb[i, j] = a[2*i*n + j]\n"
	k, err := ParseKernel("test.knl", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := CountWith(k, Options{CountSubscripts: true})
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Eval(map[string]int64{"n": 7})
	if err != nil {
		t.Fatal(err)
	}
	if got["int.i32.add"] != 49 || got["int.i32.mul"] != 98 {
		t.Errorf("int.i32.add %d, int.i32.mul %d; want 49 and 98", got["int.i32.add"], got["int.i32.mul"])
	}
}

// paramOffsets has flattened subscripts with terms of parameters alone
// that are no pitch: a row offset s times the pitch m (a[i*m + s*m +
// j], row i + s) and a column t that no iname shares (b[i*m + t], the
// same column t in every reference to b). paramOffsets2d writes them
// with a dimension per pitch, as the counts of the flattened kernel must
// be where 0 <= t < m.
const (
	paramOffsets = `kernel k
domain [n, m, s, t] -> { [i, j] : 1 <= i < n and 0 <= j < m }
assume 0 <= s <= 2
array a f32 [(n + 2)*m]
array b f32 [(n + 2)*m]
array c f32 [n, m]
tag i l.0
c[i, j] = a[i*m + s*m + j] + b[i*m + t] + b[(i + 1)*m + t]
`
	paramOffsets2d = `kernel k
domain [n, m, s, t] -> { [i, j] : 1 <= i < n and 0 <= j < m }
assume 0 <= s <= 2 and 0 <= t < m
array a f32 [n + 2, m]
array b f32 [n + 2, m]
array c f32 [n, m]
tag i l.0
c[i, j] = a[i + s, j] + b[i, t] + b[i + 1, t]
`
)

// TestFlatParameterOffsets checks that flattened subscripts with
// parameter offsets split symbolically: their footprints equal the
// elements the interpreter touches, also where the column t lies outside
// 0..m-1 (b[i*m + 9] with m = 7 reaches into the next row, the same in
// every reference, so distinct rows stay distinct elements), and every
// count equals that of the kernel written with a dimension per pitch
// where t lies inside.
func TestFlatParameterOffsets(t *testing.T) {
	k, err := ParseKernel("offsets.knl", []byte(paramOffsets), nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Count(k)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Footprints(); err != nil {
		t.Fatalf("no symbolic footprints: %v", err)
	}
	k2, err := ParseKernel("offsets2d.knl", []byte(paramOffsets2d), nil)
	if err != nil {
		t.Fatal(err)
	}
	twin, err := Count(k2)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []map[string]int64{{"n": 6, "m": 7, "s": 1, "t": 9}, {"n": 6, "m": 7, "s": 0, "t": -1},
		{"n": 6, "m": 7, "s": 1, "t": 3}, {"n": 9, "m": 5, "s": 2, "t": 0}} {
		tl, err := Run(k, p, randomArrays(t, k, p), &RunOptions{Trace: true})
		if err != nil {
			t.Fatal(err)
		}
		fps, sizes, err := c.FootprintsAt(p)
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range fps {
			touched := tl.Loaded
			if f.Store {
				touched = tl.Stored
			}
			if want := int64(len(touched[f.Array])); sizes[i].Elements != want {
				t.Errorf("at %v: %s %s footprint %d, the interpreter touched %d elements", p, f.Array, direction(f.Store), sizes[i].Elements, want)
			}
		}
		if p["t"] >= 0 && p["t"] < p["m"] {
			checkSameCounts(t, p, c, twin)
		}
	}
}

// paddedRows reads a padded image flattened with the pitch w + 14, along
// a 15-point diagonal: the pitch is no parameter, but the extent declares
// it.
const paddedRows = `kernel w14
domain [w, h] -> { [y, x] : 0 <= y < h and 0 <= x < w }
domain { [k] : 0 <= k < 15 }
array in f32 [(h + 14)*(w + 14)]
array out f32 [h*w]
split x 16 x_out x_in
split y 16 y_out y_in
tag x_out g.0, x_in l.0, y_out g.1, y_in l.1
out[y*w + x] = sum(k, in[(y + k)*(w + 14) + x + k])
`

// countedSrc parses and counts a kernel's text.
func countedSrc(t *testing.T, file, src string) *Counted {
	t.Helper()
	k, err := ParseKernel(file, []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Count(k)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A flattened subscript whose rows of pitch w + 14 overlap, under a
// 16-point reduction, leaves its row at a count of tens of kilobytes:
// the refusal says "some points" instead and keeps the advice readable,
// and the footprint is counted at sizes, equal to the distinct cells
// (y + k)*54 + x + k of the domain, enumerated, at w = h = 40.
func TestFlatPitchRefusalShort(t *testing.T) {
	c := countedSrc(t, "w14.knl", overlappingRows)
	_, err := c.Footprints()
	if err == nil || len(err.Error()) > 1000 || !strings.Contains(err.Error(), "leaves 0..w-1 at some points") || !strings.Contains(err.Error(), "declare the array with a dimension per pitch") {
		t.Fatalf("error of %d bytes: %.400v", len(fmt.Sprint(err)), err)
	}
	fs, _, err := c.FootprintsAt(map[string]int64{"w": 40, "h": 40})
	if err != nil {
		t.Fatal(err)
	}
	cells := map[int]bool{}
	for y := range 40 {
		for x := range 40 {
			for k := range 16 {
				cells[(y+k)*54+x+k] = true
			}
		}
	}
	want, found := strconv.Itoa(len(cells)), false
	for _, f := range fs {
		if f.Array == "in" {
			found = true
			if !f.AtSizes || f.Elements != want {
				t.Errorf("in's load footprint: %s elements (at sizes %v), want %s", f.Elements, f.AtSizes, want)
			}
		}
	}
	if !found {
		t.Error("no footprint of in")
	}
}
