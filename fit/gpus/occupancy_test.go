package gpus

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func limits(t *testing.T, device string) Limits {
	t.Helper()
	d, err := Lookup(device)
	if err != nil {
		t.Fatal(err)
	}
	return d.Limits
}

// The expected values are derived by hand from the CUDA occupancy
// calculator's rules for the device's compute capability; the comment of
// each case shows the arithmetic.
func TestActiveBlocksHandDerived(t *testing.T) {
	cases := []struct {
		name     string
		device   string
		res      Resources
		blocks   int
		warps    int
		limiters []string
	}{
		// cc 1.0: 4 warps (already even); warps 24/4 = 6; registers
		// 10·32·4 = 1280 (a multiple of 256), 8192/1280 = 6; shared
		// 1024 → 16384/1024 = 16; blocks 8.
		{"cc1.0 warps and registers", "8800gtx", Resources{128, 10, 1024}, 6, 24, []string{"warps", "registers"}},
		// cc 1.0: 3 warps allocated as 4; warps 24/4 = 6; registers
		// 16·32·4 = 2048, 8192/2048 = 4.
		{"cc1.0 odd warps", "8800gtx", Resources{96, 16, 0}, 4, 12, []string{"registers"}},
		// cc 1.3: 8 warps; warps 32/8 = 4; registers 20·32·8 = 5120
		// (multiple of 512), 16384/5120 = 3; shared 4000 → 4096, 4.
		{"cc1.3 registers", "gtx280", Resources{256, 20, 4000}, 3, 24, []string{"registers"}},
		// cc 2.1: 6 warps; warps 48/6 = 8; registers per warp 640,
		// 16384/640 = 25 warps per half, 50/6 = 8; blocks 8.
		{"cc2.1 all at eight", "gtx460", Resources{192, 20, 0}, 8, 48, []string{"warps", "blocks", "registers"}},
		// cc 2.1: 8 warps; warps 48/8 = 6; registers per warp 1024,
		// 16384/1024 = 16 per half, 32/8 = 4.
		{"cc2.1 registers", "gtx460", Resources{256, 32, 0}, 4, 32, []string{"registers"}},
		// cc 9.0: 8 warps; warps 8; registers per warp 1024, 16 per
		// quarter, 64/8 = 8; shared 0 + 1 KB reserved → 228; blocks 32.
		{"cc9.0 full", "h100-sxm5", Resources{256, 32, 0}, 8, 64, []string{"warps", "registers"}},
		// cc 9.0: 4 warps; registers per warp 2048, 8 per quarter, 32/4 =
		// 8; shared 49152 + 1024 = 50176, 233472/50176 = 4.
		{"cc9.0 shared memory", "h100-sxm5", Resources{128, 64, 49152}, 4, 16, []string{"shared memory"}},
		// cc 9.0: one warp per block, 64 by warps, 32 by blocks.
		{"cc9.0 block limit", "h100-sxm5", Resources{32, 0, 0}, 32, 32, []string{"blocks"}},
		// PoCL CPU: ⌈100/8⌉ = 13 warps, one work-group per core.
		{"pocl one group per core", "pocl-cpu", Resources{100, 0, 4096}, 1, 13, []string{"blocks"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := limits(t, c.device)
			o, err := ActiveBlocks(l, c.res)
			if err != nil {
				t.Fatal(err)
			}
			if o.BlocksPerSM != c.blocks || o.ActiveWarps != c.warps {
				t.Errorf("blocks %d, warps %d; want %d, %d (%+v)", o.BlocksPerSM, o.ActiveWarps, c.blocks, c.warps, o)
			}
			if !slices.Equal(o.Limiters, c.limiters) {
				t.Errorf("limiters %v, want %v", o.Limiters, c.limiters)
			}
			if want := float64(c.warps) / float64(l.MaxWarpsPerSM); o.Fraction != want {
				t.Errorf("fraction %g, want %g", o.Fraction, want)
			}
		})
	}
}

func TestActiveBlocksUnlimitedResources(t *testing.T) {
	o, err := ActiveBlocks(limits(t, "gtx280"), Resources{ThreadsPerBlock: 64})
	if err != nil {
		t.Fatal(err)
	}
	if o.ByRegisters != math.MaxInt || o.BySharedMemory != math.MaxInt {
		t.Errorf("unused registers and shared memory should not limit: %+v", o)
	}
}

func TestActiveBlocksErrors(t *testing.T) {
	h100 := limits(t, "h100-sxm5")
	cases := []struct {
		name string
		l    Limits
		r    Resources
		want string
	}{
		{"too many threads", h100, Resources{2048, 32, 0}, "Eq. 3-1"},
		{"too much shared memory", h100, Resources{128, 32, 240000}, "Eq. 3-7"},
		{"too many registers per thread", h100, Resources{128, 300, 0}, "registers per thread"},
		// 255 registers → 8192 per warp; the launch check rounds 32 warps
		// to the 4 partitions: 8192·32 > 65536.
		{"registers per block", h100, Resources{1024, 255, 0}, "Eq. 3-12"},
		{"no threads", h100, Resources{0, 0, 0}, "must be positive"},
		{"negative shared", h100, Resources{32, 0, -1}, "must not be negative"},
		{"inconsistent limits", Limits{WarpSize: 32, MaxThreadsPerBlock: 1024, MaxThreadsPerSM: 2000,
			MaxWarpsPerSM: 64, MaxBlocksPerSM: 32, SharedAllocUnit: 128}, Resources{32, 0, 0}, "max_threads_per_sm"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ActiveBlocks(c.l, c.r)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one mentioning %q", err, c.want)
			}
		})
	}
}

func BenchmarkActiveBlocks(b *testing.B) {
	d, err := Lookup("h100-sxm5")
	if err != nil {
		b.Fatal(err)
	}
	r := Resources{ThreadsPerBlock: 128, RegsPerThread: 64, SharedPerBlock: 49152}
	for b.Loop() {
		if _, err := ActiveBlocks(d.Limits, r); err != nil {
			b.Fatal(err)
		}
	}
}
