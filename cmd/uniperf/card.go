package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/big"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/polyhedra"
)

var (
	cardParams    []string
	cardJSON      bool
	cardMaxPieces int64
	cardMaxMemory int64
	cardMaxPoints int64
)

var cardCmd = &cobra.Command{
	Use:   "card SET",
	Short: "Count the integer points of a parametric set exactly",
	Long: `card counts the integer points of SET, a set in isl notation such as

  [n, m] -> { [i, j] : 0 <= i < n and 0 <= j <= i and j < m }

and prints the count as a piecewise quasi-polynomial in the parameters, in
isl notation: pieces "polynomial : domain" separated by ";", with floor
divisions where the count is periodic. The count is exact: it is computed
symbolically, not by enumeration (but see the budgets below).

With --param NAME=VALUE for every parameter, card also prints the exact
value of the count. With --json it prints one object with the fields set
(the set as understood), expression (the count), value (an integer,
present when every parameter is given), method and note (see below).

A count is bounded in work and memory: --max-pieces bounds the basic sets
(chambers, residue classes, pieces of differences) it may create and
--max-memory the memory it may take. Past either budget, or past the
counter's own work limits (residue classes, size of the summands), the
symbolic count stops; parsing counts too, since each x != c or x mod d != r
doubles a set's basic sets. Without --param that is an error (exit status 2)
naming the budget and the set. With every parameter given, card counts the
set with the parameters replaced by their values instead, which is far
cheaper, and if that too exceeds the budget, or the set exceeded it while
being parsed, it enumerates the points, testing at most --max-points
candidate points (10 million by default, seconds) before it stops with exit
status 2 naming the budget; it then prints only the value, says so on standard error, and --json reports
the method ("specialized" or "enumerated" rather than "symbolic") and the
note.

The set notation: parameters [n, m] ->, tuples { [i, j] : ... } (a tuple
name S[i, j] is allowed), pieces separated by ";", and, or, not, exists
(q : ...), chained comparisons 0 <= i < n, = and !=, integer coefficients
(2i, 2*i), floor(e/d), ceil(e/d), e mod d, e % d, min(...), max(...).

Exit status 2 for a syntax error (with line and column), a set that is
unbounded for some parameter values (naming the dimension), a missing or
unknown parameter, a count that overflows 64-bit arithmetic, or a count
past its budget (without --param).`,
	Example: `  uniperf card '[n] -> { [i, j] : 0 <= j <= i < n }'
  uniperf card '[n] -> { [i] : 0 <= i < n and i mod 4 = 1 }' --param n=100
  uniperf card '[n, m] -> { [i, j] : 0 <= i < n and 0 <= j < m }' --param n=3 --param m=5 --json`,
	Args: cobra.ExactArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		params, err := parseParams(cardParams)
		if err != nil {
			return err
		}
		lim, err := budgetLimits(cardMaxPieces, cardMaxMemory, cardMaxPoints)
		if err != nil {
			return err
		}
		return card(cmd.OutOrStdout(), cmd.ErrOrStderr(), args[0], params, cardJSON, lim)
	},
}

func init() {
	cardCmd.Flags().StringArrayVar(&cardParams, "param", nil, "parameter value NAME=VALUE (repeatable)")
	cardCmd.Flags().BoolVar(&cardJSON, "json", false, "print one JSON object")
	cardCmd.Flags().Int64Var(&cardMaxPieces, "max-pieces", polyhedra.DefaultMaxPieces,
		"most basic sets (chambers, residue classes, pieces) one count may create")
	cardCmd.Flags().Int64Var(&cardMaxPoints, "max-points", polyhedra.DefaultMaxPoints,
		"most candidate points the enumeration at given parameters may test")
	cardCmd.Flags().Int64Var(&cardMaxMemory, "max-memory", polyhedra.DefaultMaxHeap>>20,
		"most memory, in MiB, a count may take")
	rootCmd.AddCommand(cardCmd)
}

// budgetLimits checks the values of --max-pieces and --max-memory (MiB)
// and returns them as limits.
func budgetLimits(pieces, mib, points int64) (polyhedra.Limits, error) {
	// 0 and negative values would mean the defaults inside polyhedra.
	if pieces <= 0 {
		return polyhedra.Limits{}, fmt.Errorf("--max-pieces %d: want a positive number of basic sets", pieces)
	}
	if mib <= 0 || mib > math.MaxInt64>>20 {
		return polyhedra.Limits{}, fmt.Errorf("--max-memory %d: want a positive number of MiB", mib)
	}
	if points <= 0 {
		return polyhedra.Limits{}, fmt.Errorf("--max-points %d: want a positive number of candidate points", points)
	}
	return polyhedra.Limits{MaxPieces: pieces, MaxHeap: mib << 20, MaxPoints: points}, nil
}

// cardResult is the JSON output of uniperf card.
type cardResult struct {
	Set        string          `json:"set"`
	Expression string          `json:"expression,omitempty"`
	Value      json.RawMessage `json:"value,omitempty"`
	Method     string          `json:"method"`
	Note       string          `json:"note,omitempty"`
}

// card counts src and writes the count, and its value when params give
// every parameter (any given parameter makes all of them required). A
// symbolic count past its budget falls back to the value at params, with
// a note on errw.
func card(w, errw io.Writer, src string, params map[string]int64, asJSON bool, lim polyhedra.Limits) error {
	if err := polyhedra.CheckNames(src); err != nil {
		return fmt.Errorf("SET:%w", err)
	}
	s, err := polyhedra.ParseSetLimits(src, lim)
	if err != nil && len(params) > 0 && tooCostly(err) {
		return cardEnumerated(w, errw, src, params, asJSON, lim, err)
	}
	if err != nil && tooCostly(err) {
		// A set without parameters has its one value to enumerate;
		// asking for --param would ask for what it cannot take.
		if names, perr := polyhedra.ParamNames(src); perr == nil && len(names) == 0 {
			return cardEnumerated(w, errw, src, params, asJSON, lim, err)
		}
	}
	if err != nil && tooCostly(err) {
		return fmt.Errorf("SET: %w; raise --max-pieces or --max-memory, or give every parameter with --param to count at those values", err)
	}
	if err != nil {
		return fmt.Errorf("SET:%w", err)
	}
	if name, ok := firstUnknown(params, s.Params()); ok {
		return unknownName("--param "+name, "the set", name, "parameter", "parameters", s.Params())
	}
	valued := len(params) > 0 || len(s.Params()) == 0
	if valued {
		if p, ok := firstMissing(s.Params(), params); ok {
			return fmt.Errorf("missing parameter %s: give --param %s=VALUE (the set's parameters: %s)", p, p, paramList(s.Params()))
		}
	}
	res := cardResult{Set: s.String(), Method: "symbolic"}
	c, err := s.CardLimits(lim)
	switch {
	case err != nil && valued && tooCostly(err):
		v, method, ferr := cardAt(s, params, lim)
		if ferr != nil && tooCostly(ferr) {
			return fmt.Errorf("counting SET: %w; at the given parameters: %w; raise --max-pieces, --max-memory or --max-points", err, ferr)
		}
		if ferr != nil {
			return fmt.Errorf("counting SET: %w; at the given parameters: %w", err, ferr)
		}
		res.Value, res.Method = json.RawMessage(v), method
		res.Note = fmt.Sprintf("the symbolic count stopped (%v); the value is that of the set %s", err, methodNote[method])
		fmt.Fprintf(errw, "uniperf card: %s\n", res.Note)
	case err != nil && tooCostly(err):
		hint := "give every parameter with --param to count at those values"
		var be *polyhedra.BudgetError
		if errors.As(err, &be) { // it names the set
			return fmt.Errorf("counting SET: %w; raise --max-pieces or --max-memory, or %s", err, hint)
		}
		return fmt.Errorf("counting SET %s: %w; %s", polyhedra.Brief(res.Set), err, hint)
	case err != nil:
		return fmt.Errorf("counting SET: %w", err)
	default:
		res.Expression = c.String()
		if valued {
			v, err := int64Value(c.Eval(params))
			if err != nil {
				return fmt.Errorf("evaluating the count: %w", err)
			}
			res.Value = json.RawMessage(v)
		}
	}
	return writeCard(w, res, s.Params(), params, asJSON)
}

// cardEnumerated counts src at params by enumeration, for a set whose
// conditions exceed the budget while it is being parsed.
func cardEnumerated(w, errw io.Writer, src string, params map[string]int64, asJSON bool, lim polyhedra.Limits, parseErr error) error {
	n, err := polyhedra.CountAt(src, params, lim, maxEnumerated)
	if err != nil && tooCostly(err) {
		return fmt.Errorf("SET: %w; enumerating its points: %w; raise --max-pieces, --max-memory or --max-points", parseErr, err)
	}
	if err != nil {
		return fmt.Errorf("SET: %w; enumerating its points: %w", parseErr, err)
	}
	res := cardResult{Set: src, Value: json.RawMessage(fmt.Sprint(n)), Method: "enumerated"}
	res.Note = fmt.Sprintf("the symbolic count stopped (%v); the value is that of the set %s", parseErr, methodNote["enumerated"])
	fmt.Fprintf(errw, "uniperf card: %s\n", res.Note)
	return writeCard(w, res, slices.Sorted(maps.Keys(params)), params, asJSON)
}

// writeCard prints res, its value labelled with the parameters names.
func writeCard(w io.Writer, res cardResult, names []string, params map[string]int64, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(res)
	}
	if res.Expression != "" {
		fmt.Fprintln(w, res.Expression)
	}
	if res.Value != nil {
		label := "value"
		if len(names) > 0 {
			var at []string
			for _, p := range names {
				at = append(at, fmt.Sprintf("%s=%d", p, params[p]))
			}
			label += " at " + strings.Join(at, " ")
		}
		fmt.Fprintf(w, "%s: %s\n", label, res.Value)
	}
	return nil
}

// int64Value returns the decimal digits of a count's value, which must fit
// in 64 bits as every count that uniperf prints does: a set given without
// parameters fails the same way.
func int64Value(v *big.Int, err error) (string, error) {
	if err != nil {
		return "", err
	}
	if !v.IsInt64() {
		return "", fmt.Errorf("integer overflow: the value %s does not fit in 64 bits", v)
	}
	return v.String(), nil
}

// tooCostly reports whether err stopped a count at a budget or a work
// limit, rather than at a fault of the set.
func tooCostly(err error) bool {
	var be *polyhedra.BudgetError
	var ce *polyhedra.ComplexityError
	return errors.As(err, &be) || errors.As(err, &ce)
}

var methodNote = map[string]string{
	"specialized": "with the parameters replaced by their values, counted exactly",
	"enumerated":  "at the given parameters, counted by enumerating its points",
}

// maxEnumerated bounds the points cardAt enumerates.
const maxEnumerated = 1 << 30

// cardAt counts s at concrete parameters: symbolically once they are
// substituted, which leaves a set without parameters, or, should that
// exceed the budget too, by enumeration. It returns the value and the
// method.
func cardAt(s *polyhedra.Set, params map[string]int64, lim polyhedra.Limits) (string, string, error) {
	sp, err := s.Specialize(params)
	if err != nil {
		return "", "", err
	}
	c, err := sp.CardLimits(lim)
	if err == nil {
		v, err := int64Value(c.Eval(nil))
		if err != nil {
			return "", "", err
		}
		return v, "specialized", nil
	}
	if !tooCostly(err) {
		return "", "", err
	}
	var n int64
	err = s.EnumerateLimits(params, lim, func([]int64) bool {
		n++
		return n <= maxEnumerated
	})
	if err != nil {
		return "", "", err
	}
	if n > maxEnumerated {
		return "", "", fmt.Errorf("more than %d points to enumerate", maxEnumerated)
	}
	return fmt.Sprint(n), "enumerated", nil
}
