package codegen

import (
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/library"
)

// A const past 32 bits, or one that makes a local array larger than
// MaxLocalBytes, is refused with the kernel's place; the local array t of
// finite_diff has LY + 2 rows of 18 floats.
func TestSizesRefused(t *testing.T) {
	src, err := library.Source("finite_diff")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		ly   int64
		want string
	}{
		{4611686018427387904, "finite_diff.knl:10:7: const LY = 4611686018427387904 does not fit the 32-bit int arithmetic of the generated code: give it a value from -2147483648 to 2147483647 (--const LY=V)"},
		{1073741824, "finite_diff.knl:16:7: array t of shape [1073741826 18]: more than the 1048576 bytes a local or private array may have: make it smaller (the consts of its extent), or declare it a global array (array t ...)"},
		// (14562 + 2) * 18 * 4 = 1048608 bytes, the first past the bound
		{14562, "array t of shape [14564 18]: more than"},
	} {
		k, err := counts.ParseKernel("finite_diff.knl", src, map[string]int64{"LY": c.ly})
		if err != nil {
			t.Fatalf("LY=%d: %v", c.ly, err)
		}
		_, err = Generate(k, gpu.OpenCL)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("LY=%d: %v, want %q", c.ly, err, c.want)
		}
	}
	// (14561 + 2) * 18 * 4 = 1048536 bytes fits.
	k, err := counts.ParseKernel("finite_diff.knl", src, map[string]int64{"LY": 14561})
	if err != nil {
		t.Fatal(err)
	}
	if err := checkSizes(k); err != nil {
		t.Errorf("LY=14561 (1048536 bytes): %v", err)
	}
}
