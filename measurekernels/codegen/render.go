package codegen

import (
	"math"
	"strconv"
	"strings"

	"github.com/uniperf/uniperf/polyhedra"
)

// constraintC renders a constraint as a C comparison with the terms of
// variables (names other than the kernel's parameters) on the left, with
// positive coefficients where possible: "12*i_out + i_in <= n - 1" rather
// than polyhedra's "(-12*i_out - i_in + n - 1 >= 0)", and "j >= i" for
// "-i + j >= 0". Terms only move across the comparison, so the test is the
// same.
func constraintC(c polyhedra.Constraint, params map[string]bool, vars map[string]string) string {
	terms, ok := splitTerms(c.Expr.C(vars))
	if !ok {
		return c.C(vars)
	}
	var left, right []term
	hasVar := false
	for _, t := range terms {
		hasVar = hasVar || t.mentionsVariable(params)
	}
	for _, t := range terms {
		if t.mentionsVariable(params) || !hasVar && !t.isNumber() {
			left = append(left, t)
		} else {
			right = append(right, t.negated())
		}
	}
	op := " >= "
	if c.Eq {
		op = " == "
	}
	pos, neg := 0, 0
	for _, t := range left {
		if t.neg {
			neg++
		} else {
			pos++
		}
	}
	if pos > 0 && neg > 0 {
		// Mixed signs: the positive terms stay, the others cross over.
		var stay, cross []term
		for _, t := range left {
			if t.neg {
				cross = append(cross, t.negated())
			} else {
				stay = append(stay, t)
			}
		}
		left, right = stay, append(cross, right...)
	}
	if pos == 0 && neg > 0 {
		for i := range left {
			left[i] = left[i].negated()
		}
		for i := range right {
			right[i] = right[i].negated()
		}
		if !c.Eq {
			op = " <= "
		}
	}
	if op == " <= " || op == " >= " {
		// x <= e - 1 reads x < e, and x >= e + 1 reads x > e.
		step := term{neg: op == " <= ", body: "1"}
		if n := len(right); n > 1 && right[n-1] == step {
			right, op = right[:n-1], op[:2]+" "
		}
	}
	return joinTerms(left) + op + joinTerms(right)
}

// below renders the test x <= hi as x < e where hi is e - 1, and
// otherwise as x <= hi.
func below(x, hi string) string {
	if v, err := strconv.ParseInt(hi, 10, 32); err == nil && v < math.MaxInt32 {
		return x + " < " + strconv.FormatInt(v+1, 10)
	}
	if ts, ok := splitTerms(hi); ok && len(ts) > 1 && ts[len(ts)-1] == (term{neg: true, body: "1"}) {
		return x + " < " + joinTerms(ts[:len(ts)-1])
	}
	return x + " <= " + hi
}

// term is a signed summand of a rendered expression.
type term struct {
	neg  bool
	body string
}

func (t term) negated() term { return term{!t.neg, t.body} }

func (t term) isNumber() bool {
	return strings.Trim(t.body, "0123456789LU") == ""
}

// mentionsVariable reports whether the term holds a name that is neither
// a parameter nor a function called.
func (t term) mentionsVariable(params map[string]bool) bool {
	return anyIdent(t.body, func(name string, call bool) bool { return !params[name] && !call })
}

// anyIdent reports whether f holds for any identifier of C source s;
// call says whether a call's parenthesis follows it.
func anyIdent(s string, f func(name string, call bool) bool) bool {
	for i := 0; i < len(s); {
		if !identStart(s[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(s) && (identStart(s[j]) || s[j] >= '0' && s[j] <= '9') {
			j++
		}
		if f(s[i:j], j < len(s) && s[j] == '(') {
			return true
		}
		i = j
	}
	return false
}

func identStart(b byte) bool { return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// splitTerms splits a sum rendered by polyhedra ("-a + 2*b - 3") into its
// terms at parenthesis depth 0.
func splitTerms(s string) ([]term, bool) {
	var out []term
	neg := false
	if strings.HasPrefix(s, "-") {
		neg, s = true, s[1:]
	}
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ' ':
			if depth == 0 && i+2 < len(s) && (s[i+1] == '+' || s[i+1] == '-') && s[i+2] == ' ' {
				out = append(out, term{neg, s[start:i]})
				neg = s[i+1] == '-'
				start = i + 3
				i += 2
			}
		}
	}
	out = append(out, term{neg, s[start:]})
	for _, t := range out {
		if t.body == "" || strings.HasPrefix(t.body, "-") {
			return nil, false
		}
	}
	return out, depth == 0
}

func joinTerms(ts []term) string {
	if len(ts) == 0 {
		return "0"
	}
	var b strings.Builder
	for i, t := range ts {
		switch {
		case i == 0 && t.neg:
			b.WriteString("-")
		case i > 0 && t.neg:
			b.WriteString(" - ")
		case i > 0:
			b.WriteString(" + ")
		}
		b.WriteString(t.body)
	}
	return b.String()
}

// enclosed reports whether s is wholly inside one pair of parentheses.
func enclosed(s string) bool {
	if !strings.HasPrefix(s, "(") || !strings.HasSuffix(s, ")") {
		return false
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 && i < len(s)-1 {
				return false
			}
		}
	}
	return true
}
