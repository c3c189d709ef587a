package hierarchy

import "strings"

// LocalAccessPrefix starts the features of Config.LocalAccesses: a
// type's local-memory loads and stores together, local.access.<type>.
const LocalAccessPrefix = "local.access."

// LocalL2Prefix starts the features of Config.LocalFootprint: the local
// accesses of a group whose local arrays exceed L1, local.l2.<rest> for
// local.<rest> (local.l2.access.f32, local.l2.load.f32).
const LocalL2Prefix = "local.l2."

// localAccesses folds each type's local loads and stores (local.load.T,
// local.store.T) into one feature, LocalAccessPrefix+T, in place. The
// bank-conflict properties (local.T.conflict=D) stay as they are.
func localAccesses(features map[string]float64) {
	for name, v := range features {
		t, ok := strings.CutPrefix(name, "local.load.")
		if !ok {
			t, ok = strings.CutPrefix(name, "local.store.")
		}
		if !ok {
			continue
		}
		delete(features, name)
		features[LocalAccessPrefix+t] += v
	}
}

// beyondL1 moves every local access property (local.load.T,
// local.store.T, local.access.T) to its LocalL2Prefix feature, in place:
// the features of a launch whose group's local arrays exceed L1. The
// bank-conflict properties stay, a bank being a GPU's.
func beyondL1(features map[string]float64) {
	for name, v := range features {
		rest, ok := strings.CutPrefix(name, "local.")
		if !ok || !isLocalAccess(rest) {
			continue
		}
		delete(features, name)
		features[LocalL2Prefix+rest] += v
	}
}

// isLocalAccess reports whether local.<rest> counts local loads, stores
// or both (Config.LocalAccesses).
func isLocalAccess(rest string) bool {
	for _, p := range []string{"load.", "store.", "access."} {
		if strings.HasPrefix(rest, p) {
			return true
		}
	}
	return false
}

func isBeyondL1(p string) bool { return strings.HasPrefix(p, LocalL2Prefix) }
