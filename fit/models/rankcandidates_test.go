package models_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/analytic"
	"github.com/uniperf/uniperf/fit/models/modeltest"
)

// TestRankCandidates ranks global_copy's group sizes on the GTX 460 with
// the xu model from the device file: at n = 2^16, blocks of 32 threads
// are limited to 8 resident blocks (8 of 48 warps), so they are slowest;
// from 192 threads up all 48 warps are resident. Every candidate gets a
// rank and an occupancy.
func TestRankCandidates(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "gtx460")}
	m, _ := models.New("xu")
	if err := m.Calibrate(env, nil); err != nil {
		t.Fatal(err)
	}
	base := models.Case{Kernel: "global_copy", Params: map[string]int64{"n": 1 << 16}}
	groups := []models.GroupConst{{"LX", 0}}
	cands, err := models.Candidates(base, groups, models.DefaultSizes(groups, 32, 1024))
	if err != nil {
		t.Fatal(err)
	}
	ranked := models.RankCandidates(env, m, cands)
	if len(ranked) != 6 || ranked[0].Label != "LX=32" {
		t.Fatalf("ranked %+v", ranked)
	}
	for _, r := range ranked {
		if r.Err != nil || r.Rank == 0 {
			t.Errorf("%s: rank %d, %v", r.Label, r.Rank, r.Err)
		}
	}
	if ranked[0].Rank != 6 {
		t.Errorf("LX=32 ranked %d, want last (6)", ranked[0].Rank)
	}
	occ, err := analytic.Occupancy(env, cands[0].Case)
	if err != nil || occ.ActiveWarps != 8 || !slices.Contains(occ.Limiters, "blocks") {
		t.Errorf("occupancy of LX=32: %+v, %v", occ, err)
	}
	if _, err := models.Candidates(base, groups, [][]int64{{16, 16}}); err == nil || !strings.Contains(err.Error(), "2 values for 1") {
		t.Errorf("a 2-D shape for a 1-D kernel: %v", err)
	}
}
