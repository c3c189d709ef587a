package report

import (
	"fmt"
	"io"
	"testing"

	"github.com/uniperf/uniperf/fit"
)

// wideWeights is a weight table of n stride properties, every third tied
// to the first (and one tie to a property the table lacks).
func wideWeights(n int) *fit.Weights {
	w := &fit.Weights{Device: "D", Model: fit.ModelUnified, Ties: map[string]string{}}
	for i := range n {
		p := fmt.Sprintf("global.load.f32.stride=%d", i+1)
		if i%3 == 2 {
			w.Ties[p] = w.Properties[0]
			continue
		}
		w.Properties = append(w.Properties, p)
		w.Values = append(w.Values, float64(i+1)*1e-12)
	}
	w.Ties["global.store.f32.stride=1"] = "global.store.f32.stride=2"
	return w
}

// The comparison's index prices every property, tied or not, as
// fit.Weights.Weight does (the index replaced a scan of the table per
// property, quadratic: 65 s for 200,000 properties).
func TestCompareWeightsIndexMatchesWeight(t *testing.T) {
	w := wideWeights(300)
	c, err := CompareWeights([]*fit.Weights{w, wideWeights(30)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, table := range c.Tables {
		for _, p := range c.Properties {
			want, wantOK := table.Weight(p)
			got, _, ok := c.cell(i, p)
			if ok != wantOK || got != want {
				t.Errorf("table %d, %s: %g %v, want %g %v", i, p, got, ok, want, wantOK)
			}
		}
	}
}

// BenchmarkCompareWeightsWide writes the Markdown comparison of tables of
// 10,000 and 40,000 properties: the time per property should not grow
// with the width.
func BenchmarkCompareWeightsWide(b *testing.B) {
	for _, n := range []int{10_000, 40_000} {
		w := wideWeights(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				c, err := CompareWeights([]*fit.Weights{w}, nil)
				if err != nil {
					b.Fatal(err)
				}
				if err := c.WriteMarkdown(io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
