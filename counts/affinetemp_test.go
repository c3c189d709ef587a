package counts

import (
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
)

// affineTempParams are sizes for testdata/lang/affinetemp.knl and its
// written-out twin: LX = 4 dividing n and not, one trip of i, the least.
var affineTempParams = []map[string]int64{{"n": 6, "m": 3}, {"n": 8, "m": 2}, {"n": 1, "m": 1}}

// TestAffineTempHandCounts checks testdata/lang/affinetemp.knl against
// hand counts: per (t, i), a[ind] and c[ind] load at stride 1 along
// t_in, x[c[ind]] gathers, y[ind] stores at stride 1; a[next] loads where
// nx < m, i < m - 1, exactly (no upper bound); the temporaries count
// their own i32 operations (ind: a mul and an add, next and nx an add).
func TestAffineTempHandCounts(t *testing.T) {
	c, err := Count(langKernel(t, "affinetemp", nil))
	if err != nil {
		t.Fatal(err)
	}
	if b := c.Bounds(); len(b) > 0 {
		t.Errorf("upper bounds %v, want none: the guard nx < m is affine", b)
	}
	for _, p := range affineTempParams {
		n, m := p["n"], p["m"]
		got, err := c.Eval(p)
		if err != nil {
			t.Fatal(err)
		}
		compareProps(t, got, map[string]int64{
			"global.ldg.f32.stride=1":   n*m + n*(m-1),
			"global.load.i32.stride=1":  n * m,
			"global.load.indirect.f32":  n * m,
			"global.store.f32.stride=1": n*m + n,
			"flop.f32.add":              n*m + n*(m-1),
			"flop.f32.mul":              n * m,
			"int.i32.add":               3 * n * m,
			"int.i32.mul":               n * m,
			"launch.groups":             (n + 3) / 4,
			"launch.const":              1,
		})
	}
}

// TestAffineTempAsWrittenOut checks that subscripting by the temporaries
// counts what writing their expressions in place counts: every property,
// the footprints and the bounds checks alike, but for the temporaries'
// own i32 operations, which the twin does not have.
func TestAffineTempAsWrittenOut(t *testing.T) {
	ktemp, kwritten := langKernel(t, "affinetemp", nil), langKernel(t, "affinetemp_written", nil)
	temp, err := Count(ktemp)
	if err != nil {
		t.Fatal(err)
	}
	written, err := Count(kwritten)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range affineTempParams {
		got, err := temp.Eval(p)
		if err != nil {
			t.Fatal(err)
		}
		want, err := written.Eval(p)
		if err != nil {
			t.Fatal(err)
		}
		// Per trip, ind's mul and add, next's and nx's adds, against
		// the twin's guard's add.
		want["int.i32.add"] += 2 * p["n"] * p["m"]
		want["int.i32.mul"] += p["n"] * p["m"]
		if !maps.Equal(got, want) {
			t.Errorf("at %v: through temporaries %v, written out %v", p, got, want)
		}
		if err := temp.CheckBounds(p); err != nil {
			t.Errorf("at %v: %v", p, err)
		}
	}
	// Footprints count no gather: x[ind] and x[i*n + t] in place of it.
	for _, p := range affineTempParams {
		n, m := p["n"], p["m"]
		fpTemp, sizeTemp := footprintsAt(t, variant(t, ktemp, "x[c[ind]]", "x[ind]"), p)
		fpWritten, sizeWritten := footprintsAt(t, variant(t, kwritten, "x[c[i*n + t]]", "x[i*n + t]"), p)
		if !slices.Equal(fpTemp, fpWritten) || !slices.Equal(sizeTemp, sizeWritten) {
			t.Errorf("at %v: footprints through temporaries %v %v, written out %v %v", p, fpTemp, sizeTemp, fpWritten, sizeWritten)
		}
		// a, x and y are read or written in every cell, out in n.
		hand := map[string]int64{"a": n * m, "x": n * m, "y": n * m, "out": n}
		for i, fp := range fpTemp {
			if sizeTemp[i].Elements != hand[fp.Array] {
				t.Errorf("at %v: footprint of %s: %d elements, want %d", p, fp.Array, sizeTemp[i].Elements, hand[fp.Array])
			}
		}
	}
	// Unguarded, a[next] reads past the end at i = m - 1: next = m*n + t,
	// 6..23 at n = 6, m = 3, where a has 18 cells.
	p := map[string]int64{"n": 6, "m": 3}
	errTemp := variant(t, ktemp, "if nx < m: ", "").CheckBounds(p)
	errWritten := variant(t, kwritten, "if i + 1 < m: ", "").CheckBounds(p)
	const want = "a[i*n + 4*t_out + t_in + n] is out of bounds at n=6, m=3: its subscript 1 (i*n + 4*t_out + t_in + n) takes 6..23, and a has extent 18 there"
	for _, err := range []error{errTemp, errWritten} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("bounds check: %v, want %q", err, want)
		}
	}
}

// variant counts kernel k with the first from in its source replaced by
// to.
func variant(t *testing.T, k *Kernel, from, to string) *Counted {
	t.Helper()
	src, err := os.ReadFile(k.File)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), from) {
		t.Fatalf("%s has no %q", k.File, from)
	}
	c, err := Count(parseSrc(t, k.Name, strings.Replace(string(src), from, to, 1)))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func footprintsAt(t *testing.T, c *Counted, p map[string]int64) ([]Footprint, []FootprintSize) {
	t.Helper()
	fps, sizes, err := c.FootprintsAt(p)
	if err != nil {
		t.Fatal(err)
	}
	return fps, sizes
}

// TestAffineTempStaysIndirect checks the temporaries whose value at a use
// may differ from their expression there: a read of them stays a gather
// or scatter, as before (hand counts: one store a trip). Under the if
// block that declares them, they are affine (2 stores, t < 2, none
// indirect).
func TestAffineTempStaysIndirect(t *testing.T) {
	const head = "kernel k\ndomain [n, m] -> { [t, i] : 0 <= t < n and 0 <= i < m }\narray y f32 [m*n + n]\n"
	cases := []struct {
		name, body string
		stores     func(n, m int64) int64
	}{
		{"reassigned in a loop", "for t\n  <i32> ind = t\n  for i\n    y[ind] = 1.0f\n    ind = ind + n\n  end\nend\n",
			func(n, m int64) int64 { return n * m }},
		{"another loop over i", "for t\n  for i\n    <i32> ind = i*n + t\n  end\n  for i\n    y[ind] = 1.0f\n  end\nend\n",
			func(n, m int64) int64 { return n * m }},
		{"declared under an if", "for t\n  if t < 2: <i32> ind = t\n  y[ind] = 1.0f\nend\n",
			func(n, m int64) int64 { return n }},
		{"unsigned", "for t\n  <u32> ind = t\n  y[ind] = 1.0f\nend\n",
			func(n, m int64) int64 { return n }},
		{"narrow", "for t\n  <i16> ind = t\n  y[ind] = 1.0f\nend\n",
			func(n, m int64) int64 { return n }},
		{"affine under its if block", "for t\n  if t < 2\n    <i32> ind = t\n    <i32> j = ind + 1\n    y[j] = 1.0f\n  end\nend\n",
			func(n, m int64) int64 { return 0 }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Count(parseSrc(t, "k", head+tc.body))
			if err != nil {
				t.Fatal(err)
			}
			p := map[string]int64{"n": 5, "m": 3}
			got, err := c.Eval(p)
			if err != nil {
				t.Fatal(err)
			}
			if want := tc.stores(5, 3); got["global.store.indirect.f32"] != want {
				t.Errorf("global.store.indirect.f32 = %d, want %d (counts %v)", got["global.store.indirect.f32"], want, got)
			}
			if want := int64(2); tc.stores(5, 3) == 0 && sumClasses(got)["global.store.f32"] != want {
				t.Errorf("global.store.f32 = %d, want %d (counts %v)", sumClasses(got)["global.store.f32"], want, got)
			}
		})
	}
}

// TestAffineTempRunsAsWrittenOut runs affinetemp.knl and its written-out
// twin in the reference interpreter on the same data: they store the
// same values and load and store the same cells.
func TestAffineTempRunsAsWrittenOut(t *testing.T) {
	ktemp, kwritten := langKernel(t, "affinetemp", nil), langKernel(t, "affinetemp_written", nil)
	for _, p := range affineTempParams {
		in := randomArrays(t, ktemp, p)
		run := func(k *Kernel) (*Tally, map[string]any) {
			arrays := map[string]any{}
			for name, v := range in {
				switch v := v.(type) {
				case []float32:
					arrays[name] = slices.Clone(v)
				case []int32:
					arrays[name] = slices.Clone(v)
				}
			}
			tl, err := Run(k, p, arrays, &RunOptions{Trace: true})
			if err != nil {
				t.Fatal(err)
			}
			return tl, arrays
		}
		tlTemp, outTemp := run(ktemp)
		tlWritten, outWritten := run(kwritten)
		for _, name := range []string{"y", "out"} {
			if !slices.Equal(outTemp[name].([]float32), outWritten[name].([]float32)) {
				t.Errorf("at %v: %s through temporaries %v, written out %v", p, name, outTemp[name], outWritten[name])
			}
		}
		if len(tlTemp.Footprints) != 5 || !maps.EqualFunc(tlTemp.Footprints, tlWritten.Footprints, maps.Equal) {
			t.Errorf("at %v: cells touched through temporaries %v, written out %v", p, tlTemp.Footprints, tlWritten.Footprints)
		}
	}
}
