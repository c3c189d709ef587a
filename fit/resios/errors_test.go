package resios

import (
	"errors"
	"testing"
)

// TestSentinelErrors checks that the empty inputs are errors a caller can
// test for with errors.Is, with their messages unchanged.
func TestSentinelErrors(t *testing.T) {
	_, simErr := Simulate(nil, oneSM(1))
	_, reqErr := RequestsForOffsets(nil, 4, 128)
	_, bankErr := BankConflicts(nil, 32, 4)
	_, ilpErr := ILP(DAG{})
	_, launchErr := BlockSize(LaunchInput{Threads: 1024, WarpSize: 32, SMs: 1, MaxWarps: 48, MaxThreadsPerBlock: 1024, HidingFactor: 4})
	for _, c := range []struct {
		err, want error
		msg       string
	}{
		{simErr, ErrEmptyTrace, "resios: empty trace"},
		{reqErr, ErrEmptyWarp, "resios: requests of an empty warp"},
		{bankErr, ErrEmptyWarp, "resios: bank conflicts of an empty warp"},
		{ilpErr, ErrEmptyRegion, "resios: ILP of an empty region"},
		{launchErr, ErrNoLatencies, "resios: launch needs the latencies of the kernel's instructions"},
	} {
		if !errors.Is(c.err, c.want) || c.err.Error() != c.msg {
			t.Errorf("got %v, want %q wrapping %v", c.err, c.msg, c.want)
		}
	}
}
