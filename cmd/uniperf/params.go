package main

import (
	"fmt"
	"strings"
)

// parseParams turns repeated --param NAME=VALUE flags into a map. Values are
// exact integers; a repeated name or a value that does not fit in int64 is
// an error rather than a silent overwrite or wrap-around.
func parseParams(flags []string) (map[string]int64, error) {
	return parseBindings("--param", flags)
}

// parseConsts turns repeated --const NAME=VALUE flags, kernel const
// bindings, into a map, with the checks of parseParams.
func parseConsts(flags []string) (map[string]int64, error) {
	return parseBindings("--const", flags)
}

// parseBindings is parseParams for any flag of NAME=VALUE bindings, named
// in errors.
func parseBindings(flag string, flags []string) (map[string]int64, error) {
	params := make(map[string]int64, len(flags))
	for _, f := range flags {
		name, value, ok := strings.Cut(f, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fmt.Errorf("%s %q: want NAME=VALUE", flag, f)
		}
		if _, dup := params[name]; dup {
			return nil, fmt.Errorf("%s %q: %s given twice", flag, f, name)
		}
		v, err := parseInt(value)
		if err != nil {
			return nil, fmt.Errorf("%s %q: %w", flag, f, err)
		}
		params[name] = v
	}
	return params, nil
}
