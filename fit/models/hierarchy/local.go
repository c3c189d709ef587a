package hierarchy

import (
	"math/bits"
	"strings"

	"github.com/uniperf/uniperf/fit/models"
)

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

// ContextL2Prefix and ContextLLCPrefix start the features of
// Config.Context: the local accesses of a group whose context exceeds a
// core's L1, and its L2, local.ctx2.<rest> and local.ctx3.<rest> for
// local.<rest>.
const (
	ContextL2Prefix  = "local.ctx2."
	ContextLLCPrefix = "local.ctx3."
)

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

// moveLocal moves every local access property (local.load.T,
// local.store.T, local.access.T) to its feature under prefix, in place:
// LocalL2Prefix for a launch whose group's local arrays exceed L1, the
// Context prefixes for one whose group's context does. The
// bank-conflict properties stay, a bank being a GPU's.
func moveLocal(features map[string]float64, prefix string) {
	for name, v := range features {
		rest, ok := strings.CutPrefix(name, "local.")
		if !ok || !isLocalAccess(rest) {
			continue
		}
		delete(features, name)
		features[prefix+rest] += v
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

func isContextL2(p string) bool  { return strings.HasPrefix(p, ContextL2Prefix) }
func isContextLLC(p string) bool { return strings.HasPrefix(p, ContextLLCPrefix) }

// contextLevel returns the prefix of the features a launch's local
// accesses move to under Config.Context at level (ContextL1 or
// ContextL2): ContextLLCPrefix where its group's context exceeds a
// core's L2 (lv.L2Core, at ContextL2), ContextL2Prefix where it exceeds
// L1, "" where it fits L1, the device gives no L1, or the kernel's
// context has no count (counts.Kernel.ContextBytes).
func contextLevel(in *models.Inputs, level string, lv Levels) string {
	per, ok := in.Kernel.ContextBytes()
	if !ok || lv.L1 <= 0 {
		return ""
	}
	hi, group := bits.Mul64(uint64(per), uint64(in.GroupSize()))
	beyond := func(bytes int64) bool { return hi != 0 || group > uint64(bytes) }
	switch {
	case level == ContextL2 && lv.L2Core > 0 && beyond(lv.L2Core):
		return ContextLLCPrefix
	case beyond(lv.L1):
		return ContextL2Prefix
	}
	return ""
}

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
