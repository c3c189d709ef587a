package library_test

import (
	"fmt"
	"strings"

	"github.com/uniperf/uniperf/measurekernels/library"
)

func ExampleSource() {
	src, err := library.Source("global_copy")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(line, "kernel ") || strings.HasPrefix(line, "b[") {
			fmt.Println(line)
		}
	}
	_, err = library.Source("no_such_kernel")
	fmt.Println(err)
	// Output:
	// kernel global_copy
	// b[i] = a[i]
	// kernel library: no kernel "no_such_kernel"
}
