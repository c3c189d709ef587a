package models_test

import (
	"fmt"
	"maps"
	"slices"

	"github.com/uniperf/uniperf/fit/models"
)

// global_copy copies n f32 elements with one work-item each, in groups of
// LX: n stride-1 loads and stores, ceil(n/LX) work-groups, one launch.
func ExampleCounter_Counts() {
	c := models.NewCounter(models.Library)
	counts, err := c.Counts("global_copy", map[string]int64{"LX": 128}, map[string]int64{"n": 1000})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range slices.Sorted(maps.Keys(counts)) {
		fmt.Println(p, counts[p])
	}
	// Output:
	// global.load.f32.stride=1 1000
	// global.minldst.f32.stride=1 1000
	// global.store.f32.stride=1 1000
	// launch.const 1
	// launch.groups 8
}
