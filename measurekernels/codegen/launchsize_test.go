package codegen_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/launch/pocltest"
)

// TestWholeBlocksOnPoCL runs the generated code of kernels whose sizes
// launch partial work-groups (counts' TestLaunchWholeBlocks derives their
// launches and counts by hand) on PoCL, at those sizes, against the
// reference interpreter: the work-groups are the size the kernel was
// written for (256 for split i 256, 16 x 16 for a box), the local inames
// start at 0, and the domain guards the idle work-items out of every
// instruction it does not cover, while the barriers and the instruction
// that names no launch index run on all of them.
func TestWholeBlocksOnPoCL(t *testing.T) {
	lang := filepath.Join("..", "..", "counts", "testdata", "lang")
	dev := pocltest.Open(t)
	for _, tc := range []struct {
		file   string
		params []map[string]int64
		lanes  []string // the local inames' first lines, index 0 at value 0
	}{
		{filepath.Join(lang, "block256.knl"), []map[string]int64{{"n": 100}, {"n": 300}, {"n": 256}},
			[]string{"int i_in = (int)get_local_id(0);"}},
		{filepath.Join(lang, "box16.knl"), []map[string]int64{{"w": 10, "h": 20}, {"w": 33, "h": 5}},
			[]string{"int lx = (int)get_local_id(0);", "int ly = (int)get_local_id(1);"}},
		{filepath.Join("..", "..", "examples", "jacobi1d1.knl"), []map[string]int64{{"n": 100}, {"n": 1000}, {"n": 3}},
			[]string{"int i_in = (int)get_local_id(0);"}},
		{filepath.Join(lang, "tiedlane.knl"), []map[string]int64{{"n": 10}, {"n": 100}}, nil},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
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
					t.Errorf("no %q in\n%s", want, code.Source)
				}
			}
			lk := pocltest.Build(t, dev, k, code)
			for _, p := range tc.params {
				if err := lk.Check(p); err != nil {
					t.Errorf("%s: %v\n%s", fmt.Sprint(p), err, code.Source)
				}
			}
		})
	}
}
