package cimport

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// overhangFlags import Kernel Tuner's tiled convolution at its 4096 x
// 4096 image with work-items of 2 x 3 pixels in groups of 16 x 4, as the
// benchmark hub's space has them: 4096 is no multiple of the tile's 12
// rows, so the last row of groups overhangs the image, and the original
// loads its input under if (y < input_height && x < input_width), a
// flattened subscript y*input_width + x. The launch is Kernel Tuner's
// grid_div, rounded up.
func overhangFlags(inputExtent string) []string {
	return []string{"--kernel", "convolution_kernel", "-D", "read_only=1", "-D", "use_padding=0",
		"-D", "block_size_x=16", "-D", "block_size_y=4", "-D", "tile_size_x=2", "-D", "tile_size_y=3",
		"-D", "filter_height=15", "-D", "filter_width=15", "--local", "block_size_x,block_size_y",
		"--groups", "(4096+block_size_x*tile_size_x-1)/(block_size_x*tile_size_x),(4096+block_size_y*tile_size_y-1)/(block_size_y*tile_size_y)",
		"--array", "output=4096*4096", "--array", "input=" + inputExtent, "--array", "filter=225"}
}

func overhangCounted(tb testing.TB, inputExtent string) *counts.Counted {
	tb.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "kerneltuner", "convolution.cu"))
	if err != nil {
		tb.Fatal(err)
	}
	opts, err := ParseFlags(overhangFlags(inputExtent))
	if err != nil {
		tb.Fatal(err)
	}
	r, err := Import("convolution.cu", src, opts)
	if err != nil {
		tb.Fatal(err)
	}
	k, err := counts.ParseKernel("convolution.knl", r.Knl, nil)
	if err != nil {
		tb.Fatal(err)
	}
	c, err := counts.Count(k)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// The overhanging tiles' guarded loads stay inside the input, by hand:
// y <= input_height - 1 and x <= input_width - 1, so y*input_width + x
// <= 4110*4110 - 1, which the last group of the last row reaches (its
// rows run from 341*12 = 4092 up to the guard's 4109, its columns from
// 127*32 = 4064 to 4064 + 45 = 4109). The bounds check passes at the
// input's allocation and, one element short, names that greatest value.
func TestImportedOverhangingTilesInBounds(t *testing.T) {
	const full = 4110 * 4110
	if err := overhangCounted(t, "4110*4110").CheckBounds(map[string]int64{}); err != nil {
		t.Fatalf("at the input's allocation: %v", err)
	}
	err := overhangCounted(t, "4110*4110-1").CheckBounds(map[string]int64{})
	if want := fmt.Sprintf("takes 0..%d, and input has extent %d", full-1, full-1); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("one element short: %v, want %q", err, want)
	}
}

// BenchmarkCheckBoundsImportedOverhang checks every reference of the
// imported convolution with overhanging tiles, as predict and tune do
// before pricing a configuration (target: milliseconds; scanning its
// guarded load's values took seconds).
func BenchmarkCheckBoundsImportedOverhang(b *testing.B) {
	c := overhangCounted(b, "4110*4110")
	for b.Loop() {
		if err := c.CheckBounds(map[string]int64{}); err != nil {
			b.Fatal(err)
		}
	}
}
