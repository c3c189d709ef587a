package models_test

import (
	"fmt"

	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/analytic"
)

// Rank global_copy's work-group sizes on the GTX 460 with the xu model,
// whose constants come from the device file.
func ExampleRankCandidates() {
	dev, err := gpus.Lookup("gtx460")
	if err != nil {
		fmt.Println(err)
		return
	}
	env := &models.Env{Counter: models.NewCounter(nil), Device: dev}
	m, _ := models.New("xu")
	if err := m.Calibrate(env, nil); err != nil {
		fmt.Println(err)
		return
	}
	base := models.Case{Kernel: "global_copy", Params: map[string]int64{"n": 1 << 16}}
	groups, err := models.GroupConsts(models.Library, base.Kernel, nil, base.Params)
	if err != nil {
		fmt.Println(err)
		return
	}
	cands, err := models.Candidates(base, groups, [][]int64{{32}, {256}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range models.RankCandidates(env, m, cands) {
		occ, _ := analytic.Occupancy(env, r.Case)
		fmt.Printf("%-6s rank %d, %2d warps per SM\n", r.Label, r.Rank, occ.ActiveWarps)
	}
	// Output:
	// LX=32  rank 2,  8 warps per SM
	// LX=256 rank 1, 48 warps per SM
}

func ExampleSpearman() {
	predicted := []float64{3.7e-3, 1.9e-3, 0.9e-3, 0.5e-3}
	measured := []float64{0.8e-3, 0.4e-3, 0.3e-3, 0.35e-3}
	rho, err := models.Spearman(predicted, measured)
	fmt.Printf("%.1f %v\n", rho, err)
	// Output: 0.8 <nil>
}
