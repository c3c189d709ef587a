package xu_test

import (
	"fmt"

	"github.com/uniperf/uniperf/fit/xu"
)

func ExampleSumProgram() {
	b, err := xu.SumProgram(xu.Program{
		Loading: 0.1,
		Kernels: []xu.KernelTime{
			{Layer: "conv1", Kernel: "conv", Phase: xu.Forward, Seconds: 1.5},
			{Layer: "pool1", Kernel: "maxpool", Phase: xu.Forward, Seconds: 0.25},
			{Layer: "fc1", Kernel: "matvec", Phase: xu.Forward, Seconds: 0.5},
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
	step, err := xu.ParallelStep(
		[]xu.Share{{Device: "GTX 1080", Seconds: 0.84}, {Device: "GTX 1080 Ti", Seconds: 0.80}},
		xu.Exchange{Bytes: xu.RingAllReduceBytes(100e6, 2), Bandwidth: 10e9})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.3f s = %.3f s (%s) + %.3f s exchange\n", step.Total, step.Compute, step.Slowest, step.Transfer)
	// Output: 0.850 s = 0.840 s (GTX 1080) + 0.010 s exchange
}
