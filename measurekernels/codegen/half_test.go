package codegen_test

import (
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts/half"
	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/gpu"
)

// Halves on PoCL, through vload_half and vstore_half, compute what Go
// computes with float32 arithmetic and round-to-nearest-even stores:
// testdata/lang/halfstore.knl at values whose products overflow a half
// (65504*3), round at a tie after f32 arithmetic (1/3 * 3) and differ
// when an f64 value is rounded through f32 first (d[0]). The device's
// results must equal Go's bit for bit.
func TestHalfOnPoCL(t *testing.T) {
	k := langKernel(t, "halfstore", consts{"LX": 16})
	const n = 40
	a, x, d := make([]half.Float, n), make([]float32, n), make([]float64, n)
	for i := range n {
		a[i] = half.FromFloat64(float64(i)*0.37 - 7.1)
		x[i] = float32(i)*1.3e-3 + 0.1
		d[i] = float64(i)*1000.5 - 3.25
	}
	a[0], x[0], d[0], a[1] = half.FromFloat64(1.0/3), 0, 1+0x1p-11+0x1p-40, 0x7bff
	out := runOnPoCL(t, k, map[string]int64{"n": n}, map[string]any{"a": a, "x": x, "d": d})
	a2, x2, h, g := out["a"].([]half.Float), out["x"].([]float32), out["h"].([]half.Float), out["g"].([]half.Float)
	for i := range n {
		ai := a[i].Float32()
		ti := half.FromFloat32(ai * 3).Float32()
		wh := half.FromFloat32(ti + x[i])
		wx := float32(ai*ai) + (ai + ai + ai) // the conversion forbids a fused multiply-add
		wg := half.FromFloat64(d[i] * 2)
		wa := half.FromFloat32(ai + 1)
		if h[i] != wh || !near(float64(x2[i]), float64(wx)) || g[i] != wg || a2[i] != wa {
			t.Errorf("element %d: h %#04x x %g g %#04x a %#04x, want %#04x %g %#04x %#04x", i, uint16(h[i]), x2[i], uint16(g[i]), uint16(a2[i]), uint16(wh), wx, uint16(wg), uint16(wa))
		}
	}
	if g[0] != 0x4001 || a2[0] != 0x3d55 || h[0] != 0x3c00 {
		t.Errorf("hand-derived: g[0] %#04x (want 0x4001), a[0] %#04x (0x3d55), h[0] %#04x (0x3c00)", uint16(g[0]), uint16(a2[0]), uint16(h[0]))
	}
}

// The generated code reads and writes halves as C programmers do without
// native half arithmetic: OpenCL C with vload_half and vstore_half and no
// cl_khr_fp16 (a local array's storage is ushort), CUDA C with
// cuda_fp16.h's conversions.
func TestHalfForms(t *testing.T) {
	for _, c := range []struct {
		backend   gpu.Backend
		want, not []string
	}{
		{gpu.OpenCL, []string{"__global half *a", "__local ushort t[16];", "vload_half(16*i_out + i_in, a)",
			"vstore_half(vload_half(i_in, (__local half *)t) + x[16*i_out + i_in], 16*i_out + i_in, h);"},
			[]string{"cl_khr_fp16", "(float)vload_half"}},
		{gpu.CUDA, []string{"#include <cuda_fp16.h>", "__half *a", "__shared__ __half t[16];",
			"h[16*i_out + i_in] = __float2half_rn(__half2float(t[i_in]) + x[16*i_out + i_in]);",
			"g[16*i_out + i_in] = __double2half(d[16*i_out + i_in] * (2.0));"}, []string{"__hadd"}},
	} {
		code, err := codegen.Generate(langKernel(t, "halfstore", consts{"LX": 16}), c.backend)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !strings.Contains(code.Source, w) {
				t.Errorf("%s source lacks %q:\n%s", c.backend, w, code.Source)
			}
		}
		for _, w := range c.not {
			if strings.Contains(code.Source, w) {
				t.Errorf("%s source has %q:\n%s", c.backend, w, code.Source)
			}
		}
	}
}
