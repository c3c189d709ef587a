package codegen_test

import (
	"strings"
	"testing"

	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/gpu"
)

// A loop over an iname tagged down is generated counting down, as the
// user's C loop does (counts' TestDownLoops): PoCL's suffix sums are Go's.
func TestDownLoopsOnPoCL(t *testing.T) {
	k := parseSrc(t, `kernel suffix
domain [n, m] -> { [i, k] : 0 <= i < n and 0 <= k < m - 1 }
array a f32 [n, m]
split i 16 i_out i_in
tag i_out g.0, i_in l.0, k down
a[i, k] = a[i, k] + a[i, k + 1]
`, nil)
	for _, b := range []gpu.Backend{gpu.OpenCL, gpu.CUDA} {
		code, err := codegen.Generate(k, b)
		if err != nil {
			t.Fatal(err)
		}
		if want := "for (int k = m - 2; k >= 0; --k) {"; !strings.Contains(code.Source, want) {
			t.Errorf("%v: no %q in\n%s", b, want, code.Source)
		}
	}
	const n, m = 37, 10
	a := make([]float32, n*m)
	for j := range a {
		a[j] = float32(j%7 + 1)
	}
	want := append([]float32(nil), a...)
	for i := range n {
		for k := m - 2; k >= 0; k-- {
			want[i*m+k] += want[i*m+k+1]
		}
	}
	got := runOnPoCL(t, k, map[string]int64{"n": n, "m": m}, map[string]any{"a": a})["a"].([]float32)
	for j := range want {
		if got[j] != want[j] {
			t.Fatalf("a[%d] = %g, want %g", j, got[j], want[j])
		}
	}
}
