package cimport

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// C defines q op= v as q = q op v, the operands converted as for op: of
// an unsigned int, whose / and % agree with .knl's // and % (neither
// operand can be negative), %= and /= import as the written-out
// assignments do, which the importer already translated
// (TestUnsignedImports), and so do those of an unsigned short by a
// positive constant; q /= x of a float x divides floats, as q = q / x
// does, whatever q's integer type; of a signed int by an integer they
// are refused with what to write (TestRefusals).
func TestUnsignedCompoundDivision(t *testing.T) {
	const src = "// uniperf: --local 64 --groups n --array a=n --array b=n\n__global__ void k(float *a, float *b, int n)\n{\n    int i = blockIdx.x*blockDim.x + threadIdx.x;\n    DECL q = (DECL)a[i];\n    BODY\n    b[i] = q;\n}\n"
	imported := func(decl, body string) []byte {
		s := strings.ReplaceAll(strings.ReplaceAll(src, "DECL", decl), "BODY", body)
		r, err := Import("k.cu", []byte(s), Options{})
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		return r.Knl
	}
	for _, c := range []struct{ decl, compound, written string }{
		{"unsigned int", "q %= 3; q /= a[i] > 0 ? 2u : 4u;", "q = q % 3; q = q / (a[i] > 0 ? 2u : 4u);"},
		{"unsigned int", "q /= a[i];", "q = q / a[i];"},
		{"unsigned short", "q %= 3; q /= 2;", "q = q % 3; q = q / 2;"},
		{"int", "q /= a[i];", "q = q / a[i];"},
	} {
		compound, written := imported(c.decl, c.compound), imported(c.decl, c.written)
		if !bytes.Equal(compound, written) {
			t.Errorf("%s q; %s imports as\n%s\nwant, as %s,\n%s", c.decl, c.compound, compound, c.written, written)
		}
	}
}

// TestCompoundFloatDivisor runs C's q /= a[i] of an unsigned int q and
// a float a[i]: (float)q / a[i], truncated to an unsigned int, 7/2.0f =
// 3.5 to 3, 9/0.5f = 18, 100/3.0f = 33.33 to 33, 3/4.0f = 0.75 to 0.
func TestCompoundFloatDivisor(t *testing.T) {
	const src = "// uniperf: --local 4 --groups n --array a=4*n --array h=4*n\n__global__ void k(float *a, unsigned int *h, int n)\n{\n    int i = blockIdx.x*blockDim.x + threadIdx.x;\n    unsigned int q = h[i];\n    q /= a[i];\n    h[i] = q;\n}\n"
	r, err := Import("k.cu", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	k, err := counts.ParseKernel("k.knl", r.Knl, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := []uint32{7, 9, 100, 3}
	if _, err := counts.Run(k, map[string]int64{"n": 1}, map[string]any{"a": []float32{2, 0.5, 3, 4}, "h": h}, nil); err != nil {
		t.Fatal(err)
	}
	if want := []uint32{3, 18, 33, 0}; !slices.Equal(h, want) {
		t.Errorf("h = %v, want %v", h, want)
	}
}
