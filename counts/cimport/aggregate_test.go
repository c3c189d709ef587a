package cimport

import (
	"maps"
	"math"
	"testing"
)

// Rodinia's euclid (nn_cuda.cu) reads an array of LatLong, a struct of
// two floats, through a pointer to its work-item's element
// (latLong->lat), and folds its blocks into a 2-D grid
// (blockDim.x*(gridDim.x*blockIdx.y + blockIdx.x) + threadIdx.x). It
// imports unedited with the host's 256 threads a block and a 1-D grid
// of ceil(numRecords/256) blocks, which is what the host launches below
// 65535 blocks and what examples/euclid.knl ports: blockIdx.y is 0 in a
// 1-D launch, so the fold is 0 whatever gridDim.x. The array of
// numRecords structs is a float array of 2*numRecords, lat at 2i and lng
// at 2i + 1, as the hand port writes it. The port's query point is the
// run script's literals (30, 90) where the import keeps lat and lng as
// scalar arguments (value 1 here, the scalars' default): a subtraction
// of either counts the same, so the counts are compared whole.
func init() {
	ports = append(ports, port{"rodinia/nn_cuda.cu", "euclid", []string{"--kernel", "euclid", "--local", "256", "--groups", "(numRecords+255)/256",
		"--array", "d_locations=numRecords", "--array", "d_distances=numRecords"},
		[]map[string]int64{{"numRecords": 1000}, {"numRecords": 42764}}})
	originals["euclid"] = func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		d := make([]float32, p["numRecords"])
		for i := range d {
			lat, lng := in["d_locations"][2*i], in["d_locations"][2*i+1]
			d[i] = float32(math.Sqrt(float64((1-lat)*(1-lat) + (1-lng)*(1-lng))))
		}
		return map[string][]float32{"d_distances": d}
	}
}

// cuda-samples' BlackScholesGPU reads and writes float2 arrays
// (d_StockPrice[opt].x, d_CallResult[opt] = make_float2(c1, c2)) and
// inlines BlackScholesBodyGPU, whose results come back through float &
// reference parameters, and cndGPU; __fdividef, __logf and __expf are
// /, log and exp. It imports unedited with the sample's 128 threads a
// block; optN is 2*halfN (-D optN=2*halfN), the hand port's size, and
// Riskfree and Volatility are scalar arguments with the values the
// sample passes, as in examples/BlackScholes.knl, so that both compute
// Riskfree + 0.5f*Volatility*Volatility in each body as the original
// does. The port's instructions that name no launch index (sqrtT =
// 1.0f/rsqrt(T)) count over every launched work-item, which the sizes
// avoid by being multiples of the 128 a group (halfN = 1024, 4096), so
// that the launched and the guarded work-items are the same: the counts
// are equal.
var blackScholes = port{"cuda-samples/BlackScholes_kernel.cuh", "BlackScholes", []string{"--local", "128", "--groups", "(halfN+127)/128", "-D", "optN=2*halfN",
	"--array", "d_CallResult=halfN", "--array", "d_PutResult=halfN", "--array", "d_StockPrice=halfN",
	"--array", "d_OptionStrike=halfN", "--array", "d_OptionYears=halfN", "-D", "Riskfree=0.02f", "-D", "Volatility=0.30f"},
	[]map[string]int64{{"halfN": 1024}, {"halfN": 4096}}}

func init() {
	ports = append(ports, blackScholes)
	originals["BlackScholes"] = func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		const r, v = 0.02, 0.30
		call, put := make([]float64, 2*p["halfN"]), make([]float64, 2*p["halfN"])
		for i := range call {
			s, x, t := float64(in["d_StockPrice"][i]), float64(in["d_OptionStrike"][i]), float64(in["d_OptionYears"][i])
			d1 := (math.Log(s/x) + (r+0.5*v*v)*t) / (v * math.Sqrt(t))
			d2 := d1 - v*math.Sqrt(t)
			e := math.Exp(-r * t)
			call[i] = s*cnd(d1) - x*e*cnd(d2)
			put[i] = x*e*(1-cnd(d2)) - s*(1-cnd(d1))
		}
		return map[string][]float32{"d_CallResult": to32(call), "d_PutResult": to32(put)}
	}
}

// cnd is cndGPU's polynomial approximation of the normal distribution.
func cnd(d float64) float64 {
	k := 1 / (1 + 0.2316419*math.Abs(d))
	c := 0.39894228040143267793994605993438 * math.Exp(-0.5*d*d) * (k * (0.31938153 + k*(-0.356563782+k*(1.781477937+k*(-1.821255978+k*1.330274429)))))
	if d > 0 {
		c = 1 - c
	}
	return c
}

func to32(s []float64) []float32 {
	out := make([]float32, len(s))
	for i, v := range s {
		out[i] = float32(v)
	}
	return out
}

// Kernel Tuner's cn_pnpoly with its defaults (block_size_x 256,
// tile_size 1, between_method 0, use_precomputed_slopes 0, use_method
// 0) reads float2 points and the __constant__ float2 d_vertices (a
// global array of 1200 floats here, as in the hand port), copies them
// into private float2 variables and a private float2 array, and walks
// the edges by for (j = 0; j < VERTICES; k = j++), k the vertex before
// j: the import peels the first edge (k = VERTICES - 1) and loops over
// the rest with k = j - 1, where examples/cn_pnpoly.knl loops over all
// 600 with k = (j + 599) % 600. is_between's (b > a) != (c > a) and c =
// !c are conditional values, as the port writes them.
//
// Its tile loops, for (int ti = 0; ti < tile_size; ti++), run once at
// tile_size 1 and are unrolled at import, as a compiler does, so the
// guards i + block_size_x*ti < n are i < n, which cost nothing, as in
// the port, whose domain implies them. The port's instructions that
// name no launch index (the vertices' loads, the slope) count over every
// launched work-item, which the sizes avoid by being multiples of the
// 256 a group (n = 1024, 20480): the counts are equal.
func init() {
	ports = append(ports, port{"kerneltuner/pnpoly.cu", "cn_pnpoly", []string{"--kernel", "cn_pnpoly", "--local", "block_size_x", "--groups", "(n+block_size_x-1)/block_size_x",
		"--array", "bitmap=n", "--array", "points=n"},
		[]map[string]int64{{"n": 1024}, {"n": 20480}}})
	originals["cn_pnpoly"] = func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		const vertices = 600
		v := in["d_vertices"]
		bitmap := make([]float32, p["n"])
		for i := range bitmap {
			px, py := in["points"][2*i], in["points"][2*i+1]
			c := false
			for j, k := 0, vertices-1; j < vertices; k, j = j, j+1 {
				vjx, vjy, vkx, vky := v[2*j], v[2*j+1], v[2*k], v[2*k+1]
				slope := (vkx - vjx) / (vky - vjy)
				if (vjy > py) != (vky > py) && px < slope*(py-vjy)+vjx {
					c = !c
				}
			}
			if c {
				bitmap[i] = 1
			}
		}
		return map[string][]float32{"bitmap": bitmap}
	}
}

// TestAggregateDeviceFunction checks a float2 array passed to a device
// function, at an offset (p + 1), and read there into a private float2:
// work-item i reads q[i - 1] = p[i], the floats 2i and 2i + 1. By hand:
// two f32 loads a work-item, the pairs of consecutive work-items
// adjacent (stride 2, both of every 2 used), one addition, one store of
// stride 1, ceil(n/64) groups.
func TestAggregateDeviceFunction(t *testing.T) {
	const src = "// uniperf: --local 64 --global n --array p=n --array b=n\n" +
		"__device__ float sumxy(float2 *q, int i) { float2 v = q[i]; return v.x + v.y; }\n" +
		"__global__ void k(float2 *p, float *b, int n) { int i = blockIdx.x*blockDim.x + threadIdx.x; if (i < n) b[i] = sumxy(p + 1, i - 1); }\n"
	c, knl := importCounted(t, src)
	for _, n := range []int64{100, 128} {
		got, err := c.Eval(map[string]int64{"n": n})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int64{"global.load.f32.stride=2/2": 2 * n, "flop.f32.add": n, "global.store.f32.stride=1": n,
			"launch.groups": (n + 63) / 64, "launch.const": 1}
		if !maps.Equal(nonzero(got), want) {
			t.Errorf("n = %d: %v, want %v\n%s", n, nonzero(got), want, knl)
		}
	}
}

// TestStructTags checks that a struct defined by its tag (struct LL {
// float a; float c; };) is an aggregate as a typedef's is, named struct
// LL or, in CUDA's C++, LL: b[i] = p[i].a reads float 2i, by hand n
// loads of stride 2 using 1 of every 2 elements, n stores of stride 1.
func TestStructTags(t *testing.T) {
	for _, typ := range []string{"struct LL", "LL"} {
		src := "// uniperf: --local 64 --global n --array p=n --array b=n\nstruct LL { float a; float c; };\n" +
			"__global__ void k(" + typ + " *p, float *b, int n) { int i = blockIdx.x*blockDim.x + threadIdx.x; if (i < n) b[i] = p[i].a; }\n"
		c, knl := importCounted(t, src)
		got, err := c.Eval(map[string]int64{"n": 100})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int64{"global.load.f32.stride=1/2": 100, "global.store.f32.stride=1": 100, "launch.groups": 2, "launch.const": 1}
		if !maps.Equal(nonzero(got), want) {
			t.Errorf("%s: %v, want %v\n%s", typ, nonzero(got), want, knl)
		}
	}
}
