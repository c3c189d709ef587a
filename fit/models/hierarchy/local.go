package hierarchy

import "strings"

// LocalAccessPrefix starts the features of Config.LocalAccesses: a
// type's local-memory loads and stores together, local.access.<type>.
const LocalAccessPrefix = "local.access."

// LocalAnyAccess is the feature of Config.LocalAnyType: the local loads
// and stores of every type together.
const LocalAnyAccess = LocalAccessPrefix + "any"

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

// dropBanks deletes the local bank-conflict properties
// (local.T.conflict=D) from features, in place (Config.NoBanks).
func dropBanks(features map[string]float64) {
	for name := range features {
		if isBankConflict(name) {
			delete(features, name)
		}
	}
}

// isBankConflict reports whether p is a local bank-conflict property,
// local.<type>.conflict=<degree>.
func isBankConflict(p string) bool {
	rest, ok := strings.CutPrefix(p, "local.")
	if !ok {
		return false
	}
	_, degree, ok := strings.Cut(rest, ".")
	return ok && strings.HasPrefix(degree, "conflict=")
}

// anyTypeAccesses folds each type's local accesses (LocalAccessPrefix+T)
// into one feature, LocalAnyAccess, in place (Config.LocalAnyType); the
// indirect ones (LocalAccessPrefix+"indirect."+T) stay.
func anyTypeAccesses(features map[string]float64) {
	for name, v := range features {
		t, ok := strings.CutPrefix(name, LocalAccessPrefix)
		if !ok || name == LocalAnyAccess || strings.Contains(t, ".") {
			continue
		}
		delete(features, name)
		features[LocalAnyAccess] += v
	}
}
