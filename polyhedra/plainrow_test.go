package polyhedra

import (
	"strings"
	"testing"
)

// TestPlainRows rewrites parameter domains whose constraints over divs
// mean plain ones and checks membership, at every point of a grid,
// against the constraints as written; the wedge's chamber
// m >= n - floor((2 + n + m)/3) - floor((2n + m)/3) and 2m <= n is
// m >= 0 and 2m <= n by hand (at m = 0 the floors add up to n for
// every n mod 3, and each step of m adds 5/3 on average). Hermite's
// identity (the four floors add up to n) is beyond FM: that row may
// stay, but must keep its points.
func TestPlainRows(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"[n, m] -> { [] : m >= n - floor((2 + n + m)/3) - floor((2n + m)/3) and 2m <= n }", "m >= 0"},
		{"[n, m] -> { [] : 2 * floor((n + 1)/2) >= m and m >= 0 and n >= 0 }", ""},
		{"[n, m] -> { [] : floor(n/4) + floor((n + 1)/4) + floor((n + 2)/4) + floor((n + 3)/4) >= m + 3 }", ""},
		{"[n, m] -> { [] : floor((n + m)/2) >= 3 and n - m <= 7 }", "m >= -n + 6"},
	} {
		s, err := ParseSet(c.src)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.parts) != 1 {
			t.Fatalf("%s: %d basic sets", c.src, len(s.parts))
		}
		orig := s.parts[0].clone()
		p := orig.clone()
		p.plainRows()
		text := names{params: s.params}.conjunction(p)
		if c.want != "" && !strings.Contains(text, c.want) {
			t.Errorf("%s: rewritten to %s, want %s in it", c.src, text, c.want)
		}
		for n := int64(-30); n <= 30; n++ {
			for m := int64(-30); m <= 30; m++ {
				_, in := orig.contains([]int64{n, m})
				_, got := p.contains([]int64{n, m})
				if in != got {
					t.Fatalf("%s at n=%d m=%d: written %v, rewritten (%s) %v", c.src, n, m, in, text, got)
				}
			}
		}
	}
}
