package fit

import (
	"math"
	"strings"
	"testing"
)

// fillRuns times a kernel of fixed work per work-item by the closed form
// ReadSaturation assumes, worked out here apart from it: launch seconds
// plus perItem seconds for each work-item of the busiest of units units,
// which takes as long as sat work-items when it holds fewer; groups from
// 1 to 2048 (doubling) of each size.
func fillRuns(units, sat int64, launch, perItem float64, sizes ...int64) []FillRun {
	var runs []FillRun
	for g := int64(1); g <= 2048; g *= 2 {
		for _, wg := range sizes {
			busiest := g / units * wg
			if g%units != 0 {
				busiest += wg
			}
			work := float64(units) * float64(max(busiest, sat))
			runs = append(runs, FillRun{Groups: g, GroupSize: wg, Time: launch + perItem*work})
		}
	}
	return runs
}

func TestReadSaturation(t *testing.T) {
	for _, c := range []struct {
		units, sat int64
		sizes      []int64
	}{
		{132, 192, []int64{64, 128, 256, 512, 1024}},
		{132, 640, []int64{64, 128, 256, 512, 1024}},
		{132, 800, []int64{64, 128, 256}}, // above every group: read from how many groups share a unit
		{16, 96, []int64{32, 64}},
	} {
		runs := fillRuns(c.units, c.sat, 7e-6, 3e-11, c.sizes...)
		sat, rms, err := ReadSaturation(runs, c.units)
		if err != nil {
			t.Fatal(err)
		}
		if sat != c.sat || rms > 1e-9 {
			t.Errorf("%d units, runs timed with %d: read %d (rms %g)", c.units, c.sat, sat, rms)
		}
	}
}

// A few percent of noise moves the reading by no more than a step or two:
// the runs' floor and their rise, not any one run, set it.
func TestReadSaturationNoise(t *testing.T) {
	runs := fillRuns(132, 640, 7e-6, 3e-11, 64, 128, 256, 512, 1024)
	for i := range runs {
		runs[i].Time *= 1 + 0.03*math.Sin(float64(7*i))
	}
	sat, rms, err := ReadSaturation(runs, 132)
	if err != nil {
		t.Fatal(err)
	}
	if sat < 640-2*SaturationStep || sat > 640+2*SaturationStep || rms > 0.03 {
		t.Errorf("read %d (rms %g) from runs timed with 640 and 3%% noise", sat, rms)
	}
}

func TestReadSaturationRefuses(t *testing.T) {
	full := fillRuns(4, 0, 1e-6, 1e-9, 4096) // every run fills every unit past any saturation tried
	flat := fillRuns(132, 0, 5e-5, 0, 64)    // the time never grows
	// The quick suite's grids, 1 and 8 groups of 64 and 256 on 132
	// units: every unit holds one group at most, so that the runs give
	// two levels of work, which a fixed time and a rate fit exactly with
	// any saturation below 256.
	var quick []FillRun
	for _, g := range []int64{1, 8} {
		for _, wg := range []int64{64, 256} {
			quick = append(quick, FillRun{Groups: g, GroupSize: wg, Time: 5e-6 + 3e-11*132*float64(max(wg, 192))})
		}
	}
	for _, c := range []struct {
		runs  []FillRun
		units int64
		want  string
	}{
		{full[:2], 4, "at least 3"},
		{full, 0, "compute units"},
		{[]FillRun{{1, 64, 1e-5}, {2, 64, 0}, {4, 64, 1e-5}}, 4, "run 2"},
		{[]FillRun{{1, 64, 1e-5}, {2, 64, math.Inf(1)}, {4, 64, 1e-5}}, 4, "run 2"},
		{[]FillRun{{0, 64, 1e-5}, {2, 64, 1e-5}, {4, 64, 1e-5}}, 4, "run 1"},
		{flat, 132, "do not grow"},
		{full, 4, "alike"},
		{quick, 132, "from 0 to 224"},
	} {
		_, _, err := ReadSaturation(c.runs, c.units)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%d runs on %d units: error %v, want one saying %q", len(c.runs), c.units, err, c.want)
		}
	}
}

func TestGridFillGlobal(t *testing.T) {
	g := GridFill{Units: 132, Saturation: 192, Latency: new(int64), Global: new(int64)}
	*g.Latency, *g.Global = 640, 800
	// One group of 256 on 132 units: each factor is 132·max(256, S)/256,
	// worked by hand.
	for p, want := range map[string]float64{
		"flop.f32.add":                132,
		"local.load.f32":              132 * 640.0 / 256,
		"flop.f32.special":            132 * 640.0 / 256,
		"global.load.f32.stride=1":    132 * 800.0 / 256,
		"global.store.f32.stride=1":   132 * 800.0 / 256,
		"global.minldst.f32.stride=1": 132 * 800.0 / 256,
		"global.load.f32.stride=3/3":  132 * 800.0 / 256, // filled: coalesced like stride 1
		"global.load.f32.stride=4/>4": 132,               // uncoalesced: the shared saturation
		"global.load.f32.stride=1/2":  132,
		"global.load.f32.stride=0":    132,
		"launch.groups":               1,
	} {
		if got := g.Scale(p, 1, 256); math.Abs(got-want) > 1e-12*want {
			t.Errorf("Scale(%s) = %g, want %g", p, got, want)
		}
	}
	if s := g.String(); !strings.Contains(s, "800 for the coalesced global accesses") {
		t.Errorf("String() = %q", s)
	}
	*g.Global = -1
	if g.Validate() == nil {
		t.Error("a negative global saturation validated")
	}
}
