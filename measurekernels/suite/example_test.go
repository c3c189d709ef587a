package suite_test

import (
	"fmt"

	"github.com/uniperf/uniperf/measurekernels/suite"
)

// The quick suite's test kernels, and the cases of one measurement kernel
// in the small work-group class at the suite's first p.
func ExampleLoad() {
	s, err := suite.Load("quick")
	if err != nil {
		fmt.Println(err)
		return
	}
	var copyKernel *suite.Kernel
	for _, k := range s.Kernels {
		if k.Role == "test" {
			fmt.Println("test kernel:", k.Kernel)
		}
		if k.Kernel == "global_copy" {
			copyKernel = k
		}
	}
	cases, err := s.Cases(copyKernel, "small", copyKernel.Sizes.P[0])
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range cases {
		fmt.Printf("%s n=%d LX=%d\n", c.Entry.Kernel, c.Params["n"], c.Consts["LX"])
	}
	// Output:
	// test kernel: finite_diff
	// test kernel: matmul_skinny
	// test kernel: nbody
	// test kernel: convolution
	// global_copy n=131072 LX=192
	// global_copy n=131072 LX=256
	// global_copy n=262144 LX=192
	// global_copy n=262144 LX=256
}
