package cimport

import (
	"maps"
	"os"
	"path/filepath"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// port is an original kernel of examples/ with the flags that say what
// its host code does (the launch, the arrays' extents, the scalar
// arguments it passes), and the sizes at which its counts are checked
// against the hand port's.
type port struct {
	file  string
	knl   string // the hand port in examples/, or the name of an original without one
	flags []string
	sizes []map[string]int64
}

// hand reports whether p.knl is a hand port in examples/, whose counts
// the import's must equal.
func (p port) hand() bool {
	_, err := os.Stat(filepath.Join("..", "..", "examples", p.knl+".knl"))
	return err == nil
}

var ports = []port{
	{"polybench/gemm.cl", "gemm", []string{"-D", "alpha=32412.0f", "-D", "beta=2123.0f", "--local", "32,8", "--global", "nj,ni",
		"--array", "a=ni*nk", "--array", "b=nk*nj", "--array", "c=ni*nj"},
		[]map[string]int64{{"ni": 37, "nj": 45, "nk": 13}, {"ni": 64, "nj": 100, "nk": 7}}},
	{"polybench/atax.cl", "atax1", []string{"--kernel", "atax_kernel1", "--local", "256", "--global", "nx",
		"--array", "A=nx*ny", "--array", "x=ny", "--array", "y=ny", "--array", "tmp=nx"},
		[]map[string]int64{{"nx": 300, "ny": 41}, {"nx": 1000, "ny": 3}}},
	{"polybench/atax.cl", "atax2", []string{"--kernel", "atax_kernel2", "--local", "256", "--global", "ny",
		"--array", "A=nx*ny", "--array", "x=ny", "--array", "y=ny", "--array", "tmp=nx"},
		[]map[string]int64{{"nx": 41, "ny": 300}, {"nx": 5, "ny": 513}}},
	{"polybench/bicg.cl", "bicg", []string{"--kernel", "bicgKernel2", "--local", "256", "--global", "ny",
		"--array", "A=nx*ny", "--array", "r=nx", "--array", "s=ny", "--array", "p=ny", "--array", "q=nx"},
		[]map[string]int64{{"nx": 41, "ny": 300}, {"nx": 7, "ny": 1024}}},
	{"polybench/jacobi2D.cl", "jacobi2d", []string{"--kernel", "runJacobi2D_kernel1", "--local", "32,8", "--global", "n,n",
		"--array", "A=n*n", "--array", "B=n*n"},
		[]map[string]int64{{"n": 45}, {"n": 130}}},
	{"polybench/syrk.cl", "syrk", []string{"-D", "alpha=12435.0f", "-D", "beta=4546.0f", "--local", "32,8", "--global", "nj,nj",
		"--array", "a=nj*ni", "--array", "c=nj*nj"},
		[]map[string]int64{{"ni": 13, "nj": 37}, {"ni": 40, "nj": 9}}},
	{"cuda-samples/transpose.cu", "transpose", []string{"--kernel", "transposeNoBankConflicts", "-D", "TILE_DIM=16", "-D", "BLOCK_ROWS=16",
		"--local", "TILE_DIM,BLOCK_ROWS", "--groups", "width/TILE_DIM,height/TILE_DIM",
		"--array", "idata=width*height", "--array", "odata=width*height"},
		[]map[string]int64{{"width": 48, "height": 32}, {"width": 64, "height": 16}}},
	// examples/reduction.knl sums in local memory where reduce3 keeps a
	// register, and its n counts groups: TestReductionCountsAsHandPort
	// compares their counts.
	{"cuda-samples/reduction_kernel.cu", "reduce3", []string{"--kernel", "reduce3", "-D", "T=float", "--local", "64", "--groups", "(n+127)/128",
		"--array", "g_idata=n", "--array", "g_odata=n", "--array", "sdata=64"},
		[]map[string]int64{{"n": 300}}},
	// Private constants before the guard (float c11 = 0.2) count nothing
	// and move inside it.
	{"polybench/2DConvolution.cl", "conv2d", []string{"--local", "32,8", "--global", "nj,ni", "--array", "A=ni*nj", "--array", "B=ni*nj"},
		[]map[string]int64{{"ni": 37, "nj": 45}}},
	// Kernels written for these tests, whose flags stand in their
	// uniperf: comments.
	{"own/rowsum.cu", "rowsum", nil, []map[string]int64{{"n": 150, "m": 7}}},
	{"own/shift.cl", "shift", nil, []map[string]int64{{"n": 320}}},
	// alpha takes the scalar's default, 1, in the interpreter and on the
	// device.
	{"own/scalecast.cu", "scalecast", nil, []map[string]int64{{"n": 300, "m": 100}}},
}

// handDiffs holds, for a port whose hand port writes the original
// otherwise where it says so, what the import counts beyond the hand
// port at a size, derived by hand from the two texts (each is explained
// where it is set).
var handDiffs = map[string]func(size map[string]int64) map[string]int64{}

// importPort imports an original with its flags.
func importPort(t testing.TB, p port) *Result {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", p.file))
	if err != nil {
		t.Fatal(err)
	}
	opts, err := ParseFlags(p.flags)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Import(p.file, src, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestPortsCountAsHandPorts imports each original kernel of examples/,
// unedited, and checks that its counts equal the hand port's, property
// by property (stride classes included), at two sizes.
func TestPortsCountAsHandPorts(t *testing.T) {
	for _, p := range ports {
		if !p.hand() {
			continue
		}
		t.Run(p.knl, func(t *testing.T) {
			r := importPort(t, p)
			got, err := counts.ParseKernel(p.knl+".knl", r.Knl, nil)
			if err != nil {
				t.Fatalf("%v\n%s", err, r.Knl)
			}
			hand := handPort(t, p.knl, nil)
			gc, err := counts.Count(got)
			if err != nil {
				t.Fatalf("%v\n%s", err, r.Knl)
			}
			hc, err := counts.Count(hand)
			if err != nil {
				t.Fatal(err)
			}
			for _, size := range p.sizes {
				g, err := gc.Eval(size)
				if err != nil {
					t.Fatal(err)
				}
				// The port may leave out arguments the kernel does not
				// read (kmeans' offset and size).
				h, err := hc.Eval(own(hand, size))
				if err != nil {
					t.Fatal(err)
				}
				want := nonzero(h)
				if diff := handDiffs[p.knl]; diff != nil {
					for prop, n := range diff(size) {
						want[prop] += n
					}
				}
				// A difference may move a class's count elsewhere.
				want = nonzero(want)
				if !maps.Equal(nonzero(g), want) {
					t.Errorf("at %v: imported counts\n%v\nhand port's (with the differences derived by hand)\n%v\n%s", size, nonzero(g), want, r.Knl)
				}
			}
		})
	}
}

func nonzero(m map[string]int64) map[string]int64 {
	out := map[string]int64{}
	for k, v := range m {
		if v != 0 {
			out[k] = v
		}
	}
	return out
}
