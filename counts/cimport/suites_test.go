package cimport

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/uniperf/uniperf/counts"
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
}

var suitePorts = []suitePort{
	// Kernel Tuner (examples/cuda at 96a6abc), with the tuning-space
	// points the ports take.
	{port: port{"kerneltuner/stencil.cu", "stencil_kernel", []string{"-D", "block_size_x=32", "-D", "block_size_y=8",
		"--local", "block_size_x,block_size_y", "--groups", "domain_width/block_size_x,domain_height/block_size_y",
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
		"--local", "16,16", "--groups", "image_width/16,image_height/16", "--array", "output=image_width*image_height",
		"--array", "input=input_width*input_height", "--array", "filter=filter_width*filter_height"},
		[]map[string]int64{{"w": 64, "h": 48}, {"w": 40, "h": 72}}},
		macros: map[string]string{"w": "image_width", "h": "image_height"}},
	// Rodinia 3.1 (github.com/yuhc/gpu-rodinia at 9c10d3e), with the
	// launch of its host code.
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
}

// TestSuitesCountAsHandPorts imports Rodinia's and Kernel Tuner's
// originals of examples/, unedited, and checks that their counts equal
// the hand ports', property by property, at two sizes.
func TestSuitesCountAsHandPorts(t *testing.T) {
	for _, p := range suitePorts {
		t.Run(p.knl, func(t *testing.T) {
			handSrc, err := os.ReadFile(filepath.Join("..", "..", "examples", p.knl+".knl"))
			if err != nil {
				t.Fatal(err)
			}
			hand, err := counts.ParseKernel(p.knl+".knl", handSrc, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, size := range p.sizes {
				q := p.port
				q.flags = slices.Clone(p.flags)
				isize := maps.Clone(size)
				for param, macro := range p.macros {
					q.flags = append(q.flags, "-D", macro+"="+strconv.FormatInt(size[param], 10))
					delete(isize, param)
				}
				if p.at != nil {
					isize = p.at(size)
				}
				r := importPort(t, q)
				got, err := counts.ParseKernel(p.knl+".knl", r.Knl, nil)
				if err != nil {
					t.Fatalf("%v\n%s", err, r.Knl)
				}
				g, h, err := countBoth(got, hand, isize, size)
				if err != nil {
					t.Fatalf("%v\n%s", err, r.Knl)
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
