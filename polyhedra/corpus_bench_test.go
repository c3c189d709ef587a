package polyhedra

import (
	"fmt"
	"math/rand"
	"testing"
)

// cardCorpus are the sets BenchmarkCardCorpus counts: the sets of issue
// 26, on which barvinok 0.41.8 (on isl 0.27, parse excluded, best of 20)
// took 66 µs, 0.84 ms, 0.82 ms and 18.5 µs for 1, 3, 3 and 1 pieces;
// classic shapes; and seeded random sets of the property test.
func cardCorpus() []struct{ name, src string } {
	corpus := []struct{ name, src string }{
		{"issue26_thin", "[n, m] -> { [i, j, k] : i >= -2 and i <= m + 1 and j >= i + 1 and j <= 2n - 1 and 2k >= i + j + 2 and 2k <= n + m + 2 and -2i - k - 2n - 4 >= 0 }"},
		{"issue26_wedge", "[n, m] -> { [i, j] : 0 <= i <= n and 0 <= j <= m and 3i + 5j <= 2n + m }"},
		{"issue26_stencil", "[n, m] -> { [i, j, k] : 1 <= i < n - 1 and 1 <= j < m - 1 and 0 <= k <= i + j and k mod 2 = 0 }"},
		// The shape of stride2_filled's footprint: the addresses the
		// work-groups of 256 work-items load, n of them.
		{"issue26_footprint", "[n] -> { [a] : exists (g, p : 0 <= p < 256 and 0 <= 256g + p < n and a = 256g + p) }"},
		{"triangle", triangle},
		{"tetrahedron", "[n] -> { [i, j, k] : 0 <= k <= j <= i < n }"},
		{"matmul_tiled", matmulTiled},
		{"partial_tile", "[n] -> { [io, ii] : 0 <= ii < 16 and 0 <= 16io + ii < n and ii < 8 }"},
		{"min_bound", "[n, m] -> { [i, j] : 0 <= i < min(n, m) and 0 <= j <= i }"},
		{"skewed", "[n, m] -> { [i, j] : 0 <= i < n and i <= j < i + m }"},
	}
	r := rand.New(rand.NewSource(26))
	for k := range 6 {
		corpus = append(corpus, struct{ name, src string }{fmt.Sprintf("random%d", k), randomSet(r, 2+k%2, 2).src})
	}
	return corpus
}

// BenchmarkCardCorpus counts each set of cardCorpus and reports the
// pieces its answer prints (the basic sets of the printed domains).
func BenchmarkCardCorpus(b *testing.B) {
	for _, c := range cardCorpus() {
		b.Run(c.name, func(b *testing.B) {
			s, err := ParseSet(c.src)
			if err != nil {
				b.Fatal(err)
			}
			var q *PwQPolynomial
			for b.Loop() {
				if q, err = s.Card(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(q.view())), "pieces")
		})
	}
}

// BenchmarkCardCorpusPrinted is BenchmarkCardCorpus with the printed
// answer formed too (String), as barvinok's times include its own
// simplification: Card leaves the printed normal form until first use.
func BenchmarkCardCorpusPrinted(b *testing.B) {
	for _, c := range cardCorpus() {
		b.Run(c.name, func(b *testing.B) {
			s, err := ParseSet(c.src)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				q, err := s.Card()
				if err != nil {
					b.Fatal(err)
				}
				_ = q.String()
			}
		})
	}
}

// TestCardCorpus checks the printed answers of cardCorpus against
// enumeration, so that the benchmark times right answers.
func TestCardCorpus(t *testing.T) {
	for _, c := range cardCorpus() {
		s, q := parseAndCount(t, c.src)
		checkShown(t, s, q, -2, 9)
	}
}
