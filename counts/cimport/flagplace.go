package cimport

import "strings"

// A flag's refusal (--array x=0: an extent must be positive) names no
// place of the source where the flag came from the command line. Where
// it came from a "// uniperf:" comment, the comment is its place in the
// source, and the refusal takes the comment's line and column.

// placeFlag gives err, a refusal of a flag that a comment gave, the
// comment's place; places holds the comments' flags by flagKey.
func placeFlag(err error, places map[string]pos) {
	e, ok := err.(*Error)
	if !ok || e.Line != 0 {
		return
	}
	if p, ok := places[flagKey(e.Msg)]; ok {
		e.Line, e.Col = p.line, p.col
	}
}

// flagKey reads which flag a refusal's message names, as it begins:
// "--array x=0: ..." is --array x, "-D W=n: ..." -D W, "--groups n/64:
// ..." --groups, "--assume t >= 0: ..." --assume t >= 0, "--assume: ..."
// (an empty condition) --assume.
func flagKey(msg string) string {
	flag, rest, _ := strings.Cut(msg, " ")
	switch flag {
	case "--array", "--trips", "-D":
		name, _, _ := strings.Cut(rest, "=")
		name, _, _ = strings.Cut(name, ":")
		return flag + " " + name
	case "--assume":
		cond, _, _ := strings.Cut(rest, ": ")
		return flag + " " + cond
	case "--assume:":
		// An empty condition (--assume= in a comment) is refused before
		// it is named.
		return "--assume "
	case "--local", "--global", "--groups", "--local:", "--global:", "--groups:":
		return strings.TrimSuffix(flag, ":")
	}
	return ""
}
