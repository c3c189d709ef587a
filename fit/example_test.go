package fit_test

import (
	"errors"
	"fmt"
	"log"

	"github.com/uniperf/uniperf/fit"
)

// Times built from known weights — 10 ps per stride-1 load, 1 ps per
// addition, 5 µs per launch — are fitted back exactly.
func ExampleFit() {
	props := []string{"global.load.f32.stride=1", "flop.f32.add", "launch.const", "flop.f64.div"}
	weights := []float64{1e-11, 1e-12, 5e-6, 0}
	var samples []fit.Sample
	for _, c := range [][]float64{{1e6, 1e6, 1, 0}, {4e6, 1e6, 1, 0}, {1e6, 8e7, 1, 0}, {1e8, 1e8, 1, 0}, {1e3, 1e3, 1, 0}} {
		var t float64
		for i := range c {
			t += weights[i] * c[i]
		}
		samples = append(samples, fit.Sample{Kernel: "k", Class: "synthetic", Counts: c, Time: t})
	}
	w, err := fit.Fit(props, samples, fit.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, p := range w.Properties {
		fmt.Printf("%-26s %.3g s/op\n", p, w.Values[i])
	}
	fmt.Println("dropped:", w.Diagnostics.Dropped, "rank:", w.Diagnostics.Rank)
	// Output:
	// global.load.f32.stride=1   1e-11 s/op
	// flop.f32.add               1e-12 s/op
	// launch.const               5e-06 s/op
	// dropped: [flop.f64.div] rank: 3
}

// Two properties that always occur together cannot be told apart.
func ExampleRankError() {
	props := []string{"global.load.f32.stride=1", "global.store.f32.stride=1", "launch.const"}
	var samples []fit.Sample
	for _, n := range []float64{1e5, 1e6, 1e7} {
		samples = append(samples, fit.Sample{Counts: []float64{n, n, 1}, Time: 2e-11*n + 5e-6})
	}
	_, err := fit.Fit(props, samples, fit.Options{})
	var re *fit.RankError
	if errors.As(err, &re) {
		fmt.Printf("rank %d of %d\n", re.Rank, re.Properties)
		for _, c := range re.Collinear {
			fmt.Println(c.Exact, c.Properties)
		}
	}
	// Output:
	// rank 2 of 3
	// true [global.load.f32.stride=1 global.store.f32.stride=1]
}

func ExampleGeoMean() {
	// An exact hit enters the mean as fit.ErrorFloor.
	fmt.Printf("%.4f\n", fit.GeoMean([]float64{0.1, 0.4}))
	fmt.Printf("%.4f\n", fit.GeoMean([]float64{0, 0.1, 0.01}))
	// Output:
	// 0.2000
	// 0.0100
}

func ExampleWeights_Predict() {
	w := &fit.Weights{
		Device: "gpu", Model: fit.ModelUnified,
		Properties: []string{"global.load.f32.stride=1", "flop.f32.add", "launch.const"},
		Values:     []float64{1e-11, 1e-12, 5e-6},
	}
	total, terms, err := w.Predict([]string{"flop.f32.add", "global.load.f32.stride=1", "launch.const"}, []float64{2e6, 1e6, 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.3g s\n", total)
	for _, t := range terms {
		fmt.Printf("%-26s %8.3g %6.1f%%\n", t.Property, t.Seconds, 100*t.Share)
	}
	// Output:
	// 1.7e-05 s
	// global.load.f32.stride=1      1e-05   58.8%
	// launch.const                  5e-06   29.4%
	// flop.f32.add                  2e-06   11.8%
}

// A kernel whose every work-item does the same work, timed at grids of 1
// to 2048 groups on 132 units: each unit needs 640 work-items before its
// time grows, which the runs' floor and rise give away.
func ExampleReadSaturation() {
	var runs []fit.FillRun
	for g := int64(1); g <= 2048; g *= 2 {
		for _, wg := range []int64{128, 256, 512, 1024} {
			busiest := (g + 131) / 132 * wg
			runs = append(runs, fit.FillRun{Groups: g, GroupSize: wg, Time: 7e-6 + 3e-11*132*float64(max(busiest, 640))})
		}
	}
	sat, rms, err := fit.ReadSaturation(runs, 132)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("saturation %d work-items a unit, rms error %.3f\n", sat, rms)
	// Output: saturation 640 work-items a unit, rms error 0.000
}
