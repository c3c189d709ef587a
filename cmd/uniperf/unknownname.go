package main

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/counts"
)

// A name the kernel does not declare is caught where a flag binds it:
// counting would otherwise stop at the first parameter left unbound,
// which names what is missing rather than what was mistyped.

// checkCaseNames refuses a name that predict's --const, --param or
// --sweep (constFlags, paramFlags, sweepFlags) binds but kernel does not
// declare as a const or a parameter (consts, params). The flags have
// parsed already.
func checkCaseNames(kernel string, consts, params, constFlags, paramFlags, sweepFlags []string) error {
	return cmp.Or(checkNames("--const", constFlags, kernel, "const", consts),
		checkNames("--param", paramFlags, kernel, "parameter", params),
		checkNames("--sweep", sweepFlags, kernel, "parameter", params))
}

// checkNames refuses a name that one of flag's NAME=... values (given,
// parsed already) binds but kernel has no kind of (have).
func checkNames(flag string, given []string, kernel, kind string, have []string) error {
	for _, v := range given {
		names, _, _ := tiedNames(v)
		for _, n := range names {
			if !slices.Contains(have, n) {
				return unknownName(fmt.Sprintf("%s %q", flag, v), kernel, n, kind, kind+"s", have)
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

// firstUnknown names the first of given's names, in sorted order, that
// declared lacks.
func firstUnknown(given map[string]int64, declared []string) (string, bool) {
	for _, name := range slices.Sorted(maps.Keys(given)) {
		if !slices.Contains(declared, name) {
			return name, true
		}
	}
	return "", false
}

// constNames lists the names of k's consts, in its order.
func constNames(k *counts.Kernel) []string {
	names := make([]string, len(k.Consts))
	for i, c := range k.Consts {
		names[i] = c.Name
	}
	return names
}

// firstMissing names the first of declared that given leaves unbound,
// in declared's order, which is the kernel's: a message names the same
// parameter each run.
func firstMissing(declared []string, given map[string]int64) (string, bool) {
	for _, p := range declared {
		if _, ok := given[p]; !ok {
			return p, true
		}
	}
	return "", false
}

// paramList lists names for a message, "none" where there are none.
func paramList(ps []string) string {
	if len(ps) == 0 {
		return "none"
	}
	return strings.Join(ps, ", ")
}
