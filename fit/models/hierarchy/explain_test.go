package hierarchy

import (
	"math"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/modeltest"
)

// TestExplainTerms prices rowscale at n = 128, m = 8 (two groups of 64
// work-items, each storing its x[i] times the 8 cells of y) with four
// weights, the other features at zero, and checks the explanation
// against a hand computation: 1024 multiplications (compute part), 1024
// stores of out, one work-item at a time along k and so priced as
// contiguous (global.store.f32.stride=1, memory part), two groups and
// one launch. With a multiplication at 1 ps and a store at 3 ps the
// memory part, 3.072 ns, is the largest (groups 2 ns at 1 ns a group,
// compute 1.024 ns); at 2 ns a group the groups part, 4 ns, is. The
// launch's 1 µs is added to either.
func TestExplainTerms(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: modeltest.Device(t, "pocl-cpu")}
	c := models.Case{Kernel: "testdata/rowscale.knl", Params: map[string]int64{"n": 128, "m": 8}}
	for _, tc := range []struct {
		perGroup float64
		groups   string // launch.groups' note
		bound    string
		want     map[string]float64 // part totals, seconds
	}{
		{1e-9, "2 × 1e-09 s, groups part", "memory", map[string]float64{"added": 1e-6, "memory": 3.072e-9, "compute": 1.024e-9, "groups": 2e-9}},
		{2e-9, "2 × 2e-09 s, groups part", "groups", map[string]float64{"added": 1e-6, "memory": 3.072e-9, "compute": 1.024e-9, "groups": 4e-9}},
	} {
		m := &Model{Config: Chosen("cpu"), ZeroMissing: true,
			Properties: []string{"flop.f32.mul", "global.store.f32.stride=1", "launch.const", "launch.groups"},
			Values:     []float64{1e-12, 3e-12, 1e-6, tc.perGroup}}
		p, err := m.Predict(env, c)
		if err != nil {
			t.Fatal(err)
		}
		if want := 1e-6 + tc.want[tc.bound]; math.Abs(p.Seconds-want) > 1e-12*want {
			t.Errorf("%g s a group: predicted %.6g s, want %.6g", tc.perGroup, p.Seconds, want)
		}
		notes := map[string]string{}
		got := map[string]float64{}
		for _, q := range p.Explain {
			notes[q.Name], got[q.Name] = q.Note, q.Value
		}
		for name, note := range map[string]string{
			"flop.f32.mul":              "1024 × 1e-12 s, compute part",
			"global.store.f32.stride=1": "1024 × 3e-12 s, memory part",
			"launch.const":              "1 × 1e-06 s, added part",
			"launch.groups":             tc.groups,
		} {
			if notes[name] != note {
				t.Errorf("%g s a group: %s: note %q, want %q", tc.perGroup, name, notes[name], note)
			}
		}
		for part, want := range tc.want {
			q := "part." + part
			if math.Abs(got[q]-want) > 1e-12*want {
				t.Errorf("%g s a group: %s %.6g s, want %.6g", tc.perGroup, q, got[q], want)
			}
			sets := strings.Contains(notes[q], "sets the time")
			if (part == tc.bound) != sets {
				t.Errorf("%g s a group: %s: %q, want the bound part %s to set the time", tc.perGroup, q, notes[q], tc.bound)
			}
			if part != tc.bound && part != "added" && notes[q] != "below the "+tc.bound+" part: adds nothing" {
				t.Errorf("%g s a group: %s: %q", tc.perGroup, q, notes[q])
			}
		}
	}
}
