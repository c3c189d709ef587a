package models

import (
	"fmt"

	"github.com/uniperf/uniperf/fit/report"
)

// WorkGroupConsts names, per kernel of cases, the consts that set its
// work-group size, so that report.GroupVariants can group the
// work-group-size variants of a kernel at one size. They are found as
// blocksize finds them (GroupConsts: the consts whose doubling or halving
// changes the launch's work-group size), in the kernel's source read by
// src, once per kernel: at its largest size in cases (the greatest product
// of its params; the first case of that size gives the other bindings).
// There the extent caps the group least where a group is capped: a local
// iname that the domain bounds only together with other inames takes the
// domain's projection (see counts.Kernel.Launch), and at a small size a
// const that sets the number of work-items would change that capped
// group too, joining variants that differ in their work. Finding the consts in the source rather than by
// which consts vary with the rows' work-group sizes does not depend on
// which variants a table happens to hold.
func WorkGroupConsts(src Source, cases []report.Case) (map[string][]string, error) {
	largest := map[string]report.Case{}
	var order []string
	for _, c := range cases {
		l, ok := largest[c.Kernel]
		if !ok {
			order = append(order, c.Kernel)
		}
		if !ok || extent(c.Params) > extent(l.Params) {
			largest[c.Kernel] = c
		}
	}
	out := map[string][]string{}
	for _, k := range order {
		c := largest[k]
		gs, err := GroupConsts(src, k, c.Consts, c.Params)
		if err != nil {
			return nil, fmt.Errorf("work-group consts of %s at %s: %w", k, ParamString(c.Params), err)
		}
		names := []string{}
		for _, g := range gs {
			names = append(names, g.Name)
		}
		out[k] = names
	}
	return out, nil
}

// extent is the product of a size's parameters, as a float so that it
// cannot overflow.
func extent(params map[string]int64) float64 {
	p := 1.0
	for _, v := range params {
		p *= float64(v)
	}
	return p
}
