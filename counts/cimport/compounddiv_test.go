package cimport

import (
	"bytes"
	"testing"
)

// C defines q op= v as q = q op v: of an unsigned int, whose / and %
// agree with .knl's // and % (neither operand can be negative), %= and
// /= import as the written-out assignments do, which the importer
// already translated (TestUnsignedImports); of a signed int they are
// refused with what to write (TestRefusals).
func TestUnsignedCompoundDivision(t *testing.T) {
	const src = "// uniperf: --local 64 --groups n --array a=n --array b=n\n__global__ void k(float *a, float *b, int n)\n{\n    int i = blockIdx.x*blockDim.x + threadIdx.x;\n    unsigned int q = (unsigned int)a[i];\n    BODY\n    b[i] = q;\n}\n"
	imported := func(body string) []byte {
		r, err := Import("k.cu", bytes.ReplaceAll([]byte(src), []byte("BODY"), []byte(body)), Options{})
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		return r.Knl
	}
	compound, written := imported("q %= 3; q /= a[i] > 0 ? 2u : 4u;"), imported("q = q % 3; q = q / (a[i] > 0 ? 2u : 4u);")
	if !bytes.Equal(compound, written) {
		t.Errorf("q %%= 3; q /= ... imports as\n%s\nwant, as q = q %% 3; q = q / (...),\n%s", compound, written)
	}
}
