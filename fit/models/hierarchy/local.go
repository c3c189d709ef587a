package hierarchy

import "strings"

// LocalAccessPrefix starts the features of Config.LocalAccesses: a
// type's local-memory loads and stores together, local.access.<type>.
const LocalAccessPrefix = "local.access."

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
