package programs

import (
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/fit/program"
)

// TestCNN parses the CNN program and every kernel it launches, and checks
// the layer shapes chain: each layer's output is the next one's input.
func TestCNN(t *testing.T) {
	if !slices.Equal(Names(), []string{"cnn"}) {
		t.Errorf("examples %v", Names())
	}
	dir, file, err := Open("cnn")
	if err != nil {
		t.Fatal(err)
	}
	src, err := fs.ReadFile(dir, file)
	if err != nil {
		t.Fatal(err)
	}
	p, err := program.Parse(file, src)
	if err != nil {
		t.Fatal(err)
	}
	bound, exchange, err := p.Bind(0)
	if err != nil {
		t.Fatal(err)
	}
	// Weights and biases: 16·3·9 + 16, 32·16·9 + 32, 10·1568 + 10, f32.
	if exchange != 4*(448+4640+15690) {
		t.Errorf("exchange %d bytes", exchange)
	}
	// Output elements per image of each launch, and input elements per
	// image of the next.
	out := func(b program.Bound) int64 {
		q := b.Params
		switch {
		case strings.HasPrefix(b.Kernel, "conv2d"):
			return q["k"] * (q["h"] - 2) * (q["w"] - 2)
		case strings.HasPrefix(b.Kernel, "maxpool2"):
			return q["c"] * q["ho"] * q["wo"]
		}
		return q["nout"]
	}
	in := func(b program.Bound) int64 {
		q := b.Params
		switch {
		case strings.HasPrefix(b.Kernel, "conv2d"):
			return q["c"] * q["h"] * q["w"]
		case strings.HasPrefix(b.Kernel, "maxpool2"):
			return q["c"] * 4 * q["ho"] * q["wo"]
		}
		return q["nin"]
	}
	for i, b := range bound {
		text, err := fs.ReadFile(dir, b.Kernel)
		if err != nil {
			t.Fatal(err)
		}
		k, err := counts.ParseKernel(b.Kernel, text, b.Consts)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := k.Launch(b.Params); err != nil {
			t.Errorf("%s at %v: %v", b.Kernel, b.Params, err)
		}
		// conv1's input, 3 x 34 x 34, comes from outside.
		if i > 0 && in(b) != out(bound[i-1]) {
			t.Errorf("line %d: %s takes %d values per image, the layer before gives %d", b.Line, b.Kernel, in(b), out(bound[i-1]))
		}
	}
	if _, _, err := Open("resnet"); err == nil {
		t.Error("an unknown example opened")
	}
}
