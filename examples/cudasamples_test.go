package examples_test

import (
	"maps"
	"math"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// NVIDIA cuda-samples' kernels, reimplemented from their CUDA originals.
func init() {
	maps.Copy(kernels, cudasamples)
	// A call's price is the difference of two terms of about the stock
	// price (1 here), and cancels for options far out of the money.
	terms["BlackScholes"] = 1
	fixInputs["histogram256"] = func(p map[string]int64, in map[string][]float32) {
		// Words of all four bytes' bins but the top byte's middle ones,
		// negative and not, within float32's exact integers.
		for j := range in["data"] {
			in["data"][j] = float32(int64(j)*2654435761%(1<<24) - 1<<23)
		}
	}
}

// histogram256 is histogram256Kernel's output: per block g of 240 (of 192
// threads), the bins of the bytes of the words at g*192 + l + 46080*k,
// the four bytes of each word as uint.
func histogram256(p map[string]int64, in map[string][]float32) map[string][]float32 {
	const blocks, threads = 240, 192
	partial := make([]float32, 256*blocks)
	for g := range int64(blocks) {
		for l := range int64(threads) {
			for pos := g*threads + l; pos < p["n"]; pos += blocks * threads {
				v := uint32(int32(in["data"][pos]))
				for b := range 4 {
					partial[256*g+int64(v>>(8*b)&255)]++
				}
			}
		}
	}
	return map[string][]float32{"partial": partial}
}

// TestHistogram256HandCounts checks histogram256.knl's counts, every
// property, against those derived by hand from histogram256Kernel (at
// the commit the port cites), launched as its host does: 240 blocks of
// 192 threads, 46080 threads, over n words. Once a thread: s_WarpHist =
// s_Hist + (threadIdx.x >> 5)*256 is a shift and a multiplication
// (adding the array's base is an address, as every subscript's is);
// tag = threadIdx.x << 27 is passed to addByte, which never reads it,
// and is not counted; the clearing loop stores 8 counters (affine
// subscripts, not counted); two barriers. Once a word (the grid-stride
// loop runs n times in all; its control is not counted, as no loop's
// is): a stride-1 load; addWord's (data >> s) & 0xFF for s = 0, 8, 16,
// 24, 3 shifts (>> 0 is none) and 4 ands; addByte's s_WarpHist + byte,
// 4 additions and 4 atomic additions to local memory. The merge: each
// of a block's 256 bins once (bin from threadIdx.x in steps of 192), 240
// * 256 = 61440 in all, sums the 6 warps' counters (6 loads and 6
// additions from sum = 0; & TAG_MASK, 0xFFFFFFFF, is the value) and
// stores once (stride 1). The words, the counters and the sums are uint
// there and u32 in the port, whose operations, loads and stores count
// under i32's names (a 32-bit integer either way; the shifts of d are
// logical, as uint's are, and count as shifts all the same); s_WarpHist's
// offset is an index, the port's i32 h.
func TestHistogram256HandCounts(t *testing.T) {
	const threads, bins = 240 * 192, 240 * 256
	c, err := counts.Count(parse(t, "histogram256"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int64{1000, 100003} {
		want := map[string]int64{
			"global.load.i32.stride=1": n, "global.store.i32.stride=1": bins, "global.minldst.i32.stride=1": min(n, bins),
			"int.i32.shift": threads + 3*n, "int.i32.mul": threads, "int.i32.bitwise": 4 * n, "int.i32.add": 4*n + 6*bins,
			"local.atomic.i32.add": 4 * n, "local.store.i32": 8 * threads, "local.load.i32": 6 * bins,
			"sync.barrier": 2 * threads, "launch.groups": 240, "launch.const": 1,
		}
		got, err := c.Eval(map[string]int64{"n": n})
		if err != nil {
			t.Fatal(err)
		}
		maps.DeleteFunc(got, func(_ string, v int64) bool { return v == 0 })
		if !maps.Equal(got, want) {
			t.Errorf("n = %d: counted\n%v\nwant\n%v", n, got, want)
		}
	}
}

// tiles calls f for every work-item (x, y) of transpose.cu's launches and
// each of its two rows i (0 and 16): x and y are the global indices
// blockIdx*TILE_DIM + threadIdx, bx and by the block's first column and
// row, tx and ty the thread's indices.
func tiles(width, height int64, f func(bx, by, tx, ty, i int64)) {
	const tile, rows = 32, 16
	for by := int64(0); by < height; by += tile {
		for bx := int64(0); bx < width; bx += tile {
			for ty := range int64(rows) {
				for tx := range int64(tile) {
					for i := int64(0); i < tile; i += rows {
						f(bx, by, tx, ty, i)
					}
				}
			}
		}
	}
}

// reduceBlocks loads each block of 256 elements as reduce0 to reduce2 do
// (zero past n) and reduces it with level, which adds within the block.
func reduceBlocks(n int64, in []float32, level func(s []float32)) []float32 {
	const b = 256
	out := make([]float32, (n+b-1)/b)
	for g := range out {
		s := make([]float32, b)
		for t := range int64(b) {
			if i := int64(g)*b + t; i < n {
				s[t] = in[i]
			}
		}
		level(s)
		out[g] = s[0]
	}
	return out
}

// separable is convolutionSeparable's 17-tap filter k along the rows or
// the columns of a w x h image, zero beyond its edges, summed from
// the tap at -8 to the one at +8 as both kernels do.
func separable(src, k []float32, w, h int64, rows bool) []float32 {
	const r = 8
	dst := make([]float32, w*h)
	for y := range h {
		for x := range w {
			var sum float32
			for j := int64(-r); j <= r; j++ {
				yy, xx := y, x+j
				if !rows {
					yy, xx = y+j, x
				}
				if 0 <= yy && yy < h && 0 <= xx && xx < w {
					sum += k[r-j] * src[yy*w+xx]
				}
			}
			dst[y*w+x] = sum
		}
	}
	return dst
}

var cudasamples = map[string]example{
	"histogram256": {map[string]int64{"n": 100003}, histogram256},
	"convolutionRows": {map[string]int64{"imageW": 256, "imageH": 8}, func(p map[string]int64, in arrays) arrays {
		return arrays{"d_Dst": separable(in["d_Src"], in["c_Kernel"], p["imageW"], p["imageH"], true)}
	}},
	"convolutionColumns": {map[string]int64{"imageW": 32, "imageH": 128}, func(p map[string]int64, in arrays) arrays {
		return arrays{"d_Dst": separable(in["d_Src"], in["c_Kernel"], p["imageW"], p["imageH"], false)}
	}},
	"transpose_copy": {map[string]int64{"width": 64, "height": 96}, func(p map[string]int64, in arrays) arrays {
		w, h := p["width"], p["height"]
		out := clone(in["odata"])
		tiles(w, h, func(bx, by, tx, ty, i int64) {
			index := bx + tx + w*(by+ty)
			out[index+i*w] = in["idata"][index+i*w]
		})
		return arrays{"odata": out}
	}},
	"transpose_copyshared": {map[string]int64{"width": 64, "height": 96}, func(p map[string]int64, in arrays) arrays {
		w, h := p["width"], p["height"]
		out := clone(in["odata"])
		tiles(w, h, func(bx, by, tx, ty, i int64) {
			x, y := bx+tx, by+ty
			index := x + w*y
			if x < h && y < w {
				// the tile holds what this work-item loaded
				out[index+i*w] = in["idata"][index+i*w]
			}
		})
		return arrays{"odata": out}
	}},
	"transpose_naive": {map[string]int64{"width": 64, "height": 96}, func(p map[string]int64, in arrays) arrays {
		w, h := p["width"], p["height"]
		out := clone(in["odata"])
		tiles(w, h, func(bx, by, tx, ty, i int64) {
			x, y := bx+tx, by+ty
			out[y+h*x+i] = in["idata"][x+w*y+i*w]
		})
		return arrays{"odata": out}
	}},
	"transpose_coalesced": {map[string]int64{"width": 64, "height": 96}, func(p map[string]int64, in arrays) arrays {
		w, h := p["width"], p["height"]
		out := clone(in["odata"])
		// work-item (tx, ty) stores tile[tx][ty + i], which work-item
		// (ty + i, tx) of the same block loaded from row by + tx, column
		// bx + ty + i.
		tiles(w, h, func(bx, by, tx, ty, i int64) {
			out[(by+tx)+(bx+ty+i)*h] = in["idata"][(bx+ty+i)+(by+tx)*w]
		})
		return arrays{"odata": out}
	}},
	"transpose_finegrained": {map[string]int64{"width": 64, "height": 64}, func(p map[string]int64, in arrays) arrays {
		w, h := p["width"], p["height"]
		out := clone(in["odata"])
		tiles(w, h, func(bx, by, tx, ty, i int64) {
			index := bx + tx + (by+ty)*w
			out[index+i*h] = in["idata"][(bx+ty+i)+(by+tx)*w]
		})
		return arrays{"odata": out}
	}},
	"transpose_coarsegrained": {map[string]int64{"width": 64, "height": 96}, func(p map[string]int64, in arrays) arrays {
		w, h := p["width"], p["height"]
		out := clone(in["odata"])
		tiles(w, h, func(bx, by, tx, ty, i int64) {
			out[(by+tx)+(bx+ty+i)*h] = in["idata"][(bx+tx)+(by+ty+i)*w]
		})
		return arrays{"odata": out}
	}},
	"reduce0": {map[string]int64{"n": 1000, "blocks": 4}, func(p map[string]int64, in arrays) arrays {
		return arrays{"g_odata": reduceBlocks(p["n"], in["g_idata"], func(s []float32) {
			for st := 1; st < len(s); st *= 2 {
				for t := range s {
					if t%(2*st) == 0 {
						s[t] += s[t+st]
					}
				}
			}
		})}
	}},
	"reduce1": {map[string]int64{"n": 1000, "blocks": 4}, func(p map[string]int64, in arrays) arrays {
		return arrays{"g_odata": reduceBlocks(p["n"], in["g_idata"], func(s []float32) {
			for st := 1; st < len(s); st *= 2 {
				for t := range s {
					if index := 2 * st * t; index < len(s) {
						s[index] += s[index+st]
					}
				}
			}
		})}
	}},
	"reduce2": {map[string]int64{"n": 1000, "blocks": 4}, func(p map[string]int64, in arrays) arrays {
		return arrays{"g_odata": reduceBlocks(p["n"], in["g_idata"], func(s []float32) {
			for st := len(s) / 2; st > 0; st >>= 1 {
				for t := range st {
					s[t] += s[t+st]
				}
			}
		})}
	}},
	"matrixMul": {map[string]int64{"hA": 32, "wA": 64, "wB": 96}, func(p map[string]int64, in arrays) arrays {
		return arrays{"C": product(in["A"], in["B"], p["hA"], p["wA"], p["wB"], 1)}
	}},
	"vectorAdd": {map[string]int64{"numElements": 300}, func(p map[string]int64, in arrays) arrays {
		c := make([]float32, p["numElements"])
		for i := range c {
			c[i] = in["A"][i] + in["B"][i] + 0
		}
		return arrays{"C": c}
	}},
	"BlackScholes": {map[string]int64{"halfN": 300}, func(p map[string]int64, in arrays) arrays {
		const r, v float32 = 0.02, 0.30
		call, put := make([]float32, 2*p["halfN"]), make([]float32, 2*p["halfN"])
		for i := range call {
			s, x, t := in["d_StockPrice"][i], in["d_OptionStrike"][i], in["d_OptionYears"][i]
			sqrtT := 1 / float32(1/math.Sqrt(float64(t)))
			d1 := (float32(math.Log(float64(s/x))) + (r+0.5*v*v)*t) / (v * sqrtT)
			d2 := d1 - v*sqrtT
			c1, c2 := cnd(d1), cnd(d2)
			expRT := float32(math.Exp(float64(-r * t)))
			call[i] = s*c1 - x*expRT*c2
			put[i] = x*expRT*(1-c2) - s*(1-c1)
		}
		return arrays{"d_CallResult": call, "d_PutResult": put}
	}},
}

// cnd is cndGPU, in float32 as there.
func cnd(d float32) float32 {
	const a1, a2, a3, a4, a5 float32 = 0.31938153, -0.356563782, 1.781477937, -1.821255978, 1.330274429
	const rsqrt2pi float32 = 0.39894228040143267793994605993438
	k := 1 / (1 + 0.2316419*float32(math.Abs(float64(d))))
	c := rsqrt2pi * float32(math.Exp(float64(-0.5*d*d))) * (k * (a1 + k*(a2+k*(a3+k*(a4+k*a5)))))
	if d > 0 {
		c = 1 - c
	}
	return c
}
