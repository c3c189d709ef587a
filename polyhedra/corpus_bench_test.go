package polyhedra

import (
	"bufio"
	"math/rand"
	"os"
	"strings"
	"testing"
)

// A corpusSet is a named set of testdata/cardcorpus.tsv.
type corpusSet struct{ name, src string }

// fullCardCorpus are the sets BenchmarkCardCorpus counts, from
// testdata/cardcorpus.tsv: the 161 distinct sets that counting the
// library kernels passes to Card (lib*), the four sets of issue 26 and
// six classic shapes, and 46 seeded random sets of the property test
// (random*). docs/counting-sets.md quotes barvinok's times on them.
func fullCardCorpus(tb testing.TB) []corpusSet {
	tb.Helper()
	f, err := os.Open("testdata/cardcorpus.tsv")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []corpusSet
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		name, src, ok := strings.Cut(line, "\t")
		if !ok {
			tb.Fatalf("testdata/cardcorpus.tsv: %q has no tab", line)
		}
		out = append(out, corpusSet{name, src})
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// cardCorpus are the sets of fullCardCorpus that the package's own
// tests count too: the sets, the classic shapes and the first
// six random sets, without the library's and the other random ones.
func cardCorpus(tb testing.TB) []corpusSet {
	var out []corpusSet
	for _, c := range fullCardCorpus(tb) {
		if !strings.HasPrefix(c.name, "lib") && !strings.HasPrefix(c.name, "random_s") {
			out = append(out, c)
		}
	}
	return out
}

// BenchmarkCardCorpus counts each set of fullCardCorpus and reports the
// pieces its answer prints (the basic sets of the printed domains).
func BenchmarkCardCorpus(b *testing.B) {
	for _, c := range fullCardCorpus(b) {
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
// answer formed too (String): Card leaves the printed normal form until
// first use.
func BenchmarkCardCorpusPrinted(b *testing.B) {
	for _, c := range fullCardCorpus(b) {
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
	for _, c := range cardCorpus(t) {
		s, q := parseAndCount(t, c.src)
		checkShown(t, s, q, -2, 9)
	}
}

// corpusValues are the parameter values TestCardCorpusLibrary draws
// from: small sizes, and the tile sizes of the library and their
// neighbours.
var corpusValues = []int64{-1, 0, 1, 2, 3, 5, 8, 15, 16, 17}

// TestCardCorpusLibrary checks the counts of the library's sets of
// fullCardCorpus against enumeration at seeded parameter points.
func TestCardCorpusLibrary(t *testing.T) {
	r := rand.New(rand.NewSource(26))
	for _, c := range fullCardCorpus(t) {
		if !strings.HasPrefix(c.name, "lib") {
			continue
		}
		s, q := parseAndCount(t, c.src)
		for range 6 {
			p := env{}
			for _, name := range s.params {
				p[name] = corpusValues[r.Intn(len(corpusValues))]
			}
			want := int64(len(enumerated(t, s, p)))
			got, err := q.Eval(p)
			if err != nil || !got.IsInt64() || got.Int64() != want {
				t.Fatalf("%s: %s at %v = %v (%v), enumeration %d", c.name, q, p, got, err, want)
			}
		}
	}
}
