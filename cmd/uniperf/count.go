package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/library"
)

var (
	countParams []string
	countConsts []string
	countJSON   bool
)

var countCmd = &cobra.Command{
	Use:   "count KERNEL",
	Short: "Count a kernel's properties symbolically",
	Long: `count counts the performance properties of a kernel (seed 001 §2: global
loads and stores by type and stride class, their minimum, local loads and
stores, flops by type and kind, integer operations, barriers, work-groups and
the constant 1) as piecewise quasi-polynomials in its size parameters, in isl
notation, and lists every property that is not zero. The counts are exact:
they are computed symbolically, not by running the kernel.

KERNEL is a .knl file or the name of a library kernel (see uniperf kernels
list). --const NAME=VALUE overrides a constant of the kernel (work-group sizes
LX and LY, say).

Strided global accesses fall in a class k/s that depends on how much of the
array's footprint they use; without parameter values the class numerator is
shown as k, with the counts of the footprint's cells and of its bounding box
from which it follows. With --param NAME=VALUE for every parameter, count
resolves the classes and prints each property's exact value next to its
expression.

With --json it prints one object with the fields kernel and properties, a
list of objects with the fields name, expression, value (an integer,
present when every parameter is given) and upper_bound (true for a count
that is an upper bound).

A count is exact, except where part of what it counts runs under a
condition that reads data (if a[i] > 0: ..., a branch of if() whose
condition reads an array): that part counts as if the condition always
held, and the property is marked an upper bound.

Exit status 2 for a missing file or unknown kernel, a syntax error in the
kernel (with file, line and column), a missing or unknown parameter or
constant, parameters that violate the kernel's assumptions, or a count that
overflows 64-bit arithmetic.`,
	Example: `  uniperf count matmul_tiled
  uniperf count matmul_tiled --param n=1024 --param m=1024 --param ell=512
  uniperf count vector_scale_add --const STRIDE=2 --param n=100000 --json
  uniperf count ./mykernel.knl --const LX=32`,
	Args: cobra.ExactArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		params, err := parseParams(countParams)
		if err != nil {
			return err
		}
		consts, err := parseConsts(countConsts)
		if err != nil {
			return err
		}
		return count(cmd.OutOrStdout(), args[0], consts, params, countJSON)
	},
}

func init() {
	countCmd.Flags().StringArrayVar(&countParams, "param", nil, "parameter value NAME=VALUE (repeatable)")
	countCmd.Flags().StringArrayVar(&countConsts, "const", nil, "constant override NAME=VALUE (repeatable)")
	countCmd.Flags().BoolVar(&countJSON, "json", false, "print one JSON object")
	rootCmd.AddCommand(countCmd)
}

// countResult is the JSON output of uniperf count.
type countResult struct {
	Kernel     string          `json:"kernel"`
	Properties []countProperty `json:"properties"`
}

type countProperty struct {
	Name       string `json:"name"`
	Expression string `json:"expression"`
	Value      *int64 `json:"value,omitempty"`
	UpperBound bool   `json:"upper_bound,omitempty"`
}

// loadKernel reads KERNEL: a file if one exists at that path, else a
// library kernel of that name.
func loadKernel(arg string, consts map[string]int64) (*counts.Kernel, error) {
	src, err := os.ReadFile(arg)
	file := arg
	if errors.Is(err, fs.ErrNotExist) {
		var lerr error
		if src, lerr = library.Source(arg); lerr != nil {
			return nil, fmt.Errorf("KERNEL %s: no such file, and no library kernel of that name (see uniperf kernels list)", arg)
		}
		file = library.FileName(arg)
	} else if err != nil {
		return nil, fmt.Errorf("KERNEL: %w", err)
	}
	return counts.ParseKernel(file, src, consts)
}

// count counts the kernel and writes its properties, with their values
// when params give every parameter (any given parameter makes all of
// them required).
func count(w io.Writer, arg string, consts, params map[string]int64, asJSON bool) error {
	k, err := loadKernel(arg, consts)
	if err != nil {
		return err
	}
	for name := range params {
		if !slices.Contains(k.Params, name) {
			return fmt.Errorf("--param %s: kernel %s has no parameter %s (its parameters: %s)", name, k.Name, name, paramList(k.Params))
		}
	}
	c, err := counts.Count(k)
	if err != nil {
		return err
	}
	res := countResult{Kernel: k.Name}
	if len(params) == 0 && len(k.Params) > 0 {
		props, err := c.Properties()
		if err != nil {
			return err
		}
		for _, p := range props {
			res.Properties = append(res.Properties, countProperty{Name: p.Name, Expression: p.Detail(), UpperBound: p.UpperBound})
		}
	} else {
		for _, p := range k.Params {
			if _, ok := params[p]; !ok {
				return fmt.Errorf("missing parameter %s: give --param %s=VALUE (the kernel's parameters: %s)", p, p, paramList(k.Params))
			}
		}
		props, values, err := c.PropertiesAt(params)
		if err != nil {
			return err
		}
		for _, p := range props {
			v := values[p.Name]
			res.Properties = append(res.Properties, countProperty{Name: p.Name, Expression: p.Detail(), Value: &v, UpperBound: p.UpperBound})
		}
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(res)
	}
	return writeCounts(w, k, params, res)
}

// writeCounts prints a header line and one line per property: name,
// value (when known) and expression.
func writeCounts(w io.Writer, k *counts.Kernel, params map[string]int64, res countResult) error {
	header := "kernel " + k.Name
	if len(k.Params) > 0 {
		var at []string
		for _, p := range k.Params {
			if v, ok := params[p]; ok {
				at = append(at, fmt.Sprintf("%s=%d", p, v))
			}
		}
		if len(at) > 0 {
			header += " at " + strings.Join(at, " ")
		} else {
			header += ", parameters " + strings.Join(k.Params, ", ")
		}
	}
	fmt.Fprintln(w, header)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, p := range res.Properties {
		if p.Value != nil {
			fmt.Fprintf(tw, "%s\t%d\t%s\n", p.Name, *p.Value, p.Expression)
		} else {
			fmt.Fprintf(tw, "%s\t%s\n", p.Name, p.Expression)
		}
	}
	return tw.Flush()
}
