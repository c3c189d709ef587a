package tune_test

import (
	"fmt"

	"github.com/uniperf/uniperf/fit/tune"
)

// A space in tune_kernel's form, enumerated with its restriction.
func ExampleReadSpace() {
	s, err := tune.ReadSpace([]byte(`{
		"tune_params": {"block_size_x": "[16*2**i for i in range(3)]", "tile_size_y": [1, 2, 4]},
		"restrictions": ["block_size_x*tile_size_y <= 64"]}`), "space.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	configs, _ := s.Configs()
	for _, c := range configs {
		fmt.Println(s.Label(c))
	}
	// Output:
	// block_size_x=16 tile_size_y=1
	// block_size_x=16 tile_size_y=2
	// block_size_x=16 tile_size_y=4
	// block_size_x=32 tile_size_y=1
	// block_size_x=32 tile_size_y=2
	// block_size_x=64 tile_size_y=1
}

// A restriction outside the subset is refused at its line:col.
func ExampleParseExpr() {
	e, _ := tune.ParseExpr("block_size_x % 32 != 0 or use_padding == 0")
	ok, _ := e.Holds(func(name string) (tune.Value, bool) {
		return tune.IntValue(map[string]int64{"block_size_x": 64, "use_padding": 1}[name]), true
	})
	fmt.Println(ok)
	_, err := tune.ParseExpr("sum(x for x in y) > 3")
	fmt.Println(err)
	// Output:
	// false
	// 1:1: function sum is not supported: only range, list, min, max and abs
}

// Rank predicts each distinct binding of the consts once: here the
// kernel reads only BX, so the two values of unroll share a prediction.
func ExampleRank() {
	s, _ := tune.ReadSpace([]byte(`{"tune_params": {"BX": [32, 64, 128], "unroll": [0, 1]}}`), "s")
	m, unused, _ := tune.NewMapping(s, []string{"BX"}, nil)
	configs, _ := s.Configs()
	calls := 0
	predict := func(consts map[string]int64) (float64, error) {
		calls++
		return 1 / float64(consts["BX"]), nil
	}
	ranked, _ := tune.Rank(s, m, configs, predict, 1)
	fmt.Println("unused:", unused, "bindings:", ranked.Bindings, "predictions:", calls)
	for _, r := range ranked.Results[:3] {
		fmt.Println(r.Rank, s.Label(r.Config), r.Predicted)
	}
	// Output:
	// unused: [unroll] bindings: 3 predictions: 3
	// 1 BX=128 unroll=0 0.0078125
	// 2 BX=128 unroll=1 0.0078125
	// 3 BX=64 unroll=0 0.015625
}

// The expected best of two random picks among times 1, 2, 3 and 4: the
// least is 1 in 3 of the 6 pairs, 2 in 2 and 3 in 1, so (3 + 4 + 3)/6.
func ExampleExpectedMin() {
	fmt.Printf("%.4f\n", tune.ExpectedMin([]float64{1, 2, 3, 4}, 2))
	// Output: 1.6667
}

// Evaluate a ranking against measurements.
func ExampleEvaluate() {
	ev, _ := tune.Evaluate([]float64{1, 2, 3, 4}, []float64{2, 1, 3, 4})
	fmt.Printf("τ %.3f, predicted best %.1f× the optimum, random pick %.1f×\n", ev.Tau, ev.Picks[0].BestRatio, ev.Picks[0].RandomRatio)
	// Output: τ 0.667, predicted best 2.0× the optimum, random pick 2.5×
}
