package main

import (
	"fmt"

	"github.com/uniperf/uniperf/fit/models"
)

// kernelLaunch is a kernel's global and local sizes.
type kernelLaunch struct{ global, local [3]int64 }

// bindable checks that the kernel takes a binding of its consts at
// params: it parses with them, its subscripts stay in bounds and its
// launch grid is not empty. It returns the launch.
func bindable(counter *models.Counter, kernel string, consts, params map[string]int64) (kernelLaunch, error) {
	c, err := counter.Kernel(kernel, consts)
	if err != nil {
		return kernelLaunch{}, err
	}
	if err := c.CheckBounds(params); err != nil {
		return kernelLaunch{}, err
	}
	g, l, err := c.Kernel().Launch(params)
	if err != nil {
		return kernelLaunch{}, err
	}
	for a := range g {
		if g[a] <= 0 || l[a] <= 0 {
			return kernelLaunch{}, fmt.Errorf("%s: the launch grid at %s is empty along axis %d: the domain has no points at these parameters", kernel, setString(params), a)
		}
	}
	return kernelLaunch{g, l}, nil
}
