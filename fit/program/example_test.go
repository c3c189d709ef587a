package program_test

import (
	"fmt"

	"github.com/uniperf/uniperf/fit/program"
)

func ExamplePredict() {
	src := `let B = 8
batch B
layer conv
launch conv2d.knl b=B c=3 k=16 h=34 w=34
layer fc
launch dense.knl b=B nin=1568 nout=10
`
	p, err := program.Parse("net.prog", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	// A stand-in model: 1 µs per sample and kernel.
	perSample := func(b program.Bound) (float64, error) { return 1e-6 * float64(b.Params["b"]), nil }
	r, err := program.Predict(p, 0, perSample)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range r.Breakdown.Layers {
		fmt.Printf("%-4s %.0f µs\n", l.Name, l.Forward*1e6)
	}
	fmt.Printf("total %.0f µs\n", r.Breakdown.Total*1e6)
	// Output:
	// conv 8 µs
	// fc   8 µs
	// total 16 µs
}
