package main

import (
	"fmt"

	"github.com/spf13/cobra"
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
// in errors. NAME1=NAME2=VALUE binds several names to one value.
func parseBindings(flag string, flags []string) (map[string]int64, error) {
	params := make(map[string]int64, len(flags))
	for _, f := range flags {
		names, value, err := tiedNames(f)
		if err != nil {
			return nil, fmt.Errorf("%s %q: %w (want NAME=VALUE, or NAME1=NAME2=VALUE to tie names)", flag, f, err)
		}
		v, err := parseInt(value)
		if err != nil {
			return nil, fmt.Errorf("%s %q: %w", flag, f, err)
		}
		for _, name := range names {
			if _, dup := params[name]; dup {
				return nil, fmt.Errorf("%s %q: %s given twice", flag, f, name)
			}
			params[name] = v
		}
	}
	return params, nil
}

// changedFlag returns the first of names given on cmd's command line.
func changedFlag(cmd *cobra.Command, names []string) string {
	for _, n := range names {
		if cmd.Flags().Changed(n) {
			return n
		}
	}
	return ""
}
