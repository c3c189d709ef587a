package examples_test

import (
	"maps"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// Rodinia's kernels, reimplemented from their CUDA originals.
func init() {
	maps.Copy(kernels, rodinia)
	// The host clears the flag before each level.
	fixInputs["bfs2"] = func(p map[string]int64, in map[string][]float32) { in["g_over"][0] = 0 }
	// Their eliminations, without pivoting on random blocks, cancel to
	// near zero (the least results are 1e-4 to 1e-2) and carry rounding
	// errors from step to step, so PoCL's contraction of a*b + c differs
	// by more than 1e-5 of some results: compared normwise, relative to
	// the largest result (8.1 and 4.0).
	maps.Copy(terms, map[string]float64{"lud_diagonal": 8, "lud_perimeter": 4})
}

// needleBlock fills one 16 x 16 block of nw's score matrix whose top left
// cell (the corner it reads) is at base, as needle_cuda_shared_1 and _2
// do: each cell the best of the diagonal plus the reference score and
// the left and upper cells less the penalty. The wavefront order of the
// kernels gives the same cells as row-major order, each cell depending
// only on cells above and left of it.
func needleBlock(ref, mat []float32, cols, penalty, base int64) {
	const bs = 16
	var temp [bs + 1][bs + 1]float32
	temp[0][0] = mat[base]
	for t := range int64(bs) {
		temp[t+1][0] = mat[base+cols+cols*t]
		temp[0][t+1] = mat[base+t+1]
	}
	p := float32(penalty)
	for y := 1; y <= bs; y++ {
		for x := 1; x <= bs; x++ {
			r := ref[base+cols+1+int64(x-1)+cols*int64(y-1)]
			temp[y][x] = max(temp[y-1][x-1]+r, temp[y][x-1]-p, temp[y-1][x]-p)
		}
	}
	for ty := range int64(bs) {
		for tx := range int64(bs) {
			mat[base+tx+cols+1+ty*cols] = temp[ty+1][tx+1]
		}
	}
}

var rodinia = map[string]example{
	// calculate_temp's update, in double where its 2.0 makes it so; every
	// point is computed by exactly one work-group, with its neighbours
	// clamped to itself at the grid's edges.
	"hotspot": {map[string]int64{"grid_rows": 37, "grid_cols": 45}, func(p map[string]int64, in arrays) arrays {
		rows, cols := p["grid_rows"], p["grid_cols"]
		stepDivCap := float32(1.4583334e-07) / float32(4.27246164e-07)
		rx1, ry1, rz1 := float32(1)/10, float32(1)/10, float32(1)/5120
		t, pw := in["temp_src"], in["power"]
		out := clone(in["temp_dst"])
		for y := range rows {
			for x := range cols {
				at := func(y, x int64) float32 { return t[y*cols+x] }
				c := at(y, x)
				n, s := at(max(y-1, 0), x), at(min(y+1, rows-1), x)
				w, e := at(y, max(x-1, 0)), at(y, min(x+1, cols-1))
				sum := float64(pw[y*cols+x]) + (float64(s+n)-2.0*float64(c))*float64(ry1) +
					(float64(e+w)-2.0*float64(c))*float64(rx1) + float64((80-c)*rz1)
				out[y*cols+x] = float32(float64(c) + float64(stepDivCap)*sum)
			}
		}
		return arrays{"temp_dst": out}
	}},
	"needle1": {map[string]int64{"cols": 49, "block_width": 3, "i": 2, "penalty": 10}, func(p map[string]int64, in arrays) arrays {
		cols, i := p["cols"], p["i"]
		mat := clone(in["matrix_cuda"])
		for bx := range i {
			needleBlock(in["referrence"], mat, cols, p["penalty"], cols*16*(i-1-bx)+16*bx)
		}
		return arrays{"matrix_cuda": mat}
	}},
	"needle2": {map[string]int64{"cols": 49, "block_width": 3, "i": 2, "penalty": 10}, func(p map[string]int64, in arrays) arrays {
		cols, i, bw := p["cols"], p["i"], p["block_width"]
		mat := clone(in["matrix_cuda"])
		for bx := range i {
			needleBlock(in["referrence"], mat, cols, p["penalty"], cols*16*(bw-bx-1)+16*(bx+bw-i))
		}
		return arrays{"matrix_cuda": mat}
	}},
	"fan1": {map[string]int64{"Size": 600, "t": 3}, func(p map[string]int64, in arrays) arrays {
		n, t := p["Size"], p["t"]
		m, a := clone(in["m"]), in["a"]
		for x := range n - 1 - t {
			m[n*(x+t+1)+t] = a[n*(x+t+1)+t] / a[n*t+t]
		}
		return arrays{"m": m}
	}},
	"fan2": {map[string]int64{"Size": 23, "t": 3}, func(p map[string]int64, in arrays) arrays {
		n, t := p["Size"], p["t"]
		m, a, b := in["m"], clone(in["a"]), clone(in["b"])
		for x := range n - 1 - t {
			for y := range n - t {
				a[n*(x+1+t)+(y+t)] -= m[n*(x+1+t)+t] * a[n*t+(y+t)]
				if y == 0 {
					b[x+1+t] -= m[n*(x+1+t)+(y+t)] * b[t]
				}
			}
		}
		return arrays{"a": a, "b": b}
	}},
	"bpnn_layerforward": {map[string]int64{"nb": 3, "hid": 16}, func(p map[string]int64, in arrays) arrays {
		const h, w = 16, 16
		nb, hid := p["nb"], p["hid"]
		ih, partial := clone(in["input_hidden_cuda"]), clone(in["hidden_partial_sum"])
		for by := range nb {
			var wm [h][w]float32
			index := func(ty, tx int64) int64 { return (hid+1)*h*by + (hid+1)*ty + tx + 1 + (hid + 1) }
			for ty := range int64(h) {
				for tx := range int64(w) {
					wm[ty][tx] = ih[index(ty, tx)] * in["input_cuda"][h*by+ty+1]
				}
			}
			for pow := 2; pow <= h; pow *= 2 {
				for ty := 0; ty < h; ty += pow {
					for tx := range w {
						wm[ty][tx] += wm[ty+pow/2][tx]
					}
				}
			}
			for ty := range int64(h) {
				for tx := range int64(w) {
					ih[index(ty, tx)] = wm[ty][tx]
				}
				partial[by*hid+ty] = wm[0][ty]
			}
		}
		return arrays{"input_hidden_cuda": ih, "hidden_partial_sum": partial}
	}},
	// ETA and MOMENTUM are double literals there: the updates are computed
	// in double and rounded to float.
	"bpnn_adjust_weights": {map[string]int64{"nb": 3, "hid": 16}, func(p map[string]int64, in arrays) arrays {
		const h, eta, momentum = 16, 0.3, 0.3
		nb, hid := p["nb"], p["hid"]
		delta, ly := in["delta"], in["ly"]
		w, oldw := clone(in["w"]), clone(in["oldw"])
		for by := range nb {
			for ty := range int64(h) {
				for tx := range int64(16) {
					i, x, y := (hid+1)*h*by+(hid+1)*ty+tx+1+(hid+1), tx+1, h*by+ty+1
					w[i] = float32(float64(w[i]) + (eta*float64(delta[x])*float64(ly[y]) + momentum*float64(oldw[i])))
					oldw[i] = float32(eta*float64(delta[x])*float64(ly[y]) + momentum*float64(oldw[i]))
				}
			}
		}
		for x := int64(1); x <= 16; x++ {
			w[x] = float32(float64(w[x]) + (eta*float64(delta[x]) + momentum*float64(oldw[x])))
			oldw[x] = float32(eta*float64(delta[x]) + momentum*float64(oldw[x]))
		}
		return arrays{"w": w, "oldw": oldw}
	}},
	"euclid": {map[string]int64{"numRecords": 300}, func(p map[string]int64, in arrays) arrays {
		loc := in["d_locations"]
		const lat, lng float32 = 30, 90
		dist := make([]float32, p["numRecords"])
		for i := range dist {
			la, ln := loc[2*i], loc[2*i+1]
			dist[i] = float32(math.Sqrt(float64((lat-la)*(lat-la) + (lng-ln)*(lng-ln))))
		}
		return arrays{"d_distances": dist}
	}},
	"lud_diagonal": {map[string]int64{"matrix_dim": 48, "offset": 16}, func(p map[string]int64, in arrays) arrays {
		const bs = 16
		n, off := p["matrix_dim"], p["offset"]
		m := clone(in["m"])
		var sh [bs][bs]float32
		for i := range int64(bs) {
			for t := range int64(bs) {
				sh[i][t] = m[(off+i)*n+off+t]
			}
		}
		for i := 0; i < bs-1; i++ {
			for t := i + 1; t < bs; t++ {
				for j := range i {
					sh[t][i] -= sh[t][j] * sh[j][i]
				}
				sh[t][i] /= sh[i][i]
			}
			for t := i + 1; t < bs; t++ {
				for j := range i + 1 {
					sh[i+1][t] -= sh[i+1][j] * sh[j][t]
				}
			}
		}
		for i := int64(1); i < bs; i++ {
			for t := range int64(bs) {
				m[(off+i)*n+off+t] = sh[i][t]
			}
		}
		return arrays{"m": m}
	}},
	"lud_perimeter": {map[string]int64{"matrix_dim": 64, "offset": 16}, func(p map[string]int64, in arrays) arrays {
		const bs = 16
		n, off := p["matrix_dim"], p["offset"]
		m := clone(in["m"])
		at := func(r, c int64) float32 { return in["m"][r*n+c] }
		for bx := int64(0); bs*(bx+2) <= n-off; bx++ {
			var dia, row, col [bs][bs]float32
			for i := range int64(bs) {
				for x := range int64(bs) {
					dia[i][x] = at(off+i, off+x)
					row[i][x] = at(off+i, off+(bx+1)*bs+x)
					col[i][x] = at(off+(bx+1)*bs+i, off+x)
				}
			}
			for x := range bs {
				for i := 1; i < bs; i++ {
					for j := range i {
						row[i][x] -= dia[i][j] * row[j][x]
					}
				}
				for i := range bs {
					for j := range i {
						col[x][i] -= col[x][j] * dia[j][i]
					}
					col[x][i] /= dia[i][i]
				}
			}
			for i := range int64(bs) {
				for x := range int64(bs) {
					if i > 0 {
						m[(off+i)*n+off+(bx+1)*bs+x] = row[i][x]
					}
					m[(off+(bx+1)*bs+i)*n+off+x] = col[i][x]
				}
			}
		}
		return arrays{"m": m}
	}},
	"lud_internal": {map[string]int64{"matrix_dim": 64, "offset": 16}, func(p map[string]int64, in arrays) arrays {
		const bs = 16
		n, off := p["matrix_dim"], p["offset"]
		m := clone(in["m"])
		orig := in["m"]
		for r := off + bs; r < n; r++ {
			for c := off + bs; c < n; c++ {
				var sum float32
				for i := range int64(bs) {
					sum += orig[r*n+off+i] * orig[(off+i)*n+c]
				}
				m[r*n+c] -= sum
			}
		}
		return arrays{"m": m}
	}},
	// kmeans_kernel_c: the first of the nearest centres (a later one
	// replaces it only where strictly nearer), by the squared distance
	// summed feature by feature in f32, as there.
	"kmeans_kernel_c": {map[string]int64{"npoints": 300, "nclusters": 5, "nfeatures": 34}, func(p map[string]int64, in arrays) arrays {
		np, nc, nf := p["npoints"], p["nclusters"], p["nfeatures"]
		feature, clusters := in["feature"], in["clusters"]
		membership := make([]float32, np)
		for pt := range np {
			minDist, index := float32(math.MaxFloat32), int64(0)
			for i := range nc {
				var ans float32
				for l := range nf {
					d := feature[l*np+pt] - clusters[i*nf+l]
					ans += d * d
				}
				if ans < minDist {
					minDist, index = ans, i
				}
			}
			membership[pt] = float32(index)
		}
		return arrays{"membership": membership}
	}},
	// Kernel2: every node marked for the next frontier joins it and is
	// visited, and the flag is set where one was marked.
	"bfs2": {map[string]int64{"no_of_nodes": 1000}, func(p map[string]int64, in arrays) arrays {
		mask, upd := clone(in["g_graph_mask"]), clone(in["g_updating_graph_mask"])
		visited, over := clone(in["g_graph_visited"]), clone(in["g_over"])
		for tid := range p["no_of_nodes"] {
			if upd[tid] != 0 {
				mask[tid], visited[tid], over[0], upd[tid] = 1, 1, 1, 0
			}
		}
		return arrays{"g_graph_mask": mask, "g_updating_graph_mask": upd, "g_graph_visited": visited, "g_over": over}
	}},
}

// TestKmeansBfsHandCounts checks kmeans_kernel_c and bfs2 against counts
// derived by hand from their originals: kmeans per point, centre and
// feature reads feature[l*npoints + p] twice (stride 1) and
// clusters[i*nfeatures + l] twice (uniform), subtracts twice, adds and
// multiplies once, and stores one int per point; bfs2 loads its flag once
// per node (C's one test) and stores three bytes a node and the flag,
// where the flag is set (upper bounds).
func TestKmeansBfsHandCounts(t *testing.T) {
	const np, nc, nf = 1000, 5, 34
	want := []struct {
		kernel string
		params map[string]int64
		counts map[string]int64
		upper  []string
	}{
		{"kmeans_kernel_c", map[string]int64{"npoints": np, "nclusters": nc, "nfeatures": nf}, map[string]int64{
			"global.load.f32.stride=1": 2 * np * nc * nf, "global.load.f32.stride=0": 2 * np * nc * nf,
			"flop.f32.add": 3 * np * nc * nf, "flop.f32.mul": np * nc * nf, "global.store.i32.stride=1": np,
			"launch.groups": 4}, nil},
		{"bfs2", map[string]int64{"no_of_nodes": 1000}, map[string]int64{
			"global.load.b8.stride=1": 1000, "global.store.b8.stride=1": 3000, "global.store.b8.stride=0": 1000,
			"launch.groups": 2}, []string{"global.store.b8.stride=1", "global.store.b8.stride=0"}},
	}
	for _, w := range want {
		c, err := counts.Count(parse(t, w.kernel))
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.Eval(w.params)
		if err != nil {
			t.Fatal(err)
		}
		for name, v := range w.counts {
			if got[name] != v {
				t.Errorf("%s: %s = %d, want %d", w.kernel, name, got[name], v)
			}
		}
		for _, name := range w.upper {
			if !c.UpperBound(name) {
				t.Errorf("%s: %s is not marked an upper bound", w.kernel, name)
			}
		}
	}
}

// flattenNeedle rewrites a needle port's score and reference matrices,
// [cols, cols] there, into Rodinia's flattened form: arrays of cols*cols
// elements indexed by cols*ROW + COLUMN, as needle_kernel.cu computes its
// index (cols*BLOCK_SIZE*b_index_y + BLOCK_SIZE*b_index_x + tx + (cols + 1)
// and the like), the same cells in the same row-major layout.
func flattenNeedle(src string) string {
	src = strings.ReplaceAll(src, "i32 [cols, cols]", "i32 [cols*cols]")
	return regexp.MustCompile(`(referrence|matrix_cuda)\[([^][,]*), ([^][,]*)\]`).ReplaceAllString(src, "$1[cols*($2) + $3]")
}

// TestNeedleFlattened checks issue 42's item 4 on the kernels it names:
// nw's passes written with Rodinia's flattened subscripts, whose pitch
// cols multiplies an expression of inames and parameters (cols*(BS*(i - 1
// - bx) + 1 + ty) + BS*bx + 1 + tx), count what the two-dimensional ports
// count, property by property, and the same footprints, at two sizes
// each, and compute what the Go reimplementation of the original
// computes.
func TestNeedleFlattened(t *testing.T) {
	sizes := map[string][]map[string]int64{
		"needle1": {kernels["needle1"].params, {"cols": 65, "block_width": 4, "i": 4, "penalty": 3}},
		"needle2": {kernels["needle2"].params, {"cols": 65, "block_width": 4, "i": 1, "penalty": 3}},
	}
	for name, at := range sizes {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(name + ".knl")
			if err != nil {
				t.Fatal(err)
			}
			// A reference left two-dimensional would not parse.
			flat, err := counts.ParseKernel(name+"-flat.knl", []byte(flattenNeedle(string(src))), nil)
			if err != nil {
				t.Fatal(err)
			}
			if s := flat.Array("matrix_cuda").Shape; len(s) != 1 {
				t.Fatalf("matrix_cuda has shape %v, want one dimension", s)
			}
			fc, err := counts.Count(flat)
			if err != nil {
				t.Fatal(err)
			}
			tc, err := counts.Count(parse(t, name))
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range at {
				got, err := fc.Eval(p)
				if err != nil {
					t.Fatal(err)
				}
				want, err := tc.Eval(p)
				if err != nil {
					t.Fatal(err)
				}
				if !maps.Equal(got, want) {
					t.Errorf("at %v: flattened %v, two-dimensional %v", p, got, want)
				}
				_, gotFp, err := fc.FootprintsAt(p)
				if err != nil {
					t.Fatal(err)
				}
				_, wantFp, err := tc.FootprintsAt(p)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(gotFp, wantFp) {
					t.Errorf("at %v: footprints flattened %v, two-dimensional %v", p, gotFp, wantFp)
				}
				in := inputs(flat, p)
				data := map[string]any{}
				for n, s := range in {
					data[n] = toRun(flat, n, s)
				}
				if _, err := counts.Run(flat, p, data, nil); err != nil {
					t.Fatal(err)
				}
				for arr, w := range kernels[name].want(p, in) {
					compare(t, name, arr, fromRun(data[arr]), w)
				}
			}
		})
	}
}
