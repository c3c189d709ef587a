package models_test

import (
	"fmt"

	"github.com/uniperf/uniperf/fit/models"
)

// global_copy at n = 1000 with several work-group sizes LX, each binding
// counted at that size only: ceil(1000/LX) groups.
func ExampleNewCounterAt() {
	at := map[string]int64{"n": 1000}
	c := models.NewCounterAt(models.Library, models.DefaultBanks, at)
	for _, lx := range []int64{64, 128, 256} {
		counts, err := c.Counts("global_copy", map[string]int64{"LX": lx}, at)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(lx, counts["launch.groups"])
	}
	// Output:
	// 64 16
	// 128 8
	// 256 4
}
