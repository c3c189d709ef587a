package counts_test

import (
	"fmt"

	"github.com/uniperf/uniperf/counts"
)

// One text, lexed once, parsed with three bindings of LX: n = 1000
// elements take ceil(1000/LX) groups of LX work-items, a global size of
// 125*8 = 1000 and 21*48 = 1008, and a split factor of 0 is refused.
func ExampleLexKernel() {
	text, err := counts.LexKernel("scale.knl", []byte(exampleKernel))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, lx := range []int64{8, 48, 0} {
		k, err := text.Parse(map[string]int64{"LX": lx})
		if err != nil {
			fmt.Println(err)
			continue
		}
		g, l, err := k.Launch(map[string]int64{"n": 1000})
		fmt.Println(g[0], l[0], err)
	}
	// Output:
	// 1000 8 <nil>
	// 1008 48 <nil>
	// scale.knl:6:9: split factor must be positive, not 0
}
