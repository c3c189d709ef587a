package counts_test

import (
	"fmt"

	"github.com/uniperf/uniperf/counts"
)

// With LX = 8 work-items a group, n = 1000 elements take 125 groups, each
// element one load of x and one store of y.
func ExampleCountWithAt() {
	k, err := counts.ParseKernel("scale.knl", []byte(exampleKernel), map[string]int64{"LX": 8})
	if err != nil {
		fmt.Println(err)
		return
	}
	at := map[string]int64{"n": 1000}
	c, err := counts.CountWithAt(k, counts.Options{}, at)
	if err != nil {
		fmt.Println(err)
		return
	}
	v, err := c.Eval(at)
	fmt.Println(v["launch.groups"], v["global.load.f32.stride=1"], v["global.store.f32.stride=1"], err)
	_, err = c.Eval(map[string]int64{"n": 999})
	fmt.Println(err)
	// Output:
	// 125 1000 1000 <nil>
	// scale.knl: kernel scale was counted at n=1000 only and cannot be evaluated at n=999; count it with CountWith
}
