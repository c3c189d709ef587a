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

// A local iname bounded by itself from a parameter, s <= l < s + 16,
// starts at that bound on local id 0 (counts.Kernel.IndexBases gives s)
// and its own range is the whole of its domain, l < n among it, so that
// the statement runs unguarded: the launch has exactly the work-items
// with work (16 a group, or n - s where n - s < 16).
func TestLaneStartsAtParameter(t *testing.T) {
	k, err := counts.ParseKernel("shift.knl", []byte(`kernel shift
domain [n, s] -> { [g, l] : 0 <= g < n and s <= l < s + 16 and l < n }
array a f32 [n, n]
tag g g.0, l l.0
a[g, l] = 2.0f * a[g, l]
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	code, err := codegen.Generate(k, gpu.OpenCL)
	if err != nil {
		t.Fatal(err)
	}
	if want := "int l = s + (int)get_local_id(0);"; !strings.Contains(code.Source, want) || strings.Contains(code.Source, "if (") {
		t.Errorf("want %q and no guard in\n%s", want, code.Source)
	}
	// At n = 40, s = 30: 40 groups (g < 40) of the 10 values 30..39 of l.
	at := map[string]int64{"n": 40, "s": 30}
	global, local, err := k.Launch(at)
	if err != nil {
		t.Fatal(err)
	}
	bases, err := k.IndexBases(at)
	if err != nil {
		t.Fatal(err)
	}
	if global != [3]int64{400, 1, 1} || local != [3]int64{10, 1, 1} || bases["l"] != 30 {
		t.Errorf("launch %v/%v, l from %d at %v; want 400/10, from 30", global, local, bases["l"], at)
	}
}
