package polyhedra

import "testing"

const matmulTiled = "[n, m, l] -> { [io, ii, jo, ji, ko, ki] : 0 <= ii < 16 and 0 <= 16io + ii < n and " +
	"0 <= ji < 16 and 0 <= 16jo + ji < l and 0 <= ki < 16 and 0 <= 16ko + ki < m }"

const triangle = "[n] -> { [i, j] : 0 <= j <= i < n }"

func benchCard(b *testing.B, src string) {
	s, err := ParseSet(src)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Card(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCardMatmulTiled(b *testing.B) { benchCard(b, matmulTiled) }
func BenchmarkCardTriangle(b *testing.B)    { benchCard(b, triangle) }

// BenchmarkCardPartialTile counts tiles that are only half used, which
// takes residue classes and chambers instead of the tile merge.
func BenchmarkCardPartialTile(b *testing.B) {
	benchCard(b, "[n] -> { [io, ii] : 0 <= ii < 16 and 0 <= 16io + ii < n and ii < 8 }")
}

// BenchmarkCardStencil counts a 3-D domain with a parameter-dependent
// bound in every dimension and a stride.
func BenchmarkCardStencil(b *testing.B) {
	benchCard(b, "[n, m] -> { [i, j, k] : 1 <= i < n - 1 and 1 <= j < m - 1 and 0 <= k <= i + j and k mod 2 = 0 }")
}

func benchEval(b *testing.B, src string, args []int64) {
	s, err := ParseSet(src)
	if err != nil {
		b.Fatal(err)
	}
	c, err := s.Card()
	if err != nil {
		b.Fatal(err)
	}
	prog, err := c.Compile(s.Params())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := prog.Eval(args); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEvalMatmulTiled(b *testing.B) { benchEval(b, matmulTiled, []int64{1000, 2000, 3000}) }
func BenchmarkEvalTriangle(b *testing.B)    { benchEval(b, triangle, []int64{1000}) }
func BenchmarkEvalPartialTile(b *testing.B) {
	benchEval(b, "[n] -> { [io, ii] : 0 <= ii < 16 and 0 <= 16io + ii < n and ii <= 7 }", []int64{1001})
}
