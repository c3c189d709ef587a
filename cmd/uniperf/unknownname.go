package main

import (
	"fmt"
	"slices"
	"strings"
)

// A name the kernel does not declare is caught where a flag binds it:
// counting would otherwise stop at the first parameter left unbound,
// which names what is missing rather than what was mistyped.

// checkCaseNames refuses a name that predict's --const, --param or
// --sweep (constFlags, paramFlags, sweepFlags) binds but kernel does not
// declare as a const or a parameter (consts, params). The flags have
// parsed already.
func checkCaseNames(kernel string, consts, params, constFlags, paramFlags, sweepFlags []string) error {
	for _, g := range []struct {
		flag  string
		given []string
		kind  string
		have  []string
	}{
		{"--const", constFlags, "const", consts},
		{"--param", paramFlags, "parameter", params},
		{"--sweep", sweepFlags, "parameter", params},
	} {
		for _, v := range g.given {
			names, _, _ := tiedNames(v)
			for _, n := range names {
				if !slices.Contains(g.have, n) {
					return unknownName(fmt.Sprintf("%s %q", g.flag, v), kernel, n, g.kind, g.kind+"s", g.have)
				}
			}
		}
	}
	return nil
}

// unknownName says that kernel has no kind called name, which where
// binds: the names of the kind it has (haveKind: their plural), and
// those near name.
func unknownName(where, kernel, name, kind, haveKind string, have []string) error {
	hint := ""
	if near := nearNames(name, have); len(near) > 0 {
		hint = "; did you mean " + strings.Join(near, " or ") + "?"
	}
	return fmt.Errorf("%s: %s has no %s %s (its %s: %s%s)", where, kernel, kind, name, haveKind, paramList(have), hint)
}
