package linear

import (
	"maps"
	"slices"
	"testing"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/models"
)

// gridFillLocalLatency are grid_fill_local's latency-bound properties, as
// fit.LatencyBound's documentation (local accesses, special functions)
// classes them, written out by hand: its addition, barrier and global
// store are not.
var gridFillLocalLatency = []string{"local.load.f32", "local.store.f32", "flop.f32.special"}

// grid_fill_local's properties are its local load and store (the group's
// M = 32 stores to t, the loads of its nr*M steps), its addition and
// rsqrt, its barrier and global store and the launch terms;
// fit.LatencyBound classes the local accesses and the rsqrt as
// latency-bound and the rest not, and every latency-bound property is
// one n-body has, whose saturation the class is there to pin.
func TestGridFillLocalLatencyBound(t *testing.T) {
	c := models.NewCounter(nil)
	got, err := c.Counts("grid_fill_local", map[string]int64{"LX": 256}, map[string]int64{"ng": 4, "nr": 32})
	if err != nil {
		t.Fatal(err)
	}
	nbody, err := c.Counts("nbody", nil, map[string]int64{"n": 4096})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"flop.f32.add", "flop.f32.special", "global.store.f32.stride=1", "launch.const", "launch.groups",
		"local.load.f32", "local.store.f32", "sync.barrier"}
	if props := slices.Sorted(maps.Keys(got)); !slices.Equal(props, want) {
		t.Fatalf("properties %v, want %v", props, want)
	}
	for p := range got {
		if lat := slices.Contains(gridFillLocalLatency, p); fit.LatencyBound(p) != lat {
			t.Errorf("LatencyBound(%s) = %v, want %v", p, !lat, lat)
		}
		if fit.LatencyBound(p) && nbody[p] == 0 {
			t.Errorf("n-body has no %s", p)
		}
	}
}

// Rows of grid_fill_chain and grid_fill_local as the paper suite runs them
// (ng = 1 to 2048, K = 4096 additions and 32 rounds of M = 32 steps, 1024
// steps; here groups of 64 and 256), timed
// with one saturation for every scaled count but grid_fill_local's
// latency-bound ones (gridFillLocalLatency, by hand) and another for
// those, each factor worked by hand (handFill with the groups' work-items
// as n), determine both: each is read from its class's rows (readFill).
// grid_fill_chain has no latency-bound property, and gives the shared
// saturation exactly; grid_fill_local's rows, whose launch terms and few
// unscaled-at-lat counts the class's own two constants take only
// approximately, give the latency-bound one within a step
// (fit.SaturationStep), and the whole fit, with the saturations read,
// still fits the rows to within 1%.
func TestGridFillLocalPinsLatencySaturation(t *testing.T) {
	const units, sat, lat = 16, 256, 640
	weights := map[string]float64{
		"flop.f32.add": 4e-11, "flop.f32.special": 3e-10, "local.load.f32": 2e-10, "local.store.f32": 2e-10,
		"sync.barrier": 1e-10, "global.store.f32.stride=1": 3e-10, "launch.groups": 1e-7, "launch.const": 5e-6,
	}
	c := models.NewCounter(nil)
	tab := emptyTable(units)
	for _, k := range []struct {
		name, param string
		K           int64
	}{{"grid_fill_chain", "nk", 4096}, {"grid_fill_local", "nr", 32}} {
		for ng := int64(1); ng <= 2048; ng *= 2 {
			for _, lx := range []int64{64, 256} {
				consts, params := map[string]int64{"LX": lx}, map[string]int64{"ng": ng, k.param: k.K}
				counts, err := c.Counts(k.name, consts, params)
				if err != nil {
					t.Fatal(err)
				}
				secs := 0.0
				for p, v := range counts {
					switch {
					case p == "launch.const" || p == "launch.groups":
						secs += weights[p] * float64(v)
					case slices.Contains(gridFillLocalLatency, p):
						secs += weights[p] * float64(v) * handFill(ng*lx, lx, units, lat)
					default:
						secs += weights[p] * float64(v) * handFill(ng*lx, lx, units, sat)
					}
				}
				tab.Rows = append(tab.Rows, fillRow(k.name, lx, params, secs))
			}
		}
	}
	// The two kernels' properties come in fixed proportions (the
	// rsqrt, local load and addition of a step; the barrier and global
	// store of a work-item; the M local stores and the launch of a
	// group), which the fit takes with their
	// minimum-norm weights: the times, and so the saturations, are
	// determined all the same.
	opts := Options{Fit: fit.Options{MinNorm: true}, Fill: &fit.GridFill{Latency: new(int64)}}
	w, err := CalibrateTables(c, map[string]*datasets.Table{"m.arrow": tab}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if w.Fill == nil || w.Fill.Saturation != sat || w.Fill.Latency == nil || *w.Fill.Latency < lat-fit.SaturationStep || *w.Fill.Latency > lat+fit.SaturationStep {
		t.Fatalf("grid fill %v, want saturations %d and %d (within %d)", w.Fill, sat, lat, fit.SaturationStep)
	}
	if e := w.Diagnostics.TrainingError; e > 0.01 {
		t.Errorf("the saturations read fit rows timed with %d and %d to %g", sat, lat, e)
	}
}
