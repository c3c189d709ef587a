package codegen_test

import (
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/devices"
	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/launch"
	"github.com/uniperf/uniperf/measurekernels/launch/pocltest"
	"github.com/uniperf/uniperf/measurekernels/library"
)

func parse(t testing.TB, name string, consts map[string]int64) *counts.Kernel {
	t.Helper()
	src, err := library.Source(name)
	if err != nil {
		t.Fatal(err)
	}
	k, err := counts.ParseKernel(library.FileName(name), src, consts)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// checkOnPoCL generates k for OpenCL with dom, compiles it on the OpenCL
// device and compares its results at params with the reference
// interpreter's.
func checkOnPoCL(t *testing.T, k *counts.Kernel, dom codegen.HandDomain, params map[string]int64) string {
	t.Helper()
	code, err := codegen.GenerateWith(k, gpu.OpenCL, dom)
	if err != nil {
		t.Fatal(err)
	}
	dev := pocltest.Open(t)
	lk := pocltest.Build(t, dev, k, code)
	if err := lk.Check(params); err != nil {
		t.Fatalf("%v\n%s", err, code.Source)
	}
	return code.Source
}

// The tiled matmul with 16 x 12 work-groups: tiles of 12 along k that do
// not divide m, a prefetch iname (pa, l.0) narrower than its axis, two
// barriers in a loop, and a reduction. Bounds derived by hand from the
// domain with LX = 16, LY = 12.
func TestMatmulTiled(t *testing.T) {
	k := parse(t, "matmul_tiled", map[string]int64{"LX": 16, "LY": 12})
	rows, cols := "12*i_out + i_in <= n - 1", "16*j_out + j_in <= ell - 1"
	dom := codegen.HandDomain{
		Base: map[string]string{"i_out": "0", "i_in": "0", "j_out": "0", "j_in": "0", "pa": "0", "pb": "0"},
		Loop: map[string][4]string{
			"k_out|":                           {"", "0", "(m - 1) / 12", ""},
			"k_in|i_out,i_in,j_out,j_in,k_out": {"", "0", "min(11, m - 1 - 12*k_out)", ""},
		},
		Member: map[string]string{
			"|":                                 "",
			"i_out,i_in,j_out,k_out,pa|k_out":   rows + " && pa <= 11 && 12*k_out + pa <= m - 1",
			"i_out,j_out,j_in,k_out,pb|k_out":   cols + " && 12*k_out + pb <= m - 1",
			"i_out,i_in,j_out,j_in,k_out|k_out": rows + " && " + cols,
			"i_out,i_in,j_out,j_in|":            rows + " && " + cols,
		},
	}
	src := checkOnPoCL(t, k, dom, map[string]int64{"n": 40, "m": 40, "ell": 20})
	for _, want := range []string{"__local float ta[12][12];", "__local float tb[12][16];", "barrier(CLK_LOCAL_MEM_FENCE);", "for (int k_in = 0;"} {
		if !strings.Contains(src, want) {
			t.Errorf("source lacks %q", want)
		}
	}
}

// N-body: column-major positions, private scalars, a sequential loop (c)
// inside another (j_out), rsqrt, and the reduction guard j != i.
func TestNBody(t *testing.T) {
	k := parse(t, "nbody", map[string]int64{"LX": 64})
	own := "64*i_out + i_in <= n - 1"
	dom := codegen.HandDomain{
		Base: map[string]string{"i_out": "0", "i_in": "0", "p": "0"},
		Loop: map[string][4]string{
			"j_out|":                {"", "0", "(n - 1) / 64", ""},
			"c|j_out":               {"", "0", "2", ""},
			"j_in|i_out,i_in,j_out": {"", "0", "min(63, n - 1 - 64*j_out)", "64*j_out + j_in != 64*i_out + i_in"},
		},
		Member: map[string]string{
			"|":                       "",
			"i_out,i_in|":             own,
			"i_out,j_out,c,p|j_out,c": "64*j_out + p <= n - 1",
			"i_out,i_in,j_out|j_out":  own,
		},
	}
	checkOnPoCL(t, k, dom, map[string]int64{"n": 150})
}

// A guard on a stride: vector_scale_add with STRIDE = 3 runs i while
// 3*i < n.
func TestVectorScaleAddStride3(t *testing.T) {
	k := parse(t, "vector_scale_add", map[string]int64{"LX": 64, "STRIDE": 3})
	dom := codegen.HandDomain{
		Base:   map[string]string{"i_out": "0", "i_in": "0"},
		Member: map[string]string{"i_out,i_in|": "3*(64*i_out + i_in) <= n - 1"},
	}
	checkOnPoCL(t, k, dom, map[string]int64{"n": 1000})
}

// A wrong guard must be caught by the check: here the last partial
// work-group is cut off.
func TestWrongBoundsAreCaught(t *testing.T) {
	k := parse(t, "vector_scale_add", map[string]int64{"LX": 64, "STRIDE": 1})
	dom := codegen.HandDomain{
		Base:   map[string]string{"i_out": "0", "i_in": "0"},
		Member: map[string]string{"i_out,i_in|": "64*i_out + i_in <= n - 65"},
	}
	code, err := codegen.GenerateWith(k, gpu.OpenCL, dom)
	if err != nil {
		t.Fatal(err)
	}
	dev, err := devices.Open("opencl")
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	lk, err := launch.Build(dev, k, code)
	if err != nil {
		t.Fatal(err)
	}
	defer lk.Close()
	err = lk.Check(map[string]int64{"n": 1000})
	if err == nil || !strings.Contains(err.Error(), "NaN (never written)") {
		t.Errorf("got %v, want the unwritten elements reported", err)
	}
}
