package main

import (
	"strings"
	"testing"
)

// TestTuneComparesLaunches ranks the shipped convolution space at the
// image size of its T1 file (4096 x 4096: each binding launches 4096 /
// (BX*TX) x 4096 / (BY*TY) groups, as its GlobalSize says) and at half
// its height, where every one of the 432 bindings launches half the
// groups along y that Kernel Tuner would.
func TestTuneComparesLaunches(t *testing.T) {
	args := []string{"tune", "../../examples/convolution_kernel.knl", "--space", "../../examples/convolution_kernel.space.json",
		"--weights", "../../datasets/tuning/pocl.weights.arrow", "--param", "w=4096", "--top", "1",
		"--map", "BX=block_size_x", "--map", "BY=block_size_y", "--map", "TX=tile_size_x", "--map", "TY=tile_size_y", "--map", "PAD=0"}
	for _, c := range []struct{ h, want string }{{"4096", ""}, {"2048", "432 of 432 const bindings launch otherwise"}} {
		code, _, stderr := runCommand(t, tuneCmd, append(args, "--param", "h="+c.h)...)
		if code != 0 {
			t.Fatalf("h=%s: exit %d: %s", c.h, code, stderr)
		}
		if got := strings.Contains(stderr, "launch otherwise"); got != (c.want != "") || !strings.Contains(stderr, c.want) {
			t.Errorf("h=%s: stderr %q, want %q", c.h, stderr, c.want)
		}
	}
}
