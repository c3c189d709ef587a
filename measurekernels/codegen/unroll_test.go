package codegen_test

import (
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/gpu"
)

// A loop over an unr iname, and only such a loop, gets #pragma unroll on
// the line before its for, inside the instruction's guard, in OpenCL C and
// CUDA C alike.
func TestUnrollPragma(t *testing.T) {
	src := `kernel twoloops
const LX = 64
domain [n, m] -> { [i, c, k] : 0 <= i < n and 0 <= c < 3 and 0 <= k < m }
assume n >= 1 and m >= 1
array a f32 [3, n]
array w f32 [m]
array out f32 [n]
split i LX i_out i_in
tag i_out g.0, i_in l.0, c unr
out[i] = sum(c, a[c, i]) + sum(k, w[k])
`
	k, err := counts.ParseKernel("twoloops.knl", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []gpu.Backend{gpu.OpenCL, gpu.CUDA} {
		code, err := codegen.Generate(k, b)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(code.Source, "\n")
		var after []string
		for i, l := range lines {
			if strings.TrimSpace(l) == "#pragma unroll" && i+1 < len(lines) {
				after = append(after, strings.TrimSpace(lines[i+1]))
			}
		}
		if len(after) != 1 || !strings.HasPrefix(after[0], "for (int c = 0;") {
			t.Errorf("%v: pragmas before %q, want one before the loop over c\n%s", b, after, code.Source)
		}
		if !strings.Contains(code.Source, "for (int k = 0;") {
			t.Errorf("%v: no loop over k\n%s", b, code.Source)
		}
	}
}
