package fit

import (
	"math"
	"strings"
	"testing"
)

// sampleWeights are seed 001's Table 2 weights of four properties on the
// Radeon R9 Fury.
func sampleWeights() *Weights {
	props := []string{"flop.f32.add", "global.load.f32.stride=1", "local.load.f32", "launch.const"}
	return &Weights{
		Device:      "Radeon R9 Fury",
		Model:       ModelUnified,
		PropertySet: PropertySetID(props),
		Properties:  props,
		Values:      []float64{6.81e-13, 8.27e-12, -1.76e-12, 1.29e-4},
	}
}

func TestPropertySet(t *testing.T) {
	a := PropertySetID([]string{"x", "y"})
	if a == PropertySetID([]string{"y", "x"}) || a == PropertySetID([]string{"x\ny"[:1], "y", ""}) {
		t.Error("different lists share an id")
	}
	w := sampleWeights()
	if err := w.CheckPropertySet(w.PropertySet); err != nil {
		t.Error(err)
	}
	if err := w.CheckPropertySet(a); err == nil || !strings.Contains(err.Error(), a) {
		t.Errorf("got %v", err)
	}
}

func TestPredict(t *testing.T) {
	w := sampleWeights()
	props := []string{"launch.const", "global.load.f32.stride=1", "flop.f32.add", "sync.barrier"}
	counts := []float64{1, 1e8, 1e9, 0}
	total, terms, err := w.Predict(props, counts)
	if err != nil {
		t.Fatal(err)
	}
	// By hand: 1.29e-4 + 8.27e-12·1e8 + 6.81e-13·1e9 = 1.29e-4 + 8.27e-4 + 6.81e-4.
	if want := 1.637e-3; math.Abs(total-want) > 1e-15 {
		t.Errorf("total %g, want %g", total, want)
	}
	order := []string{"global.load.f32.stride=1", "flop.f32.add", "launch.const"}
	var share float64
	for i, tm := range terms {
		if tm.Property != order[i] {
			t.Errorf("term %d is %s, want %s", i, tm.Property, order[i])
		}
		share += tm.Share
	}
	if math.Abs(share-1) > 1e-12 {
		t.Errorf("shares sum to %g", share)
	}
	if _, _, err := w.Predict([]string{"flop.f64.div"}, []float64{3}); err == nil || !strings.Contains(err.Error(), "no weight for flop.f64.div") {
		t.Errorf("got %v", err)
	}
	if _, _, err := w.Predict([]string{"flop.f32.add"}, []float64{math.NaN()}); err == nil {
		t.Error("NaN count accepted")
	}
	// With ZeroMissing, the property without a weight is priced at zero
	// and marked: the total is the others' alone (by hand, 6.81e-13·1e8 =
	// 6.81e-5 for the adds).
	w.ZeroMissing = true
	total, terms, err = w.Predict([]string{"flop.f32.add", "flop.f64.div"}, []float64{1e8, 3})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(total-6.81e-5) > 1e-15 || len(terms) != 2 || !terms[1].Unweighted || terms[1].Seconds != 0 || terms[0].Unweighted {
		t.Errorf("total %g, terms %+v", total, terms)
	}
}

// TestWeak checks the weak weights a fit records against the closed form
// of a one-property fit: rows with A_j = p_j/T_j give α = ΣA/ΣA², residuals
// r_j = 1 − αA_j, σ̂² = Σr²/(rows − 1) and a relative standard error
// σ̂/(α √ΣA²). A = (1, 2): α = 0.6, r = (0.4, −0.2), σ̂ = √0.2, relative
// error √0.2/(0.6·√5) = 1/3, weak. A = (1, 1.2): α = 2.2/2.44, relative
// error 0.091, not weak.
func TestWeak(t *testing.T) {
	for _, c := range []struct {
		counts []float64
		weak   bool
	}{{[]float64{1, 2}, true}, {[]float64{1, 1.2}, false}} {
		var samples []Sample
		for i, n := range c.counts {
			samples = append(samples, Sample{Kernel: "k", Class: "k", Label: string(rune('a' + i)), Counts: []float64{n}, Time: 1})
		}
		w, err := Fit([]string{"p"}, samples, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := len(w.Diagnostics.Weak) == 1; got != c.weak {
			t.Errorf("counts %v: weak %v, want %v", c.counts, w.Diagnostics.Weak, c.weak)
		}
	}
}
