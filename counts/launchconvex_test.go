package counts

import (
	"testing"

	"github.com/uniperf/uniperf/measurekernels/library"
)

// TestConvexProjection checks query.convex, which spares the launch grid
// its enumeration of every work-group index, against that enumeration:
// for every hardware-tagged iname of every library kernel at a few
// sizes, and of two kernels whose index skips values, an iname said to
// be convex takes every value between its extremes.
func TestConvexProjection(t *testing.T) {
	var kernels []*Kernel
	for _, name := range library.Names() {
		kernels = append(kernels, benchKernel(t, name))
	}
	for _, src := range []string{
		"kernel even\ndomain [n] -> { [i, j] : i = 2j and 0 <= j < n }\ntag i g.0\n",
		"kernel gap\ndomain [n] -> { [i] : 0 <= i < n and i mod 2 = 0 }\ntag i g.0\n",
	} {
		k, err := ParseKernel("test.knl", []byte(src), nil)
		if err != nil {
			t.Fatal(err)
		}
		kernels = append(kernels, k)
	}
	convex, checked := 0, 0
	for _, k := range kernels {
		for _, size := range []int64{3, 17, 40} {
			params := map[string]int64{}
			for _, p := range k.Params {
				params[p] = size
			}
			e, err := newEngine(k, params)
			if err != nil {
				continue
			}
			for _, in := range k.Inames {
				if !in.Tag.Parallel() {
					continue
				}
				dom, err := e.domain([]string{in.Name})
				if err != nil {
					t.Fatal(err)
				}
				q := e.newQuery(dom, nil, []string{in.Name})
				v := append([]int64(nil), e.base...)
				lo, hi, ok := q.extremes(v)
				if !ok {
					continue
				}
				values := int64(0)
				q.each(v, func() { values++ })
				checked++
				if q.convex() {
					convex++
					if values != hi-lo+1 {
						t.Errorf("%s at %v: iname %s said convex, takes %d values between %d and %d", k.Name, params, in.Name, values, lo, hi)
					}
				}
			}
		}
	}
	if convex == 0 || convex == checked {
		t.Errorf("%d of %d tagged inames said convex: the test exercises neither side", convex, checked)
	}
}
