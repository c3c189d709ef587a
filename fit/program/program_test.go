package program

import (
	"errors"
	"math"
	"strings"
	"testing"
)

const cnn = `# A small CNN forward pass.
program cnn-forward
let B = 16
let H = 34
batch B
exchange 4*(16*3*9 + 16)   # conv1's weights and biases, f32

layer conv1
launch conv2d.knl b=B c=3 k=16 h=H w=H const LX=16 LY=8
layer pool1
launch maxpool2.knl b=B c=16 ho=(H-2)/2 wo=(H-2)/2
phase backward
launch maxpool2_grad.knl b=B c=16 ho=16 wo=16
`

func TestParseAndBind(t *testing.T) {
	p, err := Parse("cnn.prog", []byte(cnn))
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "cnn-forward" || p.Batch != "B" || len(p.Launches) != 3 {
		t.Fatalf("parsed %+v", p)
	}
	bound, exch, err := p.Bind(0)
	if err != nil {
		t.Fatal(err)
	}
	if exch != 4*(16*3*9+16) {
		t.Errorf("exchange %d bytes", exch)
	}
	c := bound[0]
	if c.Layer != "conv1" || c.Line != 9 || c.Phase != Forward || c.Params["b"] != 16 || c.Params["h"] != 34 ||
		c.Consts["LX"] != 16 || c.Consts["LY"] != 8 || len(c.Params) != 5 || len(c.Consts) != 2 {
		t.Errorf("conv1: %+v", c)
	}
	if b := bound[1]; b.Params["ho"] != 16 || b.Layer != "pool1" || b.Phase != Forward {
		t.Errorf("pool1: %+v", b)
	}
	if b := bound[2]; b.Layer != "pool1" || b.Phase != Backward {
		t.Errorf("the backward launch: %+v", b)
	}
	// A batch override reaches every expression that uses B.
	bound, _, err = p.Bind(4)
	if err != nil || bound[0].Params["b"] != 4 || bound[2].Params["b"] != 4 {
		t.Errorf("batch 4: %+v, %v", bound, err)
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		src  string
		line int
		want string
	}{
		{"layer a\nlaunch k.knl n=2\nfrobnicate 3\n", 3, "unknown line"},
		{"launch k.knl n=2\n", 1, "before any layer"},
		{"let A = 2\nlet A = 3\nlayer x\nlaunch k n=A\n", 2, "defined twice"},
		{"layer x\n\n# c\nlaunch k n=M\n", 4, "M is not a let"},
		{"layer x\nlaunch k n = 2\n", 2, "want NAME=EXPR"},
		{"layer x\nlaunch k n=2 n=3\n", 2, "n given twice"},
		{"layer x\nlaunch k n=(2\n", 2, "missing )"},
		{"layer x\nphase sideways\nlaunch k n=2\n", 2, "forward or backward"},
		{"let B = 2\nbatch C\nlayer x\nlaunch k n=2\n", 2, "not a let"},
		{"layer x\nlaunch k n=99999999999999999999\n", 2, "64 bits"},
		{"loading -1\nlayer x\nlaunch k n=1\n", 1, "non-negative"},
		{"# nothing\nlayer x\n", 2, "launches no kernel"},
		{"layer bad name\nlaunch k n=1\n", 1, "want a name"},
	} {
		_, err := Parse("p.prog", []byte(c.src))
		var pe *Error
		if !errors.As(err, &pe) || pe.Line != c.line || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v; want line %d and %q", c.src, err, c.line, c.want)
		}
	}
}

// Nesting is bounded as in the .knl and set parsers: 256 levels parse and
// bind to the value inside (1, by hand), 257 are refused with the line,
// the byte and the limit in a message that quotes 40 bytes of the line,
// not all of it (the limit was 100 and the message repeated the whole
// expression, up to 64 KiB).
func TestNestingBounded(t *testing.T) {
	prog := func(depth int) string {
		return "let x = " + strings.Repeat("(", depth) + "1" + strings.Repeat(")", depth) + "\nlayer l\nlaunch k n=x\n"
	}
	p, err := Parse("deep.prog", []byte(prog(maxDepth-1)))
	if err != nil {
		t.Fatal(err)
	}
	if bound, _, err := p.Bind(0); err != nil || bound[0].Params["n"] != 1 {
		t.Fatalf("%d levels: %+v, %v; want n = 1", maxDepth-1, bound, err)
	}
	for _, src := range []string{prog(maxDepth), prog(30_000), "let x = " + strings.Repeat("-", 60_000) + "1\nlayer l\nlaunch k n=x\n"} {
		_, err := Parse("deep.prog", []byte(src))
		var pe *Error
		if !errors.As(err, &pe) || pe.Line != 1 || !strings.Contains(err.Error(), "at byte 257: nested more than 256 levels deep") || len(err.Error()) > 200 {
			t.Errorf("%d bytes: %v; want line 1, byte 257, the limit, and at most 200 bytes", len(src), err)
		}
	}
}

func TestBindErrors(t *testing.T) {
	for _, c := range []struct {
		src  string
		line int
		want string
	}{
		{"let B = 3\nlayer x\nlaunch k n=B/2\n", 3, "not an exact integer division"},
		{"let B = 4611686018427387904\nlayer x\nlaunch k n=B*4\n", 3, "overflows"},
		{"let B = 0\nbatch B\nlayer x\nlaunch k n=B\n", 1, "positive batch"},
		{"let B = 1\nexchange B - 2\nlayer x\nlaunch k n=B\n", 2, "must not be negative"},
	} {
		p, err := Parse("p.prog", []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = p.Bind(0)
		var pe *Error
		if !errors.As(err, &pe) || pe.Line != c.line || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v; want line %d and %q", c.src, err, c.line, c.want)
		}
	}
}

// fake prices a launch at 1 ns per unit of the product of its
// parameters.
func fake(b Bound) (float64, error) {
	v := 1e-9
	for _, p := range b.Params {
		v *= float64(p)
	}
	return v, nil
}

// TestPredict sums the layers by hand: conv1 16·3·16·34·34 units,
// pool1 forward 16·16·16·16 and backward the same.
func TestPredict(t *testing.T) {
	p, err := Parse("cnn.prog", []byte(cnn))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Predict(p, 0, fake)
	if err != nil {
		t.Fatal(err)
	}
	conv, pool := 16*3*16*34*34*1e-9, 16*16*16*16*1e-9
	b := r.Breakdown
	if r.Batch != 16 || len(b.Layers) != 2 || !near(b.Layers[0].Forward, conv) || !near(b.Layers[1].Forward, pool) ||
		!near(b.Layers[1].Backward, pool) || !near(b.Total, conv+2*pool) {
		t.Errorf("breakdown %+v", b)
	}
	_, err = Predict(p, 0, func(b Bound) (float64, error) {
		if b.Kernel == "maxpool2.knl" {
			return 0, errors.New("no such kernel")
		}
		return 1, nil
	})
	if err == nil || !strings.Contains(err.Error(), "cnn.prog:11: launch maxpool2.knl: no such kernel") {
		t.Errorf("failing launch: %v", err)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Abs(b) }

// TestDataParallel splits a batch of 16 between a device that takes 1 ms
// per sample and one that takes 3 ms: throughputs 1000 and 1000/3 per
// second divide it 12 : 4, both shares take 12 ms, and a ring all-reduce
// of P bytes between two devices moves P bytes in 2 messages.
func TestDataParallel(t *testing.T) {
	src := "let B = 16\nbatch B\nexchange 1000000\nlayer l\nlaunch k b=B\n"
	p, err := Parse("dp.prog", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	perSample := func(s float64) PredictFunc {
		return func(b Bound) (float64, error) { return s * float64(b.Params["b"]), nil }
	}
	devs := []Device{{"fast", perSample(1e-3)}, {"slow", perSample(3e-3)}}
	s, err := DataParallel(p, devs, Exchange{Mode: "ring", Bandwidth: 1e9, Latency: 1e-5})
	if err != nil {
		t.Fatal(err)
	}
	if s.Shares[0].Batch != 12 || s.Shares[1].Batch != 4 || !near(s.Step.Compute, 0.012) ||
		s.Exchange.Bytes != 1e6 || s.Exchange.Messages != 2 || !near(s.Step.Transfer, 1e-3+2e-5) || !near(s.Step.Total, 0.012+1e-3+2e-5) {
		t.Errorf("split %+v, step %+v", s.Shares, s.Step)
	}
	ps, err := DataParallel(p, devs, Exchange{Mode: "ps", Bandwidth: 1e9})
	if err != nil || ps.Exchange.Bytes != 4e6 || ps.Exchange.Messages != 4 {
		t.Errorf("parameter server: %+v, %v", ps.Exchange, err)
	}
	if _, err := DataParallel(p, devs, Exchange{Mode: "ring"}); err == nil || !strings.Contains(err.Error(), "bandwidth") {
		t.Errorf("no bandwidth: %v", err)
	}
	if _, err := DataParallel(p, devs, Exchange{Mode: "mesh", Bandwidth: 1}); err == nil {
		t.Error("unknown exchange mode accepted")
	}
	noBatch, _ := Parse("nb.prog", []byte("layer l\nlaunch k b=2\n"))
	if _, err := DataParallel(noBatch, devs, Exchange{Mode: "ring", Bandwidth: 1}); err == nil || !strings.Contains(err.Error(), "no batch line") {
		t.Errorf("no batch: %v", err)
	}
}
