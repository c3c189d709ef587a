package polyhedra

import "testing"

func BenchmarkZZTiny(b *testing.B) {
	for _, src := range []string{
		"[n] -> { [b] : n >= 1 and b >= 0 and b < n }",
		"[n, na, nb, nc, nd, ne, c] -> { [] : n >= 1 and na >= 1 and nb >= 1 and nc >= 1 and nd >= 1 and ne >= 1 }",
		"[n] -> { [i_out, i_in] : n mod 256 = 0 and n >= 256 and i_in >= -256*i_out and i_in >= 0 and i_in < n - 256*i_out and i_in <= 31 }",
	} {
		s, _ := ParseSet(src)
		b.Run("", func(b *testing.B) {
			for b.Loop() {
				s.Card()
			}
		})
	}
}
