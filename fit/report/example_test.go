package report_test

import (
	"fmt"
	"os"

	"github.com/uniperf/uniperf/fit/report"
)

func ExampleReport_WriteText() {
	r, err := report.NewReport([]report.Case{
		{Device: "k40", Kernel: "n_body", Size: "a", Measured: 0.99e-3, Predicted: 0.24e-3},
		{Device: "k40", Kernel: "n_body", Size: "b", Measured: 1.99e-3, Predicted: 0.59e-3},
		{Device: "k40", Kernel: "skinny_mm", Size: "a", Measured: 0.27e-3, Predicted: 0.14e-3},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	r.WriteText(os.Stdout)
	// Output:
	// k40
	//   kernel        size     meas ms  pred ms  rel.err
	//   n_body        a           0.99     0.24    0.758
	//                 b           1.99     0.59    0.704
	//                 geomean                      0.730
	//   skinny_mm     a           0.27     0.14    0.481
	//                 geomean                      0.481
	//   cross-kernel  geomean                      0.593
}

func ExampleDerivedRate() {
	// Seed 001, Table 2: the R9 Fury's stride-1 f32 loads and local loads.
	fmt.Println(report.DerivedRate("global.load.f32.stride=1", 8.27e-12))
	fmt.Println(report.DerivedRate("local.load.f32", -1.76e-12))
	fmt.Println(report.DerivedRate("launch.const", 1.29e-4))
	// Output:
	// 483.7 GB/s
	// negative weight
	// 129 µs
}
