package fit

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestFilledStrideTies(t *testing.T) {
	props := []string{
		"global.load.f32.stride=1", "global.load.f32.stride=2/2", "global.load.f64.stride=3/3",
		"global.store.f32.stride=4/4", "global.load.f32.stride=1/2", "global.load.f32.stride=4/>4",
		"global.minldst.f32.stride=2/2", "local.load.f32", "global.load.f32.stride=1/1", "flop.f32.add",
		"global.ldg.i32.stride=2/2", "global.ldg.f32.stride=1/2",
	}
	want := map[string]string{
		"global.load.f32.stride=2/2":  "global.load.f32.stride=1",
		"global.load.f64.stride=3/3":  "global.load.f64.stride=1",
		"global.store.f32.stride=4/4": "global.store.f32.stride=1",
		"global.ldg.i32.stride=2/2":   "global.ldg.i32.stride=1",
	}
	if got := FilledStrideTies(props); !maps.Equal(got, want) {
		t.Errorf("ties %v, want %v", got, want)
	}
}

// The read-only ties, written out by hand: the strided readonly loads
// (1/2, 2/3, 1/>4) go to the plain load of their class, a filled one
// (2/2) to the stride-1 load the filled ties send that class to,
// replacing its own tie to the readonly stride-1 load; the plain strided
// loads (f32 1/2, f64 3/3) bring the ties of their readonly counterparts,
// whether those are present or not; stride-1 and uniform readonly loads
// (the f32 and i32 ones of scaled_sum_ldg and scaled_sum_ldg_i32), and
// stores, stay as they were. The classes at stride 4 and beyond do the
// same: the column reads of transpose_ldg_f32 and _i32 (4/>4, every
// element used at a stride over 4) go to the plain 4/>4 loads the
// transposes measure, 1/4 to the plain 1/4, and the filled 4/4 to the
// stride-1 load the filled ties send the plain 4/4 to. The ties given
// are not changed.
func TestReadOnlyStrideTies(t *testing.T) {
	props := []string{
		"global.ldg.f32.stride=1/2", "global.ldg.i32.stride=2/3", "global.ldg.b8.stride=1/>4", "global.ldg.f32.stride=2/2",
		"global.ldg.f32.stride=1", "global.ldg.f32.stride=0", "global.load.f32.stride=1/2", "global.load.f64.stride=3/3", "global.ldg.i32",
		"global.store.f32.stride=1/2", "flop.f32.add",
		"global.ldg.f32.stride=4/>4", "global.ldg.i32.stride=4/>4", "global.ldg.i32.stride=1/4", "global.ldg.f32.stride=4/4", "global.ldg.i32.stride=0",
	}
	filled := map[string]string{"global.load.f32.stride=2/2": "global.load.f32.stride=1", "global.ldg.f32.stride=2/2": "global.ldg.f32.stride=1",
		"global.load.f32.stride=4/4": "global.load.f32.stride=1"}
	want := map[string]string{
		"global.load.f32.stride=2/2": "global.load.f32.stride=1",
		"global.ldg.f32.stride=2/2":  "global.load.f32.stride=1",
		"global.load.f32.stride=4/4": "global.load.f32.stride=1",
		"global.ldg.f32.stride=4/4":  "global.load.f32.stride=1",
		"global.ldg.f32.stride=4/>4": "global.load.f32.stride=4/>4",
		"global.ldg.i32.stride=4/>4": "global.load.i32.stride=4/>4",
		"global.ldg.i32.stride=1/4":  "global.load.i32.stride=1/4",
		"global.ldg.f64.stride=3/3":  "global.load.f64.stride=3/3",
		"global.ldg.f32.stride=1/2":  "global.load.f32.stride=1/2",
		"global.ldg.i32.stride=2/3":  "global.load.i32.stride=2/3",
		"global.ldg.b8.stride=1/>4":  "global.load.b8.stride=1/>4",
	}
	if got := ReadOnlyStrideTies(props, filled); !maps.Equal(got, want) {
		t.Errorf("ties %v, want %v", got, want)
	}
	if filled["global.ldg.f32.stride=2/2"] != "global.ldg.f32.stride=1" || len(filled) != 3 {
		t.Errorf("the ties given changed: %v", filled)
	}
	if got := ReadOnlyStrideTies(props[:1], nil); !maps.Equal(got, map[string]string{"global.ldg.f32.stride=1/2": "global.load.f32.stride=1/2"}) {
		t.Errorf("without other ties: %v", got)
	}
}

// The fallback ties, written out by hand from TestReadOnlyStrideTies'
// properties: the strided readonly loads that rows count (f32 1/2 with
// no tie of its own, f32 2/2 with the filled tie to the readonly
// stride-1 load) keep what they had, own weight or filled tie; those
// counted by no row (i32 2/3, b8 1/>4, and f64 3/3, the counterpart of a
// plain load) are tied to the plain load of their class as the ties do;
// a counted property that is no strided readonly load (the plain f32 1/2
// load, a stride-1 readonly one) changes nothing, and one marked false
// in counted is not counted.
func TestReadOnlyStrideFallback(t *testing.T) {
	props := []string{
		"global.ldg.f32.stride=1/2", "global.ldg.i32.stride=2/3", "global.ldg.b8.stride=1/>4", "global.ldg.f32.stride=2/2",
		"global.ldg.f32.stride=1", "global.load.f32.stride=1/2", "global.load.f64.stride=3/3",
	}
	counted := map[string]bool{"global.ldg.f32.stride=1/2": true, "global.ldg.f32.stride=2/2": true, "global.load.f32.stride=1/2": true, "global.ldg.f32.stride=1": true, "global.ldg.i32.stride=2/3": false}
	filled := map[string]string{"global.ldg.f32.stride=2/2": "global.ldg.f32.stride=1"}
	want := map[string]string{
		"global.ldg.f32.stride=2/2": "global.ldg.f32.stride=1",
		"global.ldg.i32.stride=2/3": "global.load.i32.stride=2/3",
		"global.ldg.b8.stride=1/>4": "global.load.b8.stride=1/>4",
		"global.ldg.f64.stride=3/3": "global.load.f64.stride=3/3",
	}
	if got := ReadOnlyStrideFallback(props, counted, filled); !maps.Equal(got, want) {
		t.Errorf("ties %v, want %v", got, want)
	}
	if len(filled) != 1 {
		t.Errorf("the ties given changed: %v", filled)
	}
	// With no row counting a strided readonly load the fallback is the
	// tie itself: f32 1/2 to the plain load.
	if got := ReadOnlyStrideFallback(props[:1], nil, nil); !maps.Equal(got, map[string]string{"global.ldg.f32.stride=1/2": "global.load.f32.stride=1/2"}) {
		t.Errorf("nothing counted: %v", got)
	}
}

func TestTieColumns(t *testing.T) {
	props := []string{"a", "b2", "c", "d2"}
	ties := map[string]string{"b2": "a", "d2": "d", "e2": "e"}
	samples := []Sample{{Kernel: "k", Counts: []float64{1, 2, 3, 4}, Time: 5}, {Counts: []float64{0, 7, 0, 0}}}
	gotProps, got := TieColumns(props, samples, ties)
	// a takes b2's counts; d, absent, is added after c and takes d2's;
	// e2 is in no sample and adds nothing.
	if want := []string{"a", "c", "d"}; !slices.Equal(gotProps, want) {
		t.Fatalf("properties %v, want %v", gotProps, want)
	}
	for i, want := range [][]float64{{3, 3, 4}, {7, 0, 0}} {
		if !slices.Equal(got[i].Counts, want) {
			t.Errorf("sample %d: counts %v, want %v", i, got[i].Counts, want)
		}
	}
	if got[0].Kernel != "k" || got[0].Time != 5 || !slices.Equal(samples[0].Counts, []float64{1, 2, 3, 4}) {
		t.Errorf("merged %+v from %+v: want the other fields kept and the input unchanged", got[0], samples[0])
	}
}

func TestWeightsResolveTies(t *testing.T) {
	w := &Weights{Device: "d", Model: ModelUnified, Properties: []string{"a", "c"}, Values: []float64{2, 3},
		Ties: map[string]string{"b": "a"}}
	if err := w.Validate(); err != nil {
		t.Fatal(err)
	}
	if v, ok := w.Weight("b"); !ok || v != 2 {
		t.Errorf("weight of b %g, %v: want a's, 2", v, ok)
	}
	aligned, missing := w.Align([]string{"c", "b", "z"})
	if !slices.Equal(aligned, []float64{3, 2, 0}) || !slices.Equal(missing, []string{"z"}) {
		t.Errorf("aligned %v, missing %v", aligned, missing)
	}
	got, _, err := w.Predict([]string{"a", "b"}, []float64{10, 100})
	if err != nil || got != 220 {
		t.Errorf("predicted %g, %v: want 2·10 + 2·100", got, err)
	}
	for _, c := range []struct {
		ties map[string]string
		want string
	}{
		{map[string]string{"a": "c"}, "a has a weight of its own"},
		{map[string]string{"b": "z"}, "z, which has no weight"},
	} {
		w.Ties = c.ties
		if err := w.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ties %v: error %v, want %q", c.ties, err, c.want)
		}
	}
}
