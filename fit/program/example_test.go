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

func ExampleSumProgram() {
	b, err := program.SumProgram(program.Timeline{
		Loading: 0.1,
		Kernels: []program.KernelTime{
			{Layer: "conv1", Kernel: "conv", Phase: program.Forward, Seconds: 1.5},
			{Layer: "pool1", Kernel: "maxpool", Phase: program.Forward, Seconds: 0.25},
			{Layer: "fc1", Kernel: "matvec", Phase: program.Forward, Seconds: 0.5},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range b.Layers {
		fmt.Printf("%-6s %.2f s\n", l.Name, l.Forward)
	}
	fmt.Printf("total  %.2f s\n", b.Total)
	// Output:
	// conv1  1.50 s
	// pool1  0.25 s
	// fc1    0.50 s
	// total  2.35 s
}

func ExampleParallelStep() {
	// Two devices share a batch; after the step they exchange 100 MB of
	// gradients through a ring all-reduce over a 10 GB/s link.
	step, err := program.ParallelStep(
		[]program.ShareTime{{Device: "GTX 1080", Seconds: 0.84}, {Device: "GTX 1080 Ti", Seconds: 0.80}},
		program.Transfer{Bytes: program.RingAllReduceBytes(100e6, 2), Bandwidth: 10e9})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.3f s = %.3f s (%s) + %.3f s exchange\n", step.Total, step.Compute, step.Slowest, step.Transfer)
	// Output: 0.850 s = 0.840 s (GTX 1080) + 0.010 s exchange
}
