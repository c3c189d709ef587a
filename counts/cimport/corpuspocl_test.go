package cimport

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/launch/pocltest"
)

// corpusScalars are the values the PolyBench-ACC hosts give the
// floating-point arguments, which the hand ports write as literals
// (gesummv's 43532.0f*tmp[i] + 12313.0f*y[i]).
var corpusScalars = map[string]map[string]string{
	"gemver2": {"beta": "12313.0f"}, "gemver3": {"alpha": "43532.0f"}, "gesummv": {"alpha": "43532.0f", "beta": "12313.0f"},
	"mm2_1": {"alpha": "32412.0f"}, "mm2_2": {"beta": "2123.0f"}, "syr2k": {"alpha": "32412.0f", "beta": "2123.0f"},
	"covariance1": {"float_n": "3214212.01f"}, "correlation2": {"float_n": "3214212.01f"}, "correlation3": {"float_n": "3214212.01f"},
}

// corpusRenamed are arrays the hand port names otherwise: doitgen's
// argument sum, a word of .knl, is the port's sums and the import's
// sum_2. Each entry is the port's name, the C name and the import's.
var corpusRenamed = map[string][3]string{"doitgen1": {"sums", "sum", "sum_2"}, "doitgen2": {"sums", "sum", "sum_2"}}

// TestCorpusOnPoCLAsPorts runs the generated code of each PolyBench-ACC
// original of corpusEqual that runCases does not run (it has no Go
// reimplementation here) on PoCL, beside its hand port's, on the same
// inputs, and checks that both write the same arrays. The hand ports'
// output is checked against Go reimplementations of the originals by
// examples.TestExamplesOnPoCL, so the imports' is too, through them.
func TestCorpusOnPoCLAsPorts(t *testing.T) {
	dev := pocltest.Open(t)
	run := map[string]bool{}
	for _, c := range runCases() {
		run[c.knl] = true
	}
	for _, knl := range corpusEqual {
		if run[knl] || strings.HasPrefix(knl, "transpose") {
			continue
		}
		t.Run(knl, func(t *testing.T) {
			file, flags, ok := corpusPort(t, knl)
			if !ok {
				t.Fatal("no original cited")
			}
			src, err := os.ReadFile(filepath.Join("testdata", file))
			if err != nil {
				t.Fatal(err)
			}
			opts, err := ParseFlags(flags)
			if err != nil {
				t.Fatal(err)
			}
			maps.Copy(opts.Defines, corpusScalars[knl])
			rn, renamed := corpusRenamed[knl]
			if renamed {
				opts.Arrays[rn[1]] = opts.Arrays[rn[0]]
				delete(opts.Arrays, rn[0])
			}
			handSrc, err := os.ReadFile(filepath.Join("..", "..", "examples", knl+".knl"))
			if err != nil {
				t.Fatal(err)
			}
			r, err := importCorpus(file, src, handSrc, opts)
			if err != nil {
				t.Fatal(err)
			}
			got, err := counts.ParseKernel(knl+".knl", r.Knl, nil)
			if err != nil {
				t.Fatal(err)
			}
			hand := handPort(t, knl, nil)
			size := sizes(hand.Params, 45)
			in := inputs(t, hand, size)
			var written []string
			for _, a := range hand.Arrays {
				if a.Space == counts.Global {
					written = append(written, a.Name)
				}
			}
			want := runOnDevice(t, dev, hand, size, in, written)
			gotIn := maps.Clone(in)
			if renamed {
				gotIn[rn[2]], want[rn[2]] = in[rn[0]], want[rn[0]]
				delete(gotIn, rn[0])
				delete(want, rn[0])
			}
			for _, a := range got.Arrays {
				if _, ok := gotIn[a.Name]; !ok && a.Space == counts.Global {
					gotIn[a.Name] = []float32{0}
				}
			}
			out := runOnDevice(t, dev, got, sizes(got.Params, 45), gotIn, slices.Collect(maps.Keys(want)))
			for arr, w := range want {
				compareArrays(t, arr, out[arr], w)
			}
		})
	}
}
