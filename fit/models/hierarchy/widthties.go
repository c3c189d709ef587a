package hierarchy

import (
	"strings"

	"github.com/uniperf/uniperf/fit"
)

// widthTies returns the ties of Config.WidthTies over the features
// props: each memory access feature of an integer type, i32 or i64
// (global.load.i32.stride=1, global.minldst.i64.stride=1,
// local.access.i32, local.i64.conflict=2, global.load.indirect.i32), tied
// to the one of the floating-point type of its width, f32 or f64. The
// atomics (global.atomic.T.add, local.atomic.T.add) stay apart: an atomic
// addition of a float is another operation than one of an integer.
func widthTies(props []string) map[string]string { return fit.TiesBy(props, widthTarget) }

// widthFloat is the floating-point type of each integer type's width.
var widthFloat = map[string]string{"i32": "f32", "i64": "f64"}

// widthTarget is the feature an integer access feature p is tied to by
// Config.WidthTies, and whether p is one.
func widthTarget(p string) (string, bool) {
	parts := strings.Split(p, ".")
	at := -1
	switch {
	case len(parts) >= 3 && parts[0] == "global" && (parts[1] == "load" || parts[1] == "ldg" || parts[1] == "store" || parts[1] == "minldst"),
		len(parts) >= 3 && parts[0] == "local" && (parts[1] == "load" || parts[1] == "store" || parts[1] == "access"):
		at = 2
		if parts[2] == "indirect" && len(parts) >= 4 {
			at = 3
		}
	case len(parts) >= 3 && parts[0] == "local" && strings.HasPrefix(parts[2], "conflict="):
		at = 1
	}
	if at < 0 {
		return "", false
	}
	f, ok := widthFloat[parts[at]]
	if !ok {
		return "", false
	}
	parts[at] = f
	return strings.Join(parts, "."), true
}

// withWidthTies adds widthTies(props) to ties, which may be nil, and
// points a tie whose target is an integer access feature (a filled
// stride's, fit.FilledStrideTies) at that one's floating-point target,
// so that every tie reaches its final column in one step.
func withWidthTies(ties map[string]string, props []string) map[string]string {
	out := widthTies(props)
	for p, to := range ties {
		if w, ok := widthTarget(to); ok {
			to = w
		}
		out[p] = to
	}
	return out
}
