package counts

import (
	"fmt"
	"strings"
)

// opWords names the operation kinds of flop.* and int.* properties.
var opWords = map[string]string{
	"add": "additions and subtractions", "mul": "multiplications", "div": "divisions",
	"pow": "powers", "exp": "exponentials", "special": "special functions (sqrt, rsqrt, sin, ...)",
	"fmod": "remainders", "bitwise": "bitwise operations", "shift": "shifts",
}

// Describe says in words what a property counts, for people: the stride
// and utilization classes as a GPU programmer names them ("stride 5 or
// more (uncoalesced), 1 of every 4 elements used"). The property name stays
// the exact key (in tables, weights and JSON); a name that is not a
// property is described as unknown.
func Describe(property string) string {
	parts := strings.Split(property, ".")
	if len(parts) >= 3 && (parts[0] == "global" || parts[0] == "local") {
		for i, p := range parts[1:] {
			if w, ok := widthWords[p]; ok {
				parts[i+1] = w
			}
		}
	}
	switch {
	case property == "sync.barrier":
		return "barriers, once per work-item that meets one"
	case property == "launch.groups":
		return "work-groups launched"
	case property == "launch.const":
		return "kernel launches (the constant 1)"
	case len(parts) == 3 && parts[0] == "local" && strings.HasPrefix(parts[2], "conflict="):
		if c := conflictWords(strings.TrimPrefix(parts[2], "conflict=")); c != "" {
			return fmt.Sprintf("%s local-memory loads and stores with %s, counted again beside local.load and local.store", parts[1], c)
		}
	case len(parts) == 3 && parts[0] == "local":
		return fmt.Sprintf("%s local-memory %ss", parts[2], parts[1])
	case len(parts) == 3 && parts[0] == "int" && parts[2] == "special":
		// Integers have no special functions: only max and min
		// reductions count int.*.special.
		return fmt.Sprintf("%s max and min (reductions, one per point)", parts[1])
	case len(parts) == 3 && (parts[0] == "flop" || parts[0] == "int") && opWords[parts[2]] != "":
		return fmt.Sprintf("%s %s", parts[1], opWords[parts[2]])
	case len(parts) == 4 && (parts[0] == "global" || parts[0] == "local") && parts[2] == "indirect":
		return fmt.Sprintf("%s %s-memory %ss at subscripts read from data (gathers and scatters, x[col[j]])", parts[3], parts[0], parts[1])
	case len(parts) == 4 && (parts[0] == "global" || parts[0] == "local") && parts[1] == "atomic" && parts[3] == "add":
		return fmt.Sprintf("%s atomic additions to %s memory (atomic_add)", parts[2], parts[0])
	case len(parts) == 4 && parts[0] == "global" && strings.HasPrefix(parts[3], "stride="):
		what := fmt.Sprintf("%s global %ss", parts[2], parts[1])
		switch parts[1] {
		case "minldst":
			what = fmt.Sprintf("min(%s global loads, stores), a correction term", parts[2])
		case "ldg":
			what = fmt.Sprintf("%s global loads of readonly arrays (the read-only data path: __ldg, const restrict)", parts[2])
		}
		if s := strideWords(strings.TrimPrefix(parts[3], "stride=")); s != "" {
			return what + ", " + s
		}
	}
	return "not a property uniperf counts"
}

// strideWords describes a stride class: "0", "1", "k/s" for strides s of 2
// to 4 with k of every s elements of the footprint used, "k/>4" for larger
// or size-dependent strides with about k/4 used; k may be the letter k
// where the utilization is not yet known.
func strideWords(class string) string {
	switch class {
	case "0":
		return "uniform (stride 0: every lane the same address)"
	case "1":
		return "stride 1 (coalesced)"
	}
	k, s, ok := strings.Cut(class, "/")
	if !ok || k == "" {
		return ""
	}
	used := "k of every %s elements used (k from the footprint)"
	if k != "k" {
		used = k + " of every %s elements used"
	}
	switch s {
	case "2", "3", "4":
		return fmt.Sprintf("stride %s, "+used, s, s)
	case ">4":
		return "stride over 4 (uncoalesced), about " + fmt.Sprintf(used, "4")
	}
	return ""
}

// widthWords names the memory types of the 8- and 16-bit integers and of
// half precision, whose loads and stores convert to and from f32.
var widthWords = map[string]string{"b8": "8-bit integer", "b16": "16-bit integer", "f16": "half-precision (f16, converted to and from f32)"}
