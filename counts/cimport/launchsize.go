package cimport

import "fmt"

// launchSize is a size of the grid from the flags: --global N (den the
// work-group size, c 0) or --groups N/den + c (den 1 without a
// division).
type launchSize struct {
	flag, text string
	n, den     poly
	c          int64
	rounded    bool // the bound is den*(group - c) <= n - 1: --global, or a division --assume makes exact
}

// advice is what to write where --groups N/den + c may launch fewer
// work-items than the guard admits: the host's own expression, which
// rounds up where the host means to cover the guard.
func (l *launchSize) advice() string {
	if l.den.equal(constPoly(1)) {
		return "where the host launches more groups, give its count"
	}
	dm1, ok := l.den.add(constPoly(1), -1)
	if !ok {
		return "C's division truncates: where the host rounds up, write its expression"
	}
	advice := fmt.Sprintf("C's division truncates, so a count rounded up is written (%s + %s)/%s, which --groups takes as the host's expression", l.n, dm1, parenthesized(l.den))
	if _, ok := l.den.constant(); ok {
		advice += fmt.Sprintf("; where %s divides %s, say so: --assume '%s %% %s == 0'", l.den, l.n, parenthesized(l.n), l.den)
	}
	return advice
}

// parenthesized writes p, in parentheses where it is a sum.
func parenthesized(p poly) string {
	if len(p) > 1 {
		return "(" + p.String() + ")"
	}
	return p.String()
}
