package counts

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/measurekernels/library"
)

// TestCountWithAtMatchesEnumeration counts every library kernel of the
// plan and count checks at their sizes with the parameters fixed, and
// compares each property with the counting plan evaluated by
// enumeration there.
func TestCountWithAtMatchesEnumeration(t *testing.T) {
	for _, c := range append(planChecks(), countChecks()...) {
		t.Run(fmt.Sprintf("%s/%v/%v", c.kernel, c.consts, c.params), func(t *testing.T) {
			src, err := library.Source(c.kernel)
			if err != nil {
				t.Fatal(err)
			}
			k, err := ParseKernel(library.FileName(c.kernel), src, c.consts)
			if err != nil {
				t.Fatal(err)
			}
			checkFixedAgainstPlan(t, k, c.params)
		})
	}
}

// checkFixedAgainstPlan compares CountWithAt's Eval at params with the
// plan evaluated there by enumeration.
func checkFixedAgainstPlan(t *testing.T, k *Kernel, params map[string]int64) {
	t.Helper()
	fixed, err := CountWithAt(k, Options{}, params)
	if err != nil {
		t.Fatal(err)
	}
	got, err := fixed.Eval(params)
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlan(k, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.concrete(params, 1e9)
	if err != nil {
		t.Fatal(err)
	}
	compareProps(t, got, b.props)
	compareProps(t, b.props, got)
}

// TestCountWithAtTiles counts the tiled convolution of the examples at
// bindings of its block and tile sizes whose tiles divide the image, and
// do not, against enumeration.
func TestCountWithAtTiles(t *testing.T) {
	src, err := os.ReadFile("../examples/convolution_kernel.knl")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range [][4]int64{{4, 2, 1, 1}, {4, 2, 2, 3}, {8, 4, 2, 1}, {2, 8, 1, 2}} {
		consts := map[string]int64{"BX": b[0], "BY": b[1], "TX": b[2], "TY": b[3], "FH": 3, "FW": 5, "PAD": 1}
		for _, params := range []map[string]int64{{"h": 16, "w": 16}, {"h": 13, "w": 10}} {
			t.Run(fmt.Sprint(consts, params), func(t *testing.T) {
				k, err := ParseKernel("convolution_kernel.knl", src, consts)
				if err != nil {
					t.Fatal(err)
				}
				checkFixedAgainstPlan(t, k, params)
			})
		}
	}
}

// TestCountWithAtOnlyThere checks that a count at fixed parameters
// refuses other parameters and every count as a function of them, and
// counts FootprintsAt at its sizes as CountWith's does.
func TestCountWithAtOnlyThere(t *testing.T) {
	src, err := library.Source("matmul_tiled")
	if err != nil {
		t.Fatal(err)
	}
	k, err := ParseKernel(library.FileName("matmul_tiled"), src, nil)
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]int64{"n": 40, "m": 37, "ell": 33}
	for _, bad := range []map[string]int64{{"n": 40, "m": 37}, {"n": 40, "m": 37, "ell": 33, "q": 1}} {
		if _, err := CountWithAt(k, Options{}, bad); err == nil || !strings.Contains(err.Error(), "counting at fixed sizes") {
			t.Errorf("CountWithAt at %v: %v, want an error naming the parameter", bad, err)
		}
	}
	c, err := CountWithAt(k, Options{}, params)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.CheckBounds(params); err != nil {
		t.Errorf("CheckBounds at its sizes: %v", err)
	}
	other := map[string]int64{"n": 40, "m": 37, "ell": 32}
	refused := map[string]error{}
	_, refused["Eval elsewhere"] = c.Eval(other)
	refused["CheckBounds elsewhere"] = c.CheckBounds(other)
	_, refused["Properties"] = c.Properties()
	_, _, refused["PropertiesAt"] = c.PropertiesAt(params)
	_, refused["Breakdown"] = c.Breakdown(ByInstruction)
	_, _, refused["BreakdownAt elsewhere"] = c.BreakdownAt(ByInstruction, other)
	_, refused["Footprints"] = c.Footprints()
	_, refused["Hierarchy"] = c.Hierarchy()
	_, refused["IterFootprints"] = c.IterFootprints()
	_, refused["Compile"] = c.Compile(c.Names())
	_, refused["Weighted"] = c.Weighted(map[string]float64{})
	for what, err := range refused {
		if err == nil || !strings.Contains(err.Error(), "was counted at n=40, m=37, ell=33 only") {
			t.Errorf("%s: %v, want a refusal", what, err)
		}
	}
	// Every cell of a (n x m), b (m x ell) and c (n x ell) is touched,
	// though the 16 x 16 tiles divide none of the sizes.
	fps, sizes, err := c.FootprintsAt(params)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"a": 40 * 37, "b": 37 * 33, "c": 40 * 33}
	for i, f := range fps {
		if sizes[i].Elements != want[f.Array] {
			t.Errorf("footprint of %s: %d elements, want %d", f.Array, sizes[i].Elements, want[f.Array])
		}
	}
	if len(fps) != len(want) {
		t.Errorf("%d footprints, want %d", len(fps), len(want))
	}
}
