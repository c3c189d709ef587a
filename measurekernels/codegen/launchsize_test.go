package codegen_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/gpu"
)

// The kernels whose sizes launch partial work-groups (counts'
// TestLaunchWholeBlocks derives their launches and counts by hand) run
// their local inames from 0 on local id 0 at every size, the group the
// size the kernel was written for (256 for split i 256, 16 x 16 for a
// box), and the domain guards the idle work-items. TestLangOnPoCL and
// TestJacobi1DFirstValue run them on PoCL against the reference
// interpreter at those sizes.
func TestLanesStartAtZero(t *testing.T) {
	for _, tc := range []struct {
		file  string
		lanes []string
	}{
		{filepath.Join(langDir, "block256.knl"), []string{"int i_in = (int)get_local_id(0);", "if (256*i_out + i_in < n) {"}},
		{filepath.Join(langDir, "box16.knl"), []string{"int lx = (int)get_local_id(0);", "int ly = (int)get_local_id(1);",
			"if ((16*gx + lx < w) && (16*gy + ly < h)) {"}},
		{filepath.Join("..", "..", "examples", "jacobi1d1.knl"), []string{"int i_in = (int)get_local_id(0);",
			"if ((256*i_out + i_in >= 1) && (256*i_out + i_in <= n - 2)) {"}},
	} {
		src, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		k, err := counts.ParseKernel(tc.file, src, nil)
		if err != nil {
			t.Fatal(err)
		}
		code, err := codegen.Generate(k, gpu.OpenCL)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range tc.lanes {
			if !strings.Contains(code.Source, want) {
				t.Errorf("%s: no %q in\n%s", tc.file, want, code.Source)
			}
		}
	}
}
