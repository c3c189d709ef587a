package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/datasets/inputfile"
	"github.com/uniperf/uniperf/measurekernels/library"
	"github.com/uniperf/uniperf/polyhedra"
)

var (
	countParams     []string
	countConsts     []string
	countJSON       bool
	countBy         string
	countSubscripts bool
	countFootprint  bool
	countHierarchy  bool
	countBanks      int
	countBankBytes  int
	countMaxPieces  int64
	countMaxPoints  int64
	countMaxMemory  int64
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
from which it follows. With --param NAME=VALUE for every parameter
(--param n=m=1024 binds both), count resolves the classes and prints each
property's exact value next to its expression.

--count-subscripts counts the arithmetic of array subscripts too, as integer
operations (loopy's count_within_subscripts): an int.i32.add per + or - and an
int.i32.mul per coefficient other than 1 or -1 of each subscript as written
after splitting, once per access. By default subscripts are address
arithmetic and cost nothing.

Local accesses whose warps ask one bank for several words count a second
time as local.<t>.conflict=D, by their conflict degree (go doc
github.com/uniperf/uniperf/counts says how it is decided); --banks and
--bank-bytes give the device's banks (default 32 of 4 bytes, NVIDIA's and
AMD's since Fermi and GCN; 16 of 4 on compute capability 1.x). uniperf fit
counts with the layout of the tables' device where its device file gives
one (fit/gpus), and records it in the weights; predict and validate count
with the weights' layout.

--by instruction lists under each property its parts: what each instruction
(or, for sync.barrier, each barrier) contributes, named by its id and
file:line. --by array splits memory traffic and subscript arithmetic by the
array accessed, and the operations of an instruction's value by the array or
temporary it assigns to. The parts of a property sum to it; the launch
properties (and, by array, the barriers) belong to the kernel as a whole,
shown as (kernel), and the minima global.minldst.* have no parts. --by
property, the default, lists the properties alone.

--footprint prints, instead of the properties, the footprint of every global
array in each direction: the number of distinct elements its loads, or its
stores, touch over the whole launch, and the bytes they hold (elements times
the element size). An element that several work-items, iterations or
references touch counts once, so the count is exact even where a subscript
maps several points to one element. A footprint with no symbolic form
(flattened subscripts that do not split into rows, as wall[row*cols + c],
whose pitch is no chain of parameters; a pitch that is an affine factor
of the extent, w + 16 of in[(y + j)*(w + 16) + x] in an array
[(h + 16)*(w + 16)], splits) is counted exactly at the
sizes --param gives, and said so; without them, count asks for them.

--hierarchy prints, instead of the properties, the memory-hierarchy counts
of every global array and their sums over the arrays (docs/counting.md):
global.footprint.launch.bytes, the distinct bytes the launch loads or
stores; global.footprint.group.bytes, the distinct bytes each work-group
loads or stores, summed over the work-groups; global.load.reuse.workitem,
the loads at cells no store touches that repeat a cell the same work-item
loaded before; and global.load.reuse.workitem.stored, the same at cells
some store touches. They are exact; they are not properties of the fitted
model. Where inames share a hardware axis they must start at the same
value; a count with no symbolic form is counted at the sizes --param
gives, as --footprint counts it.

A count is exact, except where part of what it counts runs under a
condition that reads data (if a[i] > 0: ..., a branch of if() whose
condition reads an array): that part counts as if the condition always
held, and the property is marked an upper bound.

With --json it prints one object with the fields kernel, by (with --by
instruction or array) and properties, a list of objects with the fields
name, expression, value (an integer, present when every parameter is given),
upper_bound (true for a count that is an upper bound) and parts (with --by:
objects with the fields source, position, expression and value); with
--footprint, the field footprints instead of properties, a list of objects
with the fields array, direction, type, elements and bytes, each of these
two an object with the fields expression and value, and upper_bound (true
where a reference executes under a condition that reads data, counted as if
it always did); with --hierarchy, the fields kernel and hierarchy, a list
of objects with the fields name, array ((all) for the sum), expression,
value (with every parameter) and approximate (true where a reference runs
under a condition that reads data, counted as if it always did).

A count is bounded in work and memory as card's is: --max-pieces bounds the
basic sets the symbolic count of each of the kernel's sets may create and
--max-memory the memory it may take. Past either budget, or past the
counter's own work limits, the symbolic count stops. Without --param, or
with --by or --footprint, that is an error (exit status 2) naming the
budget and the set. With every parameter given, count instead evaluates
each property at those values by enumerating the points of the kernel's
sets, which is exact but takes time that grows with the sizes: at most
--max-points candidate points in all (10 million by default, seconds),
past which it stops with exit status 2 naming the budget; it then
prints the values without expressions, says so on standard error, and
--json adds the fields method ("enumerated") and note.

Exit status 2 for a missing file or unknown kernel, a syntax error in the
kernel (with file, line and column), a missing or unknown parameter or
constant, an unknown --by, parameters that violate the kernel's assumptions,
a count that overflows 64-bit arithmetic, or a count past its budget (see
above).`,
	Example: `  uniperf count matmul_tiled
  uniperf count matmul_tiled --param n=1024 --param m=1024 --param ell=512
  uniperf count matmul_tiled --by instruction --count-subscripts --param n=100 --param m=100 --param ell=100
  uniperf count finite_diff --by array
  uniperf count matmul_tiled --footprint --param n=1024 --param m=1024 --param ell=512
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
		lim, err := budgetLimits(countMaxPieces, countMaxMemory, countMaxPoints)
		if err != nil {
			return err
		}
		return count(cmd.OutOrStdout(), args[0], countOptions{consts: consts, params: params, by: countBy,
			subscripts: countSubscripts, footprint: countFootprint, hierarchy: countHierarchy, json: countJSON, banks: countBanks, bankBytes: countBankBytes,
			limits: lim, errw: cmd.ErrOrStderr()})
	},
}

func init() {
	countCmd.Flags().StringArrayVar(&countParams, "param", nil, "parameter value NAME=VALUE, or NAME1=NAME2=VALUE for several (repeatable)")
	countCmd.Flags().StringArrayVar(&countConsts, "const", nil, "constant override NAME=VALUE (repeatable)")
	countCmd.Flags().BoolVar(&countJSON, "json", false, "print one JSON object")
	countCmd.Flags().StringVar(&countBy, "by", "property", "split each property by instruction or array (property: no split)")
	countCmd.Flags().BoolVar(&countSubscripts, "count-subscripts", false, "count the arithmetic of array subscripts as integer operations")
	countCmd.Flags().BoolVar(&countFootprint, "footprint", false, "print the distinct elements and bytes each global array's loads and stores touch")
	countCmd.Flags().BoolVar(&countHierarchy, "hierarchy", false, "print the distinct bytes the launch and each work-group touch, and the loads a work-item repeats, per global array")
	countCmd.Flags().IntVar(&countBanks, "banks", counts.DefaultBanks, "local-memory banks (and lanes per warp) that local.<t>.conflict=D is counted for, 1 to 64")
	countCmd.Flags().IntVar(&countBankBytes, "bank-bytes", counts.DefaultBankBytes, "bytes per local-memory bank, 1 to 16")
	countCmd.Flags().Int64Var(&countMaxPieces, "max-pieces", polyhedra.DefaultMaxPieces,
		"most basic sets (chambers, residue classes, pieces) the count of one set may create")
	countCmd.Flags().Int64Var(&countMaxPoints, "max-points", polyhedra.DefaultMaxPoints,
		"most candidate points the enumeration at given parameters may test, all the kernel's sets together")
	countCmd.Flags().Int64Var(&countMaxMemory, "max-memory", polyhedra.DefaultMaxHeap>>20,
		"most memory, in MiB, a count may take")
	rootCmd.AddCommand(countCmd)
}

// countOptions are the flags of uniperf count.
type countOptions struct {
	consts, params              map[string]int64
	by                          string
	subscripts, footprint, json bool
	hierarchy                   bool
	banks, bankBytes            int // local-memory banks, counts.Options
	limits                      polyhedra.Limits
	errw                        io.Writer // for the note of a count that falls back
}

// countResult is the JSON output of uniperf count.
type countResult struct {
	Kernel     string          `json:"kernel"`
	By         string          `json:"by,omitempty"`
	Properties []countProperty `json:"properties,omitempty"`
	Footprints []footprintRow  `json:"footprints,omitempty"`
	// Method and Note are set when the symbolic count stopped at its
	// budget and the values were enumerated instead.
	Method string `json:"method,omitempty"`
	Note   string `json:"note,omitempty"`
}

type countProperty struct {
	Name string `json:"name"`
	// Label says in words what the property counts (counts.Describe).
	Label      string      `json:"label"`
	Expression string      `json:"expression"`
	Value      *int64      `json:"value,omitempty"`
	UpperBound bool        `json:"upper_bound,omitempty"`
	Parts      []countPart `json:"parts,omitempty"`
}

// countPart is the share of a property that one source contributes.
type countPart struct {
	Source     string `json:"source"`
	Position   string `json:"position,omitempty"`
	Expression string `json:"expression"`
	Value      *int64 `json:"value,omitempty"`
}

type footprintRow struct {
	Array      string     `json:"array"`
	Direction  string     `json:"direction"`
	Type       string     `json:"type"`
	Elements   countValue `json:"elements"`
	Bytes      countValue `json:"bytes"`
	UpperBound bool       `json:"upper_bound,omitempty"`
	AtSizes    bool       `json:"at_sizes,omitempty"`
}

type countValue struct {
	Expression string `json:"expression"`
	Value      *int64 `json:"value,omitempty"`
}

// loadKernel reads KERNEL: a file if one exists at that path, else a
// library kernel of that name, and parses it with consts (--const)
// overriding its constants.
func loadKernel(arg string, consts map[string]int64) (*counts.Kernel, error) {
	src, err := inputfile.ReadText(arg)
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
	text, err := counts.LexKernel(file, src)
	if err != nil {
		return nil, err
	}
	// A const the kernel does not declare is refused here, with those
	// near it, against the kernel at its default consts. Where those do
	// not parse (a placeholder const that every call overrides, const
	// LX = 0), the parse with the given consts says what is wrong.
	if len(consts) > 0 {
		if k, err := text.Parse(nil); err == nil {
			declared := constNames(k)
			if name, ok := firstUnknown(consts, declared); ok {
				return nil, unknownName("--const "+name, "kernel "+k.Name, name, "const", "consts", declared)
			}
		}
	}
	return text.Parse(consts)
}

// attributions maps the values of --by to what they split by (0: no
// split).
var attributions = map[string]counts.Attribution{"property": 0, "instruction": counts.ByInstruction, "array": counts.ByArray}

// count counts the kernel and writes its properties, or its footprints,
// with their values when params give every parameter (any given
// parameter makes all of them required).
func count(w io.Writer, arg string, o countOptions) error {
	by, ok := attributions[o.by]
	if !ok {
		return fmt.Errorf("--by %q: want property, instruction or array", o.by)
	}
	if o.footprint && by != 0 {
		return fmt.Errorf("--footprint lists arrays, not properties: it takes no --by %s", o.by)
	}
	if o.hierarchy && (by != 0 || o.footprint) {
		return fmt.Errorf("--hierarchy lists arrays, not properties: it takes neither --by %s nor --footprint", o.by)
	}
	k, err := loadKernel(arg, o.consts)
	if err != nil {
		return err
	}
	if name, ok := firstUnknown(o.params, k.Params); ok {
		return unknownName("--param "+name, "kernel "+k.Name, name, "parameter", "parameters", k.Params)
	}
	at := len(o.params) > 0 || len(k.Params) == 0
	if at {
		if p, ok := firstMissing(k.Params, o.params); ok {
			return fmt.Errorf("missing parameter %s: give --param %s=VALUE (the kernel's parameters: %s)", p, p, paramList(k.Params))
		}
	}
	opts := counts.Options{CountSubscripts: o.subscripts, Banks: o.banks, BankBytes: o.bankBytes, Limits: o.limits}
	c, err := counts.CountWith(k, opts)
	switch {
	case err != nil && tooCostly(err) && at && by == 0 && !o.footprint && !o.hierarchy:
		return countEnumerated(w, k, opts, o, err)
	case err != nil && tooCostly(err) && at:
		return fmt.Errorf("%w; raise --max-pieces or --max-memory, or leave out --by and --footprint to count at the given parameters", err)
	case err != nil && tooCostly(err):
		return fmt.Errorf("%w; raise --max-pieces or --max-memory, or give every parameter with --param to count at those values", err)
	case err != nil:
		return err
	}
	if at {
		if err := c.CheckBounds(o.params); err != nil {
			return err
		}
	}
	if o.hierarchy {
		return writeHierarchy(w, c, o.params, at, o.json)
	}
	res := countResult{Kernel: k.Name}
	if by != 0 {
		res.By = o.by
	}
	if o.footprint {
		res.Footprints, err = footprintsOf(c, o.params, at)
	} else {
		res.Properties, err = propertiesOf(c, by, o.params, at)
	}
	if err != nil {
		return err
	}
	if o.json {
		var v any = res
		if o.footprint { // the list even when the kernel has no global array
			v = struct {
				Kernel     string         `json:"kernel"`
				Footprints []footprintRow `json:"footprints"`
			}{res.Kernel, res.Footprints}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(v)
	}
	return writeCounts(w, k, o.params, res)
}

// countEnumerated prints the properties of k at o.params, enumerated
// because the symbolic count stopped with costly.
func countEnumerated(w io.Writer, k *counts.Kernel, opts counts.Options, o countOptions, costly error) error {
	budget := o.limits.MaxPoints
	if budget <= 0 {
		budget = polyhedra.DefaultMaxPoints
	}
	values, upper, err := counts.CountAt(k, opts, o.params, budget)
	if errors.Is(err, counts.ErrTooLarge) {
		return fmt.Errorf("%w; at the given parameters: %w: more than the enumeration budget of %d candidate points; raise --max-points",
			costly, err, budget)
	}
	if err != nil {
		return fmt.Errorf("%w; at the given parameters: %w", costly, err)
	}
	res := countResult{Kernel: k.Name, Method: "enumerated"}
	res.Note = fmt.Sprintf("the symbolic count stopped (%v); the values are those at the given parameters, counted by enumerating the points of the kernel's sets", costly)
	for _, name := range slices.Sorted(maps.Keys(values)) {
		res.Properties = append(res.Properties, countProperty{Name: name, Label: counts.Describe(name),
			Value: ptr(values[name]), UpperBound: upper[name]})
	}
	fmt.Fprintf(o.errw, "uniperf count: %s\n", res.Note)
	if o.json {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(res)
	}
	for i, p := range res.Properties {
		if p.UpperBound { // in place of the expression, which would say so
			res.Properties[i].Expression = "upper bound: counted as if its data-dependent conditions held"
		}
	}
	return writeCounts(w, k, o.params, res)
}

// propertiesOf lists the properties, split by (when not 0), at params
// when at is set.
func propertiesOf(c *counts.Counted, by counts.Attribution, params map[string]int64, at bool) ([]countProperty, error) {
	var (
		props  []counts.Property
		values map[string]int64
		parts  []counts.Part
		pvals  []int64
		err    error
	)
	if at {
		if props, values, err = c.PropertiesAt(params); err == nil && by != 0 {
			parts, pvals, err = c.BreakdownAt(by, params)
		}
	} else if props, err = c.Properties(); err == nil && by != 0 {
		parts, err = c.Breakdown(by)
	}
	if err != nil {
		return nil, err
	}
	out := make([]countProperty, len(props))
	for i, p := range props {
		out[i] = countProperty{Name: p.Name, Label: counts.Describe(p.Name), Expression: p.Detail(), UpperBound: p.UpperBound}
		if at {
			out[i].Value = ptr(values[p.Name])
		}
		for j, part := range parts {
			if part.Property != p.Name || utilArray(part.Utilization) != utilArray(p.Utilization) {
				continue
			}
			cp := countPart{Source: part.Source, Expression: part.Expression}
			if cp.Source == "" {
				cp.Source = "(kernel)"
			}
			if part.Pos.Line > 0 {
				cp.Position = fmt.Sprintf("%s:%d", c.Kernel().File, part.Pos.Line)
			}
			if at {
				cp.Value = ptr(pvals[j])
			}
			out[i].Parts = append(out[i].Parts, cp)
		}
	}
	return out, nil
}

// utilArray names the array whose footprint decides a class ("" for a
// fixed class): Properties lists a class of each array on its own.
func utilArray(u *counts.Utilization) string {
	if u == nil {
		return ""
	}
	return u.Array
}

// footprintsOf lists the footprints, at params when at is set.
func footprintsOf(c *counts.Counted, params map[string]int64, at bool) ([]footprintRow, error) {
	var (
		fps   []counts.Footprint
		sizes []counts.FootprintSize
		err   error
	)
	if at {
		fps, sizes, err = c.FootprintsAt(params)
	} else {
		fps, err = c.Footprints()
	}
	if err != nil {
		return nil, err
	}
	out := make([]footprintRow, len(fps))
	for i, f := range fps {
		dir := "load"
		if f.Store {
			dir = "store"
		}
		out[i] = footprintRow{Array: f.Array, Direction: dir, Type: f.DType.String(),
			Elements: countValue{Expression: f.Elements}, Bytes: countValue{Expression: f.Bytes}, UpperBound: f.UpperBound, AtSizes: f.AtSizes}
		if at {
			out[i].Elements.Value, out[i].Bytes.Value = ptr(sizes[i].Elements), ptr(sizes[i].Bytes)
		}
	}
	return out, nil
}

func ptr(v int64) *int64 { return &v }

// writeCounts prints a header line and then one line per property (name,
// value when known, expression) with a line per part below it, or one
// line per footprint.
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
	if res.By != "" {
		header += ", by " + res.By
	}
	if res.Footprints != nil {
		header += ": footprints in distinct elements and bytes"
	}
	fmt.Fprintln(w, header)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	row := func(name string, v *int64, expr string) {
		if v != nil {
			fmt.Fprintf(tw, "%s\t%d\t%s\n", name, *v, expr)
		} else {
			fmt.Fprintf(tw, "%s\t%s\n", name, expr)
		}
	}
	for _, p := range res.Properties {
		row(p.Name, p.Value, p.Expression)
		for _, part := range p.Parts {
			src := "  " + part.Source
			if part.Position != "" {
				src += " (" + part.Position + ")"
			}
			row(src, part.Value, part.Expression)
		}
	}
	for _, f := range res.Footprints {
		name := f.Array + "\t" + f.Direction + "\t" + f.Type
		note := ""
		if f.UpperBound {
			note = "; upper bound: counted as if its data-dependent conditions held"
		}
		expr := f.Elements.Expression
		if f.AtSizes {
			expr = "(no symbolic form: counted at these sizes)"
		}
		if f.Elements.Value != nil {
			fmt.Fprintf(tw, "%s\t%d elements\t%d bytes\t%s%s\n", name, *f.Elements.Value, *f.Bytes.Value, expr, note)
		} else {
			fmt.Fprintf(tw, "%s\telements %s\tbytes %s%s\n", name, f.Elements.Expression, f.Bytes.Expression, note)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	names := make([]string, len(res.Properties))
	for i, p := range res.Properties {
		names[i] = p.Name
	}
	return writeLegend(w, names)
}

// writeLegend says in words what each property counts (counts.Describe).
func writeLegend(w io.Writer, properties []string) error {
	if len(properties) == 0 {
		return nil
	}
	fmt.Fprintln(w, "\nwhere")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, p := range properties {
		fmt.Fprintf(tw, "  %s\t%s\n", p, counts.Describe(p))
	}
	return tw.Flush()
}
