package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/polyhedra"
)

var (
	cardParams []string
	cardJSON   bool
)

var cardCmd = &cobra.Command{
	Use:   "card SET",
	Short: "Count the integer points of a parametric set exactly",
	Long: `card counts the integer points of SET, a set in isl notation such as

  [n, m] -> { [i, j] : 0 <= i < n and 0 <= j <= i and j < m }

and prints the count as a piecewise quasi-polynomial in the parameters, in
isl notation: pieces "polynomial : domain" separated by ";", with floor
divisions where the count is periodic. The count is exact: it is computed
symbolically, not by enumeration.

With --param NAME=VALUE for every parameter, card also prints the exact
value of the count. With --json it prints one object with the fields set
(the set as understood), expression (the count) and value (an integer,
present when every parameter is given).

The set notation: parameters [n, m] ->, tuples { [i, j] : ... } (a tuple
name S[i, j] is allowed), pieces separated by ";", and, or, not, exists
(q : ...), chained comparisons 0 <= i < n, = and !=, integer coefficients
(2i, 2*i), floor(e/d), ceil(e/d), e mod d, e % d, min(...), max(...).

Exit status 2 for a syntax error (with line and column), a set that is
unbounded for some parameter values (naming the dimension), a missing or
unknown parameter, or a count that overflows 64-bit arithmetic.`,
	Example: `  uniperf card '[n] -> { [i, j] : 0 <= j <= i < n }'
  uniperf card '[n] -> { [i] : 0 <= i < n and i mod 4 = 1 }' --param n=100
  uniperf card '[n, m] -> { [i, j] : 0 <= i < n and 0 <= j < m }' --param n=3 --param m=5 --json`,
	Args: cobra.ExactArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		params, err := parseParams(cardParams)
		if err != nil {
			return err
		}
		return card(cmd.OutOrStdout(), args[0], params, cardJSON)
	},
}

func init() {
	cardCmd.Flags().StringArrayVar(&cardParams, "param", nil, "parameter value NAME=VALUE (repeatable)")
	cardCmd.Flags().BoolVar(&cardJSON, "json", false, "print one JSON object")
	rootCmd.AddCommand(cardCmd)
}

// cardResult is the JSON output of uniperf card.
type cardResult struct {
	Set        string          `json:"set"`
	Expression string          `json:"expression"`
	Value      json.RawMessage `json:"value,omitempty"`
}

// card counts src and writes the count, and its value when params give
// every parameter (any given parameter makes all of them required).
func card(w io.Writer, src string, params map[string]int64, asJSON bool) error {
	s, err := polyhedra.ParseSet(src)
	if err != nil {
		return fmt.Errorf("SET:%w", err)
	}
	for name := range params {
		if !slices.Contains(s.Params(), name) {
			return fmt.Errorf("--param %s: the set has no parameter %s (its parameters: %s)", name, name, paramList(s.Params()))
		}
	}
	c, err := s.Card()
	if err != nil {
		return fmt.Errorf("counting SET: %w", err)
	}
	res := cardResult{Set: s.String(), Expression: c.String()}
	if len(params) > 0 || len(s.Params()) == 0 {
		for _, p := range s.Params() {
			if _, ok := params[p]; !ok {
				return fmt.Errorf("missing parameter %s: give --param %s=VALUE (the set's parameters: %s)", p, p, paramList(s.Params()))
			}
		}
		v, err := c.Eval(params)
		if err != nil {
			return fmt.Errorf("evaluating the count: %w", err)
		}
		res.Value = json.RawMessage(v.String())
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(res)
	}
	fmt.Fprintln(w, res.Expression)
	if res.Value != nil {
		label := "value"
		if len(s.Params()) > 0 {
			var at []string
			for _, p := range s.Params() {
				at = append(at, fmt.Sprintf("%s=%d", p, params[p]))
			}
			label += " at " + strings.Join(at, " ")
		}
		fmt.Fprintf(w, "%s: %s\n", label, res.Value)
	}
	return nil
}

func paramList(ps []string) string {
	if len(ps) == 0 {
		return "none"
	}
	return strings.Join(ps, ", ")
}
