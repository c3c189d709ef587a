package codegen_test

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/launch/pocltest"
)

// indirectKernels gather, scatter and add atomically: f32 and i32, to
// global and to local memory (the f32 local one through OpenCL's
// compare-exchange loop), and gather from readonly arrays (CUDA's __ldg).
var indirectKernels = map[string]string{
	"rogather": `kernel rogather
domain [n] -> { [i] : 0 <= i < n }
array perm i32 [n] readonly
array x f32 [n] readonly
array y f32 [n]
split i 16 i_out i_in
tag i_out g.0, i_in l.0
y[i] = x[perm[i]]
`,
	"gather": `kernel gather
const LX = 16
domain [n] -> { [i] : 0 <= i < n }
array perm i32 [n]
array x f32 [n]
array y f32 [n]
array z f32 [n]
split i LX i_out i_in
tag i_out g.0, i_in l.0
y[i] = 2*x[perm[i]]
z[perm[i]] = x[i]
`,
	"hist": `kernel hist
const LX = 16
domain [ng] -> { [g, l] : 0 <= g < ng and 0 <= l < LX }
domain { [c] : 0 <= c < 8 }
array a i32 [LX*ng]
array w f32 [LX*ng]
array hist i32 [8]
array whist f32 [8]
local lw f32 [8]
tag g g.0, l l.0, c l.0
lw[c] = 0 {inames=g}
barrier
atomic_add(hist[a[LX*g + l] % 8], 1)
atomic_add(lw[a[LX*g + l] // 4 % 8], w[LX*g + l])
barrier
atomic_add(whist[c], lw[c]) {inames=g}
`,
}

// runIndirect builds a kernel of indirectKernels on dev, runs it on in
// (i32 arrays as int32, f32 as float32) and returns every global array.
func runIndirect(t *testing.T, dev gpu.Device, name string, params map[string]int64, in map[string]any) map[string][]byte {
	t.Helper()
	k, err := counts.ParseKernel(name+".knl", []byte(indirectKernels[name]), nil)
	if err != nil {
		t.Fatal(err)
	}
	bytes := map[string][]byte{}
	for name, v := range in {
		bytes[name] = littleEndian(v)
	}
	return pocltest.Run(t, dev, k, params, bytes)
}

func littleEndian(v any) []byte {
	var b []byte
	switch v := v.(type) {
	case []int32:
		for _, x := range v {
			b = binary.LittleEndian.AppendUint32(b, uint32(x))
		}
	case []float32:
		for _, x := range v {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
	}
	return b
}

func word(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }

// Gathers, scatters and atomics generated as OpenCL C compute on PoCL
// what Go computes: a permutation gathered and scattered, and
// histograms counted with i32 atomics to global memory and summed with
// f32 atomics to local memory (within a float's rounding of the sum).
func TestIndirectOnPoCL(t *testing.T) {
	dev := pocltest.Open(t)
	const n = 37
	perm := []int32{}
	for i := range n {
		perm = append(perm, int32((i*11+5)%n))
	}
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(i) + 0.25
	}
	out := runIndirect(t, dev, "gather", map[string]int64{"n": n}, map[string]any{"perm": perm, "x": x})
	for i := range n {
		y, z := math.Float32frombits(word(out["y"], i)), math.Float32frombits(word(out["z"], int(perm[i])))
		if y != 2*x[perm[i]] || z != x[i] {
			t.Errorf("i=%d: y %g, z[perm[i]] %g, want %g, %g", i, y, z, 2*x[perm[i]], x[i])
		}
	}
	const ng = 5
	a, w := make([]int32, 16*ng), make([]float32, 16*ng)
	hist, whist := make([]int32, 8), make([]float64, 8)
	for i := range a {
		a[i], w[i] = int32((i*i*7+3)%61), float32(i%9)/4
		hist[a[i]%8]++
		whist[a[i]/4%8] += float64(w[i])
	}
	out = runIndirect(t, dev, "hist", map[string]int64{"ng": ng}, map[string]any{"a": a, "w": w, "hist": make([]int32, 8), "whist": make([]float32, 8)})
	for b := range 8 {
		if got := int32(word(out["hist"], b)); got != hist[b] {
			t.Errorf("hist[%d] = %d, want %d", b, got, hist[b])
		}
		if got := math.Float32frombits(word(out["whist"], b)); math.Abs(float64(got)-whist[b]) > 1e-5*whist[b] {
			t.Errorf("whist[%d] = %g, want %g", b, got, whist[b])
		}
	}
}

// The CUDA C of the gathers and atomics compiles to PTX, with atomicAdd
// for f32 and i32 alike (a call of the prelude's declaration here; NVRTC
// defines it).
func TestIndirectCUDACompiles(t *testing.T) {
	clang, prelude := cudaTools(t)
	dir := t.TempDir()
	for name, src := range indirectKernels {
		k, err := counts.ParseKernel(name+".knl", []byte(src), nil)
		if err != nil {
			t.Fatal(err)
		}
		ptx, err := compileCUDA(clang, prelude, dir, k)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if name == "hist" && strings.Count(string(ptx), "call.uni (retval0), \n\t_Z9atomicAdd") != 3 {
			t.Errorf("hist: not 3 atomicAdd calls in the PTX:\n%s", ptx)
		}
		if name == "rogather" && !strings.Contains(string(ptx), "_Z5__ldgPKf") {
			t.Errorf("rogather: the gather from readonly x is not read with __ldg (no call of _Z5__ldgPKf):\n%s", ptx)
		}
	}
}
