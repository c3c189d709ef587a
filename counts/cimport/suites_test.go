package cimport

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/launch/pocltest"
)

// suitePort is an original of Rodinia or Kernel Tuner whose hand port
// is in examples/. Where the original fixes a size by a #define
// (Kernel Tuner's domain_width 4096) that the port makes a parameter
// (w), macros names it, and each size defines it with -D; where the
// import's parameters are not the port's (backprop's in, 16 times the
// port's nb), at gives the import's.
type suitePort struct {
	port
	macros map[string]string // the port's parameter: the original's macro
	at     func(size map[string]int64) map[string]int64
	// deviates corrects the hand port's counts at a size where the port
	// counts otherwise than its original executes, by a hand derivation
	// that the port's test states.
	deviates func(size, counts map[string]int64)
}

var suitePorts = []suitePort{
	// Kernel Tuner (examples/cuda at 96a6abc), with the tuning-space
	// points the ports take.
	{port: port{"kerneltuner/stencil.cu", "stencil_kernel", []string{"-D", "block_size_x=32", "-D", "block_size_y=8",
		"--local", "block_size_x,block_size_y", "--groups", "(domain_width+block_size_x-1)/block_size_x,(domain_height+block_size_y-1)/block_size_y",
		"--array", "x_new=domain_width*domain_height", "--array", "x_old=domain_width*domain_height"},
		[]map[string]int64{{"w": 64, "h": 48}, {"w": 100, "h": 35}}},
		macros: map[string]string{"w": "domain_width", "h": "domain_height"}},
	{port: port{"kerneltuner/reduction.cu", "sum_floats", []string{"-D", "block_size_x=128", "-D", "num_blocks=32",
		"-D", "use_shuffle=0", "-D", "loop_unroll_factor_0=1", "--local", "block_size_x", "--groups", "num_blocks",
		"--array", "sum_global=num_blocks", "--array", "array=n"},
		[]map[string]int64{{"n": 5000}, {"n": 4096*3 + 17}}}},
	{port: port{"kerneltuner/matmul.cu", "matmul_kernel", []string{"-D", "block_size_x=32", "-D", "block_size_y=8",
		"-D", "tile_size_x=2", "-D", "tile_size_y=4", "--local", "block_size_x,block_size_y",
		"--groups", "WIDTH/(block_size_x*tile_size_x),WIDTH/(block_size_y*tile_size_y)",
		"--array", "A=WIDTH*WIDTH", "--array", "B=WIDTH*WIDTH", "--array", "C=WIDTH*WIDTH"},
		[]map[string]int64{{"n": 64}, {"n": 192}}},
		macros: map[string]string{"n": "WIDTH"}},
	{port: port{"kerneltuner/convolution.cu", "convolution_naive", []string{"--kernel", "convolution_naive", "-D", "read_only=0",
		"--local", "16,16", "--groups", "(image_width+15)/16,(image_height+15)/16", "--array", "output=image_width*image_height",
		"--array", "input=input_width*input_height", "--array", "filter=filter_width*filter_height"},
		[]map[string]int64{{"w": 64, "h": 48}, {"w": 40, "h": 72}}},
		macros: map[string]string{"w": "image_width", "h": "image_height"}},
	// d_filter is a __constant__ array of the file, 33*33 floats; the
	// kernel's filter argument is unused.
	{port: port{"kerneltuner/convolution.cu", "convolution_kernel", []string{"--kernel", "convolution_kernel", "-D", "read_only=0",
		"-D", "block_size_x=16", "-D", "block_size_y=16", "--local", "block_size_x,block_size_y",
		"--groups", "image_width/block_size_x,image_height/block_size_y", "--array", "output=image_width*image_height",
		"--array", "input=input_width*input_height", "--array", "filter=filter_width*filter_height"},
		[]map[string]int64{{"w": 64, "h": 48}, {"w": 32, "h": 80}}},
		macros: map[string]string{"w": "image_width", "h": "image_height"}},
	// Rodinia 3.1 (github.com/yuhc/gpu-rodinia at 9c10d3e), with the
	// launch of its host code.
	{port: port{"rodinia/lud_kernel.cu", "lud_diagonal", []string{"--kernel", "lud_diagonal", "--local", "BLOCK_SIZE", "--groups", "1",
		"--array", "m=matrix_dim*matrix_dim"},
		[]map[string]int64{{"matrix_dim": 64, "offset": 16}, {"matrix_dim": 96, "offset": 0}}}},
	{port: port{"rodinia/lud_kernel.cu", "lud_perimeter", []string{"--kernel", "lud_perimeter", "--local", "2*BLOCK_SIZE",
		"--groups", "(matrix_dim-offset)/BLOCK_SIZE-1", "--array", "m=matrix_dim*matrix_dim"},
		[]map[string]int64{{"matrix_dim": 64, "offset": 16}, {"matrix_dim": 96, "offset": 0}}}},
	{port: port{"rodinia/lud_kernel.cu", "lud_internal", []string{"--kernel", "lud_internal", "--local", "BLOCK_SIZE,BLOCK_SIZE",
		"--groups", "(matrix_dim-offset)/BLOCK_SIZE-1,(matrix_dim-offset)/BLOCK_SIZE-1", "--array", "m=matrix_dim*matrix_dim"},
		[]map[string]int64{{"matrix_dim": 64, "offset": 16}, {"matrix_dim": 96, "offset": 0}}}},
	{port: port{"rodinia/backprop_cuda_kernel.cu", "bpnn_adjust_weights", []string{"--kernel", "bpnn_adjust_weights_cuda",
		"-D", "HEIGHT=16", "-D", "WIDTH=16", "-D", "ETA=0.3f", "-D", "MOMENTUM=0.3f", "--local", "16,16", "--groups", "1,in/16",
		"--array", "delta=hid+1", "--array", "ly=in+1", "--array", "w=(in+1)*(hid+1)", "--array", "oldw=(in+1)*(hid+1)"},
		[]map[string]int64{{"nb": 4, "hid": 16}, {"nb": 7, "hid": 16}}},
		at: func(s map[string]int64) map[string]int64 {
			return map[string]int64{"in": 16 * s["nb"], "hid": s["hid"]}
		}},
	// Its loop over i = 1 .. __log2f(HEIGHT) computes __powf(2, i): it is
	// unrolled, and both fold to integers; ty % power_two == 0 is affine.
	{port: port{"rodinia/backprop_cuda_kernel.cu", "bpnn_layerforward", []string{"--kernel", "bpnn_layerforward_CUDA",
		"-D", "HEIGHT=16", "-D", "WIDTH=16", "--local", "16,16", "--groups", "1,in/16",
		"--array", "input_cuda=in+1", "--array", "output_hidden_cuda=hid+1", "--array", "input_hidden_cuda=(in+1)*(hid+1)",
		"--array", "hidden_partial_sum=in*hid"},
		[]map[string]int64{{"nb": 4, "hid": 16}, {"nb": 7, "hid": 16}}},
		at: func(s map[string]int64) map[string]int64 {
			return map[string]int64{"in": 16 * s["nb"], "hid": s["hid"]}
		}},
}

// importAt returns the port with the flags for a size of the hand port,
// and the size of the import's parameters.
func (p suitePort) importAt(size map[string]int64) (port, map[string]int64) {
	q := p.port
	q.flags = slices.Clone(p.flags)
	isize := maps.Clone(size)
	for _, param := range slices.Sorted(maps.Keys(p.macros)) {
		q.flags = append(q.flags, "-D", p.macros[param]+"="+strconv.FormatInt(size[param], 10))
		delete(isize, param)
	}
	if p.at != nil {
		isize = p.at(size)
	}
	return q, isize
}

// imported imports the original at a size of the hand port, returning
// the kernel, the size of its parameters and the import.
func (p suitePort) imported(t *testing.T, size map[string]int64) (*counts.Kernel, map[string]int64, *Result) {
	t.Helper()
	q, isize := p.importAt(size)
	r := importPort(t, q)
	k, err := counts.ParseKernel(p.knl+".knl", r.Knl, nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, r.Knl)
	}
	return k, isize, r
}

// TestSuitesCountAsHandPorts imports Rodinia's and Kernel Tuner's
// originals of examples/, unedited, and checks that their counts equal
// the hand ports', property by property, at two sizes.
func TestSuitesCountAsHandPorts(t *testing.T) {
	for _, p := range suitePorts {
		t.Run(p.knl, func(t *testing.T) {
			hand := handPort(t, p.knl, nil)
			for _, size := range p.sizes {
				got, isize, r := p.imported(t, size)
				g, h, err := countBoth(got, hand, isize, size)
				if err != nil {
					t.Fatalf("%v\n%s", err, r.Knl)
				}
				if p.deviates != nil {
					p.deviates(size, h)
				}
				if !maps.Equal(nonzero(g), nonzero(h)) {
					t.Errorf("at %v: imported counts\n%v\nhand port's\n%v\n%s", size, nonzero(g), nonzero(h), r.Knl)
				}
			}
		})
	}
}

// countBoth counts the imported kernel at isize and the hand port at
// size: symbolically, or, where the imported kernel's footprint does
// not split (Fan1's m[Size*(x + t + 1) + t]: counts takes t and Size
// for the strides of two dimensions), by enumerating both at the
// size, which CountAt does exactly.
func countBoth(got, hand *counts.Kernel, isize, size map[string]int64) (map[string]int64, map[string]int64, error) {
	gc, err := counts.Count(got)
	if err != nil {
		g, _, err := counts.CountAt(got, counts.Options{}, isize, 1e9)
		if err != nil {
			return nil, nil, err
		}
		h, _, err := counts.CountAt(hand, counts.Options{}, size, 1e9)
		return g, h, err
	}
	hc, err := counts.Count(hand)
	if err != nil {
		return nil, nil, err
	}
	g, err := gc.Eval(isize)
	if err != nil {
		return nil, nil, err
	}
	h, err := hc.Eval(size)
	return g, h, err
}

func init() {
	maps.Copy(originals, kernelTunerOriginals)
	maps.Copy(originals, rodiniaOriginals)
	originals["bpnn_layerforward"] = layerforward
}

// kernelTunerOriginals and rodiniaOriginals reimplement the originals
// of suitePorts (as examples/kerneltuner_test.go and rodinia_test.go do,
// with the originals' array names), for TestPortsRun and
// TestPortsOnPoCL; they read the hand port's sizes.
var kernelTunerOriginals = map[string]original{
	"stencil_kernel": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		w, h := p["w"], p["h"]
		old, nw := in["x_old"], clone(in["x_new"])
		for y := int64(1); y < h-1; y++ {
			for x := int64(1); x < w-1; x++ {
				nw[y*w+x] = (old[y*w+x] + old[y*w+(x-1)] + old[y*w+(x+1)] + old[(y+1)*w+x] + old[(y-1)*w+x]) / 5
			}
		}
		return map[string][]float32{"x_new": nw}
	},
	"sum_floats": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		const b, nb = 128, 32
		out := make([]float32, nb)
		for g := range int64(nb) {
			sh := make([]float32, b)
			for t := range int64(b) {
				for i := g*b + t; i < p["n"]; i += nb * b {
					sh[t] += in["array_2"][i]
				}
			}
			for s := b / 2; s > 0; s >>= 1 {
				for t := range s {
					sh[t] += sh[t+s]
				}
			}
			out[g] = sh[0]
		}
		return map[string][]float32{"sum_global": out}
	},
	"matmul_kernel": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		n := p["n"]
		c := make([]float32, n*n)
		for i := range n {
			for j := range n {
				var sum float32
				for k := range n {
					sum += in["A"][i*n+k] * in["B"][k*n+j]
				}
				c[i*n+j] = sum
			}
		}
		return map[string][]float32{"C": c}
	},
	"convolution_naive": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		return map[string][]float32{"output": convolve(p["h"], p["w"], in["input"], in["filter"])}
	},
	"convolution_kernel": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		return map[string][]float32{"output": convolve(p["h"], p["w"], in["input"], in["d_filter"])}
	},
}

// convolve is convolution.cu's 17 x 17 filter over an h x w image with a
// border of 16, summed filter row by filter row as both kernels do.
func convolve(h, w int64, input, filter []float32) []float32 {
	const fh, fw = 17, 17
	out := make([]float32, h*w)
	for y := range h {
		for x := range w {
			var sum float32
			for j := range int64(fh) {
				for i := range int64(fw) {
					sum += input[(y+j)*(w+fw-1)+(x+i)] * filter[j*fw+i]
				}
			}
			out[y*w+x] = sum
		}
	}
	return out
}

// rodiniaOriginals reimplement Rodinia's originals of suitePorts.
var rodiniaOriginals = map[string]original{
	"lud_diagonal": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
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
		return map[string][]float32{"m": m}
	},
	"lud_perimeter": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
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
		return map[string][]float32{"m": m}
	},
	"lud_internal": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		const bs = 16
		n, off := p["matrix_dim"], p["offset"]
		m, orig := clone(in["m"]), in["m"]
		for r := off + bs; r < n; r++ {
			for c := off + bs; c < n; c++ {
				var sum float32
				for i := range int64(bs) {
					sum += orig[r*n+off+i] * orig[(off+i)*n+c]
				}
				m[r*n+c] -= sum
			}
		}
		return map[string][]float32{"m": m}
	},
	// ETA and MOMENTUM are the header's double 0.3 here, as there; the
	// import takes them as 0.3f, as the hand port does, which the
	// comparison's tolerance allows.
	"bpnn_adjust_weights": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
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
		return map[string][]float32{"w": w, "oldw": oldw}
	},
}

// layerforward is bpnn_layerforward_CUDA: per block of 16 inputs, the
// weights times the inputs, summed down the inputs by the kernel's tree
// (level p adds row ty + p/2 into the rows ty that p divides), whose
// contents are stored back into the weights, and row 0 of each block
// into the partial sums.
func layerforward(p map[string]int64, in map[string][]float32) map[string][]float32 {
	nb, hid := p["nb"], p["hid"]
	w, sums := clone(in["input_hidden_cuda"]), clone(in["hidden_partial_sum"])
	for by := range nb {
		var m [16][16]float32
		at := func(ty, tx int64) int64 { return (hid+1)*16*by + (hid+1)*ty + tx + 1 + (hid + 1) }
		for ty := range int64(16) {
			for tx := range int64(16) {
				m[ty][tx] = w[at(ty, tx)] * in["input_cuda"][16*by+ty+1]
			}
		}
		for pw := 2; pw <= 16; pw *= 2 {
			for ty := 0; ty < 16; ty += pw {
				for tx := range 16 {
					m[ty][tx] += m[ty+pw/2][tx]
				}
			}
		}
		for ty := range int64(16) {
			for tx := range int64(16) {
				w[at(ty, tx)] = m[ty][tx]
			}
			sums[by*hid+ty] = m[0][ty]
		}
	}
	return map[string][]float32{"input_hidden_cuda": w, "hidden_partial_sum": sums}
}

// runCase is an import that TestPortsRun and TestPortsOnPoCL run: the
// port with its flags, the size of the import's parameters, and the
// size its Go original reads.
type runCase struct {
	port
	size, osize map[string]int64
}

// runCases are the ports at their first sizes, and the suites' ports at
// the sizes of examples/' tests (which the work-groups do not divide,
// but matmul's and lud's, which must be multiples of 64 and 16).
func runCases() []runCase {
	var out []runCase
	for _, p := range ports {
		out = append(out, runCase{p, p.sizes[0], p.sizes[0]})
	}
	runSizes := map[string]map[string]int64{"stencil_kernel": {"w": 45, "h": 37}, "sum_floats": {"n": 5000},
		"matmul_kernel": {"n": 64}, "convolution_naive": {"h": 37, "w": 45}, "convolution_kernel": {"h": 32, "w": 48}, "lud_internal": {"matrix_dim": 64, "offset": 16},
		"lud_diagonal": {"matrix_dim": 48, "offset": 16}, "lud_perimeter": {"matrix_dim": 64, "offset": 16},
		"bpnn_adjust_weights": {"nb": 3, "hid": 16}, "bpnn_layerforward": {"nb": 3, "hid": 16}, "histogram256": {"n": 50000}}
	for _, s := range suitePorts {
		size := runSizes[s.knl]
		q, isize := s.importAt(size)
		osize := maps.Clone(size)
		maps.Copy(osize, isize)
		out = append(out, runCase{q, isize, osize})
	}
	return out
}

// TestTunablesAsConsts imports originals whose -D tunables become .knl
// consts, sets the consts to other values than the import's (as uniperf
// tune and predict --const do), and checks that the counts equal the
// hand port's with its consts at those values. sum_floats's block size
// stays a literal (its reduction's loop, s = block_size_x/2 down to 1 by
// s >>= 1, is unrolled at import), so only its number of blocks varies.
func TestTunablesAsConsts(t *testing.T) {
	for _, c := range []struct {
		knl         string
		size        map[string]int64
		imported    map[string]int64
		hand        map[string]int64
		wantLiteral []string
	}{
		{"stencil_kernel", map[string]int64{"w": 100, "h": 35}, map[string]int64{"block_size_x": 64, "block_size_y": 4},
			map[string]int64{"BX": 64, "BY": 4}, nil},
		{"matmul_kernel", map[string]int64{"n": 128}, map[string]int64{"block_size_x": 16, "block_size_y": 4, "tile_size_x": 4, "tile_size_y": 4},
			map[string]int64{"BX": 16, "BY": 4, "TX": 4, "TY": 4}, nil},
		{"sum_floats", map[string]int64{"n": 5000}, map[string]int64{"num_blocks": 16}, map[string]int64{"NB": 16},
			[]string{"# -D block_size_x=128: a literal, not a const: as a const, line 44:37: / is not affine"}},
	} {
		t.Run(c.knl, func(t *testing.T) {
			i := slices.IndexFunc(suitePorts, func(p suitePort) bool { return p.knl == c.knl })
			q, isize := suitePorts[i].importAt(c.size)
			r := importPort(t, q)
			for n := range c.imported {
				if !strings.Contains(string(r.Knl), "\nconst "+n+" = ") {
					t.Fatalf("no const %s in\n%s", n, r.Knl)
				}
			}
			for _, want := range c.wantLiteral {
				if !strings.Contains(string(r.Knl), want) {
					t.Errorf("no %q in\n%s", want, r.Knl)
				}
			}
			got, err := counts.ParseKernel(c.knl+".knl", r.Knl, c.imported)
			if err != nil {
				t.Fatalf("%v\n%s", err, r.Knl)
			}
			hand := handPort(t, c.knl, c.hand)
			g, h, err := countBoth(got, hand, isize, c.size)
			if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(nonzero(g), nonzero(h)) {
				t.Errorf("imported counts\n%v\nhand port's\n%v\n%s", nonzero(g), nonzero(h), r.Knl)
			}
		})
	}
}

// fanPorts are Rodinia's gaussian and needle kernels, which import
// unedited, with what their host code guarantees as --assume: gaussian
// launches Fan1 and Fan2 for t from 0 to Size - 2, and needle makes cols
// 16*block_width + 1 and launches diagonal i of the blocks for i from 1
// to block_width. Their flattened subscripts (m[Size*(x + t + 1) + t])
// need them to split into dimensions, as the hand ports' assume lines.
var fanPorts = []port{
	{"rodinia/gaussian.cu", "fan1", []string{"--kernel", "Fan1", "--local", "MAXBLOCKSIZE", "--global", "Size",
		"--array", "m_cuda=Size*Size", "--array", "a_cuda=Size*Size", "--assume", "t >= 0 && t < Size - 1"},
		[]map[string]int64{{"Size": 600, "t": 3}, {"Size": 37, "t": 0}}},
	// Without --global, the guards bound the grid and name the axes by
	// xidx and yidx, as the port's x and y (with the host's grid, whose
	// bound the guards imply only where t >= 0, yidx == 0 would be
	// 4*by + ty == 0, an integer multiply and add the port does not do).
	{"rodinia/gaussian.cu", "fan2", []string{"--kernel", "Fan2", "--local", "BLOCK_SIZE_XY,BLOCK_SIZE_XY",
		"--array", "m_cuda=Size*Size", "--array", "a_cuda=Size*Size", "--array", "b_cuda=Size", "--assume", "t >= 0 && t < Size - 1"},
		[]map[string]int64{{"Size": 23, "t": 3, "j1": 20}, {"Size": 40, "t": 0, "j1": 40}}},
	// needle's kernels call the device function maximum, which is
	// inlined; the host launches i groups (diagonal i of the blocks) and
	// BLOCK_SIZE comes from needle.h, which is not read.
	{"rodinia/needle_kernel.cu", "needle1", []string{"--kernel", "needle_cuda_shared_1", "-D", "BLOCK_SIZE=16", "--local", "16", "--groups", "i",
		"--array", "referrence=cols*cols", "--array", "matrix_cuda=cols*cols", "--assume", needleHost},
		[]map[string]int64{{"cols": 49, "block_width": 3, "i": 2, "penalty": 10}, {"cols": 65, "block_width": 4, "i": 4, "penalty": 3}}},
	{"rodinia/needle_kernel.cu", "needle2", []string{"--kernel", "needle_cuda_shared_2", "-D", "BLOCK_SIZE=16", "--local", "16", "--groups", "i",
		"--array", "referrence=cols*cols", "--array", "matrix_cuda=cols*cols", "--assume", needleHost},
		[]map[string]int64{{"cols": 49, "block_width": 3, "i": 2, "penalty": 10}, {"cols": 65, "block_width": 4, "i": 1, "penalty": 3}}},
}

// needleHost is what needle's host code guarantees: the matrix has
// 16*block_width + 1 columns (and rows), and diagonal i of the blocks is
// one of the block_width diagonals of the upper left triangle.
const needleHost = "cols == 16*block_width + 1 && i >= 1 && i <= block_width"

// TestFanRunsAsHandPorts imports Fan1 and Fan2, and needle's two
// kernels, and checks at two sizes that their counts equal the hand
// ports', property by property (stride classes included), and, running
// both in the reference interpreter, that the import executes what the
// port does (the interpreter's tallies of operations, accesses, barriers
// and groups) and writes what a Go reimplementation of the original
// computes, as the generated code does on the OpenCL device (PoCL). needle's i32 additions are also checked against a count by
// hand (needleAdds), in both.
func TestFanRunsAsHandPorts(t *testing.T) {
	dev := pocltest.Open(t)
	want := map[string]original{
		"fan1": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
			n, s := p["Size"], p["t"]
			m, a := clone(in["m_cuda"]), in["a_cuda"]
			for x := range n - 1 - s {
				m[n*(x+s+1)+s] = a[n*(x+s+1)+s] / a[n*s+s]
			}
			return map[string][]float32{"m_cuda": m}
		},
		"fan2": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
			n, s := p["Size"], p["t"]
			m, a, b := in["m_cuda"], clone(in["a_cuda"]), clone(in["b_cuda"])
			for x := range n - 1 - s {
				for y := range n - s {
					a[n*(x+1+s)+(y+s)] -= m[n*(x+1+s)+s] * a[n*s+(y+s)]
					if y == 0 {
						b[x+1+s] -= m[n*(x+1+s)+(y+s)] * b[s]
					}
				}
			}
			return map[string][]float32{"a_cuda": a, "b_cuda": b}
		},
		"needle1": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
			cols, i, mat := p["cols"], p["i"], clone(in["matrix_cuda"])
			for bx := range i {
				needleBlock(in["referrence"], mat, cols, p["penalty"], cols*16*(i-1-bx)+16*bx)
			}
			return map[string][]float32{"matrix_cuda": mat}
		},
		"needle2": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
			cols, i, bw, mat := p["cols"], p["i"], p["block_width"], clone(in["matrix_cuda"])
			for bx := range i {
				needleBlock(in["referrence"], mat, cols, p["penalty"], cols*16*(bw-bx-1)+16*(bx+bw-i))
			}
			return map[string][]float32{"matrix_cuda": mat}
		},
	}
	// run runs k at the size (its parameters of it) on inputs, and
	// returns the inputs, the arrays after and the interpreter's tallies.
	run := func(k *counts.Kernel, size map[string]int64) (map[string][]float32, map[string][]float32, map[string]int64) {
		own := own(k, size)
		in := inputs(t, k, own)
		data := map[string]any{}
		for n, s := range in {
			data[n] = toRun(k, n, s)
		}
		tl, err := counts.Run(k, own, data, nil)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][]float32{}
		for n := range in {
			out[n] = fromRun(data[n])
		}
		return in, out, tl.Totals()
	}
	for _, p := range fanPorts {
		t.Run(p.knl, func(t *testing.T) {
			k := parsed(t, p)
			hand := handPort(t, p.knl, nil)
			kc, err := counts.Count(k)
			if err != nil {
				t.Fatal(err)
			}
			hc, err := counts.Count(hand)
			if err != nil {
				t.Fatal(err)
			}
			for _, size := range p.sizes {
				cg, err1 := kc.Eval(own(k, size))
				ch, err2 := hc.Eval(own(hand, size))
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				if per, ok := needleAdds[p.knl]; ok {
					if cg["int.i32.add"] != per*size["i"] {
						t.Errorf("at %v: the import counts %d i32 additions, want %d", size, cg["int.i32.add"], per*size["i"])
					}
				}
				if !maps.Equal(nonzero(cg), nonzero(ch)) {
					t.Errorf("at %v: the import counts\n%v\nthe hand port\n%v", size, nonzero(cg), nonzero(ch))
				}
				in, out, got := run(k, size)
				expect := want[p.knl](size, in)
				onPoCL := runOnDevice(t, dev, k, own(k, size), in, slices.Collect(maps.Keys(expect)))
				for arr, w := range expect {
					compareArrays(t, arr, out[arr], w)
					compareArrays(t, arr+" on PoCL", onPoCL[arr], w)
				}
				_, _, h := run(hand, size)
				if per, ok := needleAdds[p.knl]; ok {
					if got["int.i32.add"] != per*size["i"] {
						t.Errorf("at %v: the import executes %d i32 additions, want %d", size, got["int.i32.add"], per*size["i"])
					}
				}
				if !maps.Equal(got, h) {
					t.Errorf("at %v: the import executes\n%v\nthe hand port\n%v", size, got, h)
				}
			}
		})
	}
}

// own returns the values of size of k's parameters.
func own(k *counts.Kernel, size map[string]int64) map[string]int64 {
	out := map[string]int64{}
	for _, n := range k.Params {
		out[n] = size[n]
	}
	return out
}

// needleAdds is the i32 additions per work-group of needle_cuda_shared_1
// and _2, derived by hand: the 3 of maximum's arguments (temp + ref and
// two subtractions of penalty) at the 136 points (m, tx <= m) of the
// first wavefront and the 120 of the second, whose loop counts down
// (m = 14 .. 0) and is imported, as the ports write it, as an iname m
// tagged down, so that its test tx <= m costs nothing, as in C.
var needleAdds = map[string]int64{"needle1": 408 + 360, "needle2": 408 + 360}

// needleBlock fills one 16 x 16 block of nw's score matrix whose top left
// cell (the corner it reads) is at base, as needle_cuda_shared_1 and _2
// do: each cell the best of the diagonal plus the reference score and
// the left and upper cells less the penalty, in row-major order (each
// cell depends only on cells above and left of it, as in the kernels'
// wavefront).
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
