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

func TestGridFillScale(t *testing.T) {
	// 16 groups of 256 on 132 units: the busiest unit runs 256
	// work-items. Worked by hand: at a saturation of 192 the factor is
	// 132·256/(16·256) = 8.25; at 640 it is 132·640/(16·256) = 20.625.
	lat := int64(640)
	split := GridFill{Units: 132, Saturation: 192, Latency: &lat}
	one := GridFill{Units: 132, Saturation: 192}
	for _, c := range []struct {
		property   string
		split, one float64
	}{
		{"launch.groups", 1, 1},
		{"launch.const", 1, 1},
		{"flop.f32.add", 8.25, 8.25},
		{"global.load.f32.stride=1", 8.25, 8.25},
		{"sync.barrier", 8.25, 8.25},
		{"flop.f32.special", 20.625, 8.25},
		{"flop.f64.div", 20.625, 8.25},
		{"local.load.f32", 20.625, 8.25},
		{"local.f32.conflict=32", 20.625, 8.25},
	} {
		if got := split.Scale(c.property, 16, 256); math.Abs(got-c.split) > 1e-12*c.split {
			t.Errorf("%s with a latency saturation of 640: %g, want %g", c.property, got, c.split)
		}
		if got := one.Scale(c.property, 16, 256); math.Abs(got-c.one) > 1e-12*c.one {
			t.Errorf("%s with one saturation: %g, want %g", c.property, got, c.one)
		}
	}
	// A grid of whole saturated waves is scaled by 1 either way: 1320
	// groups of 1024 run 10 groups, 10240 work-items, on every unit.
	if f := split.Scale("local.load.f32", 1320, 1024); f != 1 {
		t.Errorf("filled grid: %g", f)
	}
	neg := int64(-1)
	if (GridFill{Units: 4, Latency: &neg}).Validate() == nil {
		t.Error("a negative latency saturation accepted")
	}
	if got, want := split.String(), "132 compute units, saturated at 192 work-items a unit, 640 for the latency-bound properties"; got != want {
		t.Errorf("String: %q, want %q", got, want)
	}
}

func TestLatencyBound(t *testing.T) {
	for p, want := range map[string]bool{
		"local.load.f32": true, "local.store.f32": true, "local.f32.conflict=2": true,
		"flop.f32.div": true, "flop.f64.pow": true, "flop.f32.special": true,
		"flop.f32.add": false, "flop.f64.mul": false, "global.load.f32.stride=1": false,
		"global.load.f32.stride=0": false, "sync.barrier": false, "launch.groups": false,
	} {
		if LatencyBound(p) != want {
			t.Errorf("LatencyBound(%s) = %v", p, !want)
		}
	}
}
