package models

import "fmt"

// CheckLaunch refuses a launch grid of kernel at params that is empty
// along an axis (global and local sizes as counts.Kernel.Launch returns
// them): the domain has no points there, no work-group runs, and every
// model divides by the groups or their size.
func CheckLaunch(kernel string, params map[string]int64, global, local [3]int64) error {
	for a := range global {
		if global[a] <= 0 || local[a] <= 0 {
			// A kernel whose sizes are all consts has no parameters to
			// name: "at " and nothing would name no place.
			if len(params) == 0 {
				return fmt.Errorf("%s: the launch grid at its const values is empty along axis %d: the domain has no points at them", kernel, a)
			}
			return fmt.Errorf("%s: the launch grid at %s is empty along axis %d: the domain has no points at these parameters", kernel, ParamString(params), a)
		}
	}
	return nil
}
