package fit

import (
	"math"
	"testing"
)

func TestGridFillFactor(t *testing.T) {
	// Each want is worked by hand from the definition: busiest unit
	// ⌈G/U⌉·wg work-items, at least the saturation, times U, over G·wg.
	cases := []struct {
		units, sat, groups, size int64
		want                     float64
	}{
		{132, 0, 16, 256, 132.0 / 16},                 // 16 of 132 SMs busy, one group each
		{132, 576, 16, 256, 132 * 576.0 / (16 * 256)}, // one group of 256 is under the saturation
		{132, 256, 264, 256, 1},                       // two whole waves, each unit saturated
		{132, 0, 133, 64, 264.0 / 133},                // a second wave of one group
		{2, 768, 4, 256, 2 * 768.0 / 1024},            // PoCL: 512 work-items a core, under 768
		{8, 256, 1303, 256, 8 * 163 * 256.0 / (1303 * 256)},
		{1, 0, 7, 32, 1},     // one unit runs everything in turn
		{132, 64, 0, 256, 1}, // nothing launched: nothing to scale
	}
	for _, c := range cases {
		g := GridFill{Units: c.units, Saturation: c.sat}
		if got := g.Factor(c.groups, c.size); math.Abs(got-c.want) > 1e-12*c.want {
			t.Errorf("%+v: factor of %d groups of %d is %g, want %g", g, c.groups, c.size, got, c.want)
		}
	}
}

func TestGridFillValidate(t *testing.T) {
	for _, g := range []GridFill{{Units: 0}, {Units: -1}, {Units: 4, Saturation: -1}} {
		if g.Validate() == nil {
			t.Errorf("%+v accepted", g)
		}
	}
	if err := (GridFill{Units: 1}).Validate(); err != nil {
		t.Error(err)
	}
	w := &Weights{Device: "d", Model: ModelUnified, Properties: []string{"launch.const"}, Values: []float64{1}, Fill: &GridFill{}}
	if w.Validate() == nil {
		t.Error("weights with a grid fill of no units validated")
	}
}

func TestScaled(t *testing.T) {
	for p, want := range map[string]bool{"launch.const": false, "launch.groups": false, "flop.f32.add": true,
		"global.load.f32.stride=1": true, "sync.barrier": true} {
		if Scaled(p) != want {
			t.Errorf("Scaled(%s) = %v", p, !want)
		}
	}
}
