package cimport

import (
	"os"
	"path/filepath"
	"testing"
)

// TestKmeansRefused imports Rodinia's kmeans_kernel_c (opencl/kmeans/
// kmeans.cl, the original of examples/kmeans_kernel_c.knl), the one
// original of examples/ that does not import: index, declared before the
// loop over the clusters, is set to the loop's i inside if (dist <
// min_dist), which reads data, so its value after the loop depends on
// the path each work-item takes. The hand port makes it a private
// variable; the import refuses it where it is set (docs/importing.md,
// "Which examples import unedited").
func TestKmeansRefused(t *testing.T) {
	const file = "rodinia/kmeans.cl"
	src, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	// kmeans.cpp's launch: groups of BLOCK_SIZE2 = 256, the grid rounded
	// up to them.
	opts, err := ParseFlags([]string{"--kernel", "kmeans_kernel_c", "--local", "256", "--global", "npoints",
		"--array", "feature=nfeatures*npoints", "--array", "clusters=nclusters*nfeatures", "--array", "membership=npoints"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Import(file, src, opts)
	const want = "rodinia/kmeans.cl:34:15: index is assigned inside a loop or an if but declared outside: its value would depend on the path taken; compute it from the loop's index instead (for (i = ...) { int x = a*i + b; ... })"
	if err == nil || err.Error() != want {
		t.Errorf("%v\nwant %s", err, want)
	}
}
