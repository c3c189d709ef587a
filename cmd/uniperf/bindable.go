package main

import "github.com/uniperf/uniperf/fit/models"

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
	if err := models.CheckLaunch(kernel, params, g, l); err != nil {
		return kernelLaunch{}, err
	}
	return kernelLaunch{g, l}, nil
}
