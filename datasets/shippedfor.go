package datasets

import (
	"slices"
	"strings"
)

// ShippedFor names the shipped tables that serve as the measurements of a
// device known by any of names (compared case-insensitively): its
// paper-suite tables where one ships, since tables of other suites may
// come from other hosts and would mix their rows into one calibration;
// else every table of the device. Where tables of both backends ship (an
// H100 through CUDA and through OpenCL), the CUDA ones are chosen: the two
// compilers build different code, and occupancy is CUDA's notion.
func ShippedFor(names ...string) []string {
	var all, paper []string
	backends := map[string]string{}
	for _, n := range Shipped() {
		t, err := OpenShipped(n)
		if err != nil {
			continue
		}
		for _, name := range names {
			if strings.EqualFold(strings.TrimSpace(name), strings.TrimSpace(t.Meta.DeviceName)) {
				all = append(all, n)
				if t.Meta.Suite == "paper" {
					paper = append(paper, n)
				}
				backends[n] = t.Meta.Backend
				break
			}
		}
	}
	chosen := all
	if len(paper) > 0 {
		chosen = paper
	}
	isCUDA := func(n string) bool { return backends[n] == "cuda" }
	if slices.ContainsFunc(chosen, isCUDA) {
		chosen = slices.DeleteFunc(chosen, func(n string) bool { return !isCUDA(n) })
	}
	return chosen
}
