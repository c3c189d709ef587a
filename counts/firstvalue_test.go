package counts_test

import (
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// TestFirstValue checks the first value of loops read off their domains
// by hand: a constant, an affine bound in an outer iname and a
// parameter, the greater of two constants, a constant that bounds the
// other bound over its inames' ranges (d: r - 1 <= 0 with r < 2; a
// split's inner iname, 4*s_out + s_in >= 0 with s_out >= 0), and the
// forms it declines (b: i reaches n - 1; c: r reaches 1, above 0; e an
// equality; s_out's coefficient 4).
func TestFirstValue(t *testing.T) {
	const src = `kernel fv
domain [n, m] -> { [i, r, j, a, b, c, d, e, s] : 0 <= i < n and 0 <= r < 2 and r + m <= j < n and 2 <= a and 3 <= a < 9 and i <= b and 0 <= b < n and 0 <= c < 4 and r <= c and 0 <= d < 4 and r - 1 <= d and e = 2 and 0 <= s < n }
array out f32 [n]
split s 4 s_out s_in
out[i] = 1.0f {inames=i:r:j:a:b:c:d:e:s_out:s_in}
`
	k, err := counts.ParseKernel("fv.knl", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		iname string
		want  string // "" where there is no single first value
	}{{"i", "0"}, {"r", "0"}, {"j", "r + m"}, {"a", "3"}, {"b", ""}, {"c", ""}, {"d", "0"}, {"e", ""}, {"s_in", "0"}, {"s_out", ""}, {"nosuch", ""}} {
		got, ok := k.FirstValue(c.iname)
		switch {
		case ok != (c.want != ""):
			t.Errorf("%s: first value %v, %v; want %q", c.iname, got, ok, c.want)
		case ok && got.String() != c.want:
			t.Errorf("%s: first value %s, want %s", c.iname, got, c.want)
		}
	}
}
