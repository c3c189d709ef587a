package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/uniperf/uniperf/counts"
)

// hierarchyRow is one memory-hierarchy count in the output of uniperf
// count --hierarchy.
type hierarchyRow struct {
	Name        string `json:"name"`
	Array       string `json:"array"`
	Expression  string `json:"expression"`
	Value       *int64 `json:"value,omitempty"`
	Approximate bool   `json:"approximate,omitempty"`
	AtSizes     bool   `json:"at_sizes,omitempty"`
}

// hierarchyLabels says in words what each memory-hierarchy count counts.
var hierarchyLabels = []struct{ name, label string }{
	{counts.FootprintLaunch, "distinct bytes the launch loads or stores (compulsory DRAM traffic while they fit in L2)"},
	{counts.FootprintGroup, "distinct bytes each work-group loads or stores, summed over the work-groups (traffic into L1)"},
	{counts.ReuseWorkItem, "loads at cells no store touches that repeat a cell their work-item loaded (registers or L1)"},
	{counts.ReuseWorkItemStored, "loads at cells some store touches that repeat a cell their work-item loaded"},
}

// writeHierarchy writes the memory-hierarchy counts of c, at params when
// at is set.
func writeHierarchy(w io.Writer, c *counts.Counted, params map[string]int64, at, asJSON bool) error {
	var (
		hs   []counts.HierarchyCount
		vals []int64
		err  error
	)
	if at {
		hs, vals, err = c.HierarchyAt(params)
	} else {
		hs, err = c.Hierarchy()
	}
	if err != nil {
		return err
	}
	rows := make([]hierarchyRow, len(hs))
	for i, h := range hs {
		rows[i] = hierarchyRow{Name: h.Name, Array: h.Array, Expression: h.Expression, Approximate: h.Approximate, AtSizes: h.AtSizes}
		if rows[i].Array == "" {
			rows[i].Array = "(all)"
		}
		if at {
			v := vals[i]
			rows[i].Value = &v
		}
	}
	k := c.Kernel()
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(struct {
			Kernel    string         `json:"kernel"`
			Hierarchy []hierarchyRow `json:"hierarchy"`
		}{k.Name, rows})
	}
	header := "kernel " + k.Name
	if at && len(k.Params) > 0 {
		var vs []string
		for _, p := range k.Params {
			vs = append(vs, fmt.Sprintf("%s=%d", p, params[p]))
		}
		header += " at " + strings.Join(vs, " ")
	} else if len(k.Params) > 0 {
		header += ", parameters " + strings.Join(k.Params, ", ")
	}
	fmt.Fprintln(w, header+": memory hierarchy")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	indirect := c.IndirectArrays()
	for _, r := range rows {
		note := ""
		if r.Approximate {
			note = approximateNote(r, indirect)
		}
		if r.AtSizes {
			r.Expression = "(no symbolic form: counted at these sizes)"
		}
		if r.Value != nil {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s%s\n", r.Name, r.Array, *r.Value, r.Expression, note)
		} else {
			fmt.Fprintf(tw, "%s\t%s\t%s%s\n", r.Name, r.Array, r.Expression, note)
		}
	}
	if len(rows) > 0 {
		fmt.Fprintln(tw, "\nwhere")
		for _, l := range hierarchyLabels {
			fmt.Fprintf(tw, "  %s\t%s\n", l.name, l.label)
		}
	}
	return tw.Flush()
}

// approximateNote says why an approximate count is one, which decides
// which way it errs: the cells of an array with indirect accesses are
// bounded, its footprints from above and its repeats from below, and a
// reference under a data-dependent condition is counted as if it ran.
func approximateNote(r hierarchyRow, indirect []string) string {
	switch {
	case r.Array == "(all)":
		return "; approximate: it sums approximate counts of the arrays"
	case !slices.Contains(indirect, r.Array):
		return "; approximate: counted as if its data-dependent conditions held"
	case r.Name == counts.FootprintLaunch || r.Name == counts.FootprintGroup:
		return "; approximate: an upper bound, its indirect accesses' cells chosen by data (at most their executions plus its affine cells, at most its extent)"
	}
	return "; approximate: a lower bound, the repeats of its affine loads (its indirect accesses' cells chosen by data)"
}
