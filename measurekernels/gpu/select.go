package gpu

import (
	"fmt"
	"strings"
)

// Select picks one device from devices by selector:
//
//   - an ID such as "opencl:0" or "cuda:1" (see Info.ID);
//   - a backend name, "opencl" or "cuda": the first device of that backend;
//   - otherwise a case-insensitive substring of the device name, its
//     vendor, or its platform's name or vendor (e.g. "pocl", "a100"), which
//     must match exactly one device.
//
// The error for an unknown or ambiguous selector lists the candidates.
func Select(devices []Info, selector string) (Info, error) {
	sel := strings.TrimSpace(selector)
	if sel == "" {
		return Info{}, fmt.Errorf("device selector is empty; %s", available(devices))
	}
	for _, d := range devices {
		if strings.EqualFold(d.ID(), sel) {
			return d, nil
		}
	}
	if b := Backend(strings.ToLower(sel)); b == OpenCL || b == CUDA {
		for _, d := range devices {
			if d.Backend == b {
				return d, nil
			}
		}
		return Info{}, fmt.Errorf("device %q: no %s device; %s", selector, b, available(devices))
	}
	var hits []Info
	low := strings.ToLower(sel)
	for _, d := range devices {
		for _, s := range []string{d.Name, d.Vendor, d.Platform, d.PlatformVendor} {
			if strings.Contains(strings.ToLower(s), low) {
				hits = append(hits, d)
				break
			}
		}
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		return Info{}, fmt.Errorf("device %q: no such device; %s", selector, available(devices))
	default:
		return Info{}, fmt.Errorf("device %q is ambiguous: it matches %s", selector, list(hits))
	}
}

func available(devices []Info) string {
	if len(devices) == 0 {
		return "no devices are available"
	}
	return "available: " + list(devices)
}

func list(devices []Info) string {
	parts := make([]string, len(devices))
	for i, d := range devices {
		parts[i] = fmt.Sprintf("%s (%s)", d.ID(), d.Name)
	}
	return strings.Join(parts, ", ")
}
