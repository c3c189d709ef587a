package main

import (
	"fmt"
	"math/big"
	"strings"
)

// parseParams turns repeated --param NAME=VALUE flags into a map. Values are
// exact integers; a repeated name or a value that does not fit in int64 is
// an error rather than a silent overwrite or wrap-around.
func parseParams(flags []string) (map[string]int64, error) {
	params := make(map[string]int64, len(flags))
	for _, f := range flags {
		name, value, ok := strings.Cut(f, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fmt.Errorf("--param %q: want NAME=VALUE", f)
		}
		if _, dup := params[name]; dup {
			return nil, fmt.Errorf("--param %q: %s given twice", f, name)
		}
		v, ok := new(big.Int).SetString(strings.TrimSpace(value), 10)
		if !ok {
			return nil, fmt.Errorf("--param %q: %q is not an integer", f, value)
		}
		if !v.IsInt64() {
			return nil, fmt.Errorf("--param %q: %s does not fit in a 64-bit integer", f, value)
		}
		params[name] = v.Int64()
	}
	return params, nil
}
