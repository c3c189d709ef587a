package tune_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/uniperf/uniperf/fit/tune"
)

// TestRankSkipsInvalid checks that Rank leaves out the configurations
// whose binding fails with ErrInvalid, in the space's order and with
// their reason, ranks the rest with their ties, and fails on any other
// error.
func TestRankSkipsInvalid(t *testing.T) {
	s, err := tune.ReadSpace([]byte(`{"tune_params": {"BX": [32, 64, 128, 256], "unroll": [0, 1, 2]}}`), "s")
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := tune.NewMapping(s, []string{"BX"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	configs, err := s.Configs()
	if err != nil {
		t.Fatal(err)
	}
	// BX = 64 and 256 are refused: 2 values of 4, times the 3 of unroll.
	predict := func(c map[string]int64) (float64, error) {
		if c["BX"] == 64 || c["BX"] == 256 {
			return 0, fmt.Errorf("%w: BX %d refused", tune.ErrInvalid, c["BX"])
		}
		return 1 / float64(c["BX"]), nil
	}
	r, err := tune.Rank(s, m, configs, predict, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Results) != 6 || len(r.Skipped) != 6 || r.Bindings != 4 {
		t.Fatalf("%d results, %d skipped, %d bindings; want 6, 6, 4", len(r.Results), len(r.Skipped), r.Bindings)
	}
	want := []string{"BX=64 unroll=0", "BX=64 unroll=1", "BX=64 unroll=2", "BX=256 unroll=0", "BX=256 unroll=1", "BX=256 unroll=2"}
	for i, sk := range r.Skipped {
		if got := s.Label(sk.Config); got != want[i] || !errors.Is(sk.Reason, tune.ErrInvalid) {
			t.Errorf("skipped %d: %s (%v), want %s", i, got, sk.Reason, want[i])
		}
	}
	// unroll is read by no const, so each BX's 3 configurations tie:
	// positions 1-3 (BX = 128) and 4-6 (BX = 32).
	for i, res := range r.Results {
		wantBX, tied := int64(128), [2]int{1, 3}
		if i >= 3 {
			wantBX, tied = 32, [2]int{4, 6}
		}
		if res.Rank != i+1 || res.Tied != tied || res.Consts["BX"] != wantBX || res.Predicted != 1/float64(wantBX) {
			t.Errorf("result %d: rank %d tied %v, %v, %g", i, res.Rank, res.Tied, res.Consts, res.Predicted)
		}
	}
	fault := errors.New("disk on fire")
	_, err = tune.Rank(s, m, configs, func(c map[string]int64) (float64, error) {
		if c["BX"] == 128 {
			return 0, fault
		}
		return 1, nil
	}, 2)
	if !errors.Is(err, fault) {
		t.Errorf("a fault that is not ErrInvalid: got %v", err)
	}
}
