package counts_test

import (
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// TestFirstValue checks the first value of loops read off their domains
// by hand: a constant, an affine bound in an outer iname and a
// parameter, the greater of two constants, and the forms it declines.
func TestFirstValue(t *testing.T) {
	const src = `kernel fv
domain [n, m] -> { [i, r, j, a, b, e] : 0 <= i < n and 0 <= r < 2 and r + m <= j < n and 2 <= a and 3 <= a < 9 and i <= b and 0 <= b < n and e = 2 }
array out f32 [n]
out[i] = 1.0f {inames=i:r:j:a:b:e}
`
	k, err := counts.ParseKernel("fv.knl", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		iname string
		want  string // "" where there is no single first value
	}{{"i", "0"}, {"r", "0"}, {"j", "r + m"}, {"a", "3"}, {"b", ""}, {"e", ""}, {"nosuch", ""}} {
		got, ok := k.FirstValue(c.iname)
		switch {
		case ok != (c.want != ""):
			t.Errorf("%s: first value %v, %v; want %q", c.iname, got, ok, c.want)
		case ok && got.String() != c.want:
			t.Errorf("%s: first value %s, want %s", c.iname, got, c.want)
		}
	}
}
