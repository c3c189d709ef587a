package cimport

import (
	"maps"
	"math"
	"testing"

	"github.com/uniperf/uniperf/counts"
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
	ports = append(ports, port{"rodinia/nn_cuda.cu", "euclid", []string{"--kernel", "euclid", "--local", "256", "--groups", "numRecords/256",
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
// Riskfree and Volatility are the values the sample passes.
var blackScholes = port{"cuda-samples/BlackScholes_kernel.cuh", "BlackScholesGPU", []string{"--local", "128", "--groups", "halfN/128", "-D", "optN=2*halfN",
	"--array", "d_CallResult=halfN", "--array", "d_PutResult=halfN", "--array", "d_StockPrice=halfN",
	"--array", "d_OptionStrike=halfN", "--array", "d_OptionYears=halfN", "-D", "Riskfree=0.02f", "-D", "Volatility=0.30f"},
	[]map[string]int64{{"halfN": 1024}, {"halfN": 4096}}}

func init() {
	ports = append(ports, blackScholes)
	originals["BlackScholesGPU"] = func(p map[string]int64, in map[string][]float32) map[string][]float32 {
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

// TestBlackScholesCountsAsHandPort checks the import's counts against
// examples/BlackScholes.knl's. Two differences are derived by hand and
// allowed for, nothing else: the port folds the sample's Riskfree +
// 0.5f*Volatility*Volatility into a literal, where the original computes
// it in each of its two bodies from its scalar arguments (one addition
// and two multiplications a body: 2 flop.f32.add and 4 flop.f32.mul an
// option pair); and the port's instructions that name no launch index
// (sqrtT = 1.0f/rsqrt(T)) count over every launched work-item, which
// the sizes avoid by being multiples of the 128 a group (halfN = 1024,
// 4096), so that the launched and the guarded work-items are the same.
// Its memory accesses, groups and the rest of its flops are equal.
func TestBlackScholesCountsAsHandPort(t *testing.T) {
	r := importPort(t, blackScholes)
	got, err := counts.ParseKernel("BlackScholes.knl", r.Knl, nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, r.Knl)
	}
	gc, err := counts.Count(got)
	if err != nil {
		t.Fatal(err)
	}
	hc, err := counts.Count(handPort(t, "BlackScholes", nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range blackScholes.sizes {
		g, err := gc.Eval(size)
		if err != nil {
			t.Fatal(err)
		}
		h, err := hc.Eval(size)
		if err != nil {
			t.Fatal(err)
		}
		want := nonzero(h)
		want["flop.f32.add"] += 2 * size["halfN"]
		want["flop.f32.mul"] += 4 * size["halfN"]
		if !maps.Equal(nonzero(g), want) {
			t.Errorf("at %v: imported counts\n%v\nwant the hand port's with the scalars' arithmetic\n%v", size, nonzero(g), want)
		}
	}
}
