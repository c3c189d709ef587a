package models

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/report"
)

// errorCell is one model's geometric-mean relative error over a group of
// outcomes, with how many of them it predicted.
type errorCell struct {
	Rows, Predicted int
	GeoMean         float64 // NaN when the model predicted none
}

// errorTable returns, for each group of outcomes (by the group function:
// the kernel class, the device, or "" for all) and each model, the
// geometric-mean relative error over the rows the model predicted. Groups
// are sorted.
func errorTable(outs []report.Case, models []string, group func(report.Case) string) (groups []string, cells map[string][]errorCell) {
	errs := map[string]map[string][]float64{}
	rows := map[string]map[string]int{}
	for _, o := range outs {
		g := group(o)
		if errs[g] == nil {
			errs[g], rows[g] = map[string][]float64{}, map[string]int{}
		}
		rows[g][o.Model]++
		if o.Err == "" {
			errs[g][o.Model] = append(errs[g][o.Model], o.RelErr())
		}
	}
	cells = map[string][]errorCell{}
	for g := range errs {
		for _, m := range models {
			e := errs[g][m]
			cells[g] = append(cells[g], errorCell{Rows: rows[g][m], Predicted: len(e), GeoMean: fit.GeoMean(e)})
		}
	}
	return slices.Sorted(maps.Keys(cells)), cells
}

// commonRows keeps the outcomes of rows that every model compared on the
// row's device predicted.
func commonRows(outs []report.Case) []report.Case {
	type rowKey struct{ device, kernel, size string }
	failed := map[rowKey]bool{}
	for _, o := range outs {
		if o.Err != "" {
			failed[rowKey{o.Device, o.Kernel, o.Size}] = true
		}
	}
	var keep []report.Case
	for _, o := range outs {
		if !failed[rowKey{o.Device, o.Kernel, o.Size}] {
			keep = append(keep, o)
		}
	}
	return keep
}

// WriteMarkdown writes the comparison as Markdown: the calibrated models,
// the errors on the test rows (all, per kernel class, per device), the
// leave-one-class-out errors, the rows a model could not predict, and the
// cycle-weighted model's sensitivity to its calibration size.
func (c *Comparison) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Model comparison\n\nEvery model is calibrated on the same %d measurement rows and predicts the same %d test rows. Errors are geometric means of |predicted − measured| / measured (errors below %g count as %g); a cell says how many of the group's rows the model could predict when it could not predict them all.\n\n",
		c.MeasurementRows, c.TestRows, fit.ErrorFloor, fit.ErrorFloor)
	c.writeCalibrated(&b)
	writeList(&b, "Not compared", c.NotCompared)
	if len(c.Test) > 0 {
		b.WriteString("## Test rows\n\n")
		c.writeErrors(&b, c.Test)
	}
	if len(c.CV) > 0 || len(c.CVSkipped) > 0 {
		b.WriteString("## Leave one kernel class out (measurement rows)\n\nEach class of the measurement rows is predicted by models calibrated on the other classes.\n\n")
		c.writeErrors(&b, c.CV)
		writeList(&b, "Not cross-validated", c.CVSkipped)
	}
	c.writeSensitivity(&b)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeErrors writes the error tables of a set of outcomes.
func (c *Comparison) writeErrors(b *strings.Builder, outs []report.Case) {
	all := func(report.Case) string { return "all rows" }
	_, cells := errorTable(outs, c.Models, all)
	_, common := errorTable(commonRows(outs), c.Models, all)
	b.WriteString("| model | rows predicted | geomean error | on the rows every model predicted |\n|---|---:|---:|---:|\n")
	for i, m := range c.Models {
		e := cells["all rows"][i]
		com := math.NaN()
		if cc, ok := common["all rows"]; ok {
			com = cc[i].GeoMean
		}
		fmt.Fprintf(b, "| %s | %d/%d | %s | %s |\n", m, e.Predicted, e.Rows, ErrorText(e.GeoMean), ErrorText(com))
	}
	b.WriteString("\n")
	for _, by := range []struct {
		title string
		group func(report.Case) string
	}{
		{"kernel class", func(o report.Case) string { return o.Class }},
		{"device", func(o report.Case) string { return o.Device }},
	} {
		groups, cells := errorTable(outs, c.Models, by.group)
		fmt.Fprintf(b, "| %s | rows | %s |\n|---|---:|%s\n", by.title, strings.Join(c.Models, " | "), strings.Repeat("---:|", len(c.Models)))
		for _, g := range groups {
			row := cells[g]
			rows := 0
			for _, e := range row {
				rows = max(rows, e.Rows)
			}
			fmt.Fprintf(b, "| %s | %d |", mdCell(g), rows)
			for _, e := range row {
				fmt.Fprintf(b, " %s |", cellText(e))
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	writeList(b, "Not predicted", failures(outs))
}

// failures lists why rows were not predicted, one line per model and
// kernel with the reason of its first row (the others differ at most in
// the counts they quote).
func failures(outs []report.Case) []string {
	type key struct{ model, kernel string }
	n := map[key]int{}
	first := map[key]string{}
	var order []key
	for _, o := range outs {
		if o.Err == "" {
			continue
		}
		k := key{o.Model, o.Kernel}
		if n[k] == 0 {
			order = append(order, k)
			first[k] = o.Err
		}
		n[k]++
	}
	lines := make([]string, len(order))
	for i, k := range order {
		lines[i] = fmt.Sprintf("%s, %s (%d rows): %s", k.model, k.kernel, n[k], first[k])
	}
	return lines
}

func writeList(b *strings.Builder, title string, lines []string) {
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(b, "%s:\n\n", title)
	for _, l := range lines {
		fmt.Fprintf(b, "- %s\n", mdCell(l))
	}
	b.WriteString("\n")
}

// writeCalibrated says what each model's calibration found.
func (c *Comparison) writeCalibrated(b *strings.Builder) {
	b.WriteString("## Calibration\n\n")
	for _, cal := range c.Calibrated {
		fmt.Fprintf(b, "- %s on %s: %s\n", cal.Model.Name(), mdCell(cal.Device), mdCell(cal.Model.Summary()))
	}
	b.WriteString("\n")
}

// writeSensitivity writes the cycle-weighted model's error against its
// calibration size.
func (c *Comparison) writeSensitivity(b *strings.Builder) {
	if len(c.Sensitivity) == 0 {
		return
	}
	b.WriteString("## Cycle-weighted model: error against the calibration size\n\n")
	b.WriteString("Each kernel (with its consts) is calibrated on one of its measured sizes, as seed 004 does, and predicts its other sizes; the columns move the calibration size from the smallest to the largest measured time.\n\n")
	b.WriteString("| device | kernel | sizes | on the smallest | on the largest | best | worst |\n|---|---|---:|---:|---:|---:|---:|\n")
	var small, large, best, worst []float64
	for _, s := range c.Sensitivity {
		lo, hi := slices.Min(s.Errors), slices.Max(s.Errors)
		first, last := s.Errors[0], s.Errors[len(s.Errors)-1]
		fmt.Fprintf(b, "| %s | %s | %d | %s | %s | %s | %s |\n", mdCell(s.Device), mdCell(s.Key), len(s.Sizes), ErrorText(first), ErrorText(last), ErrorText(lo), ErrorText(hi))
		small, large, best, worst = append(small, first), append(large, last), append(best, lo), append(worst, hi)
	}
	fmt.Fprintf(b, "| geometric mean | | | %s | %s | %s | %s |\n\n", ErrorText(fit.GeoMean(small)), ErrorText(fit.GeoMean(large)), ErrorText(fit.GeoMean(best)), ErrorText(fit.GeoMean(worst)))
	writeList(b, "Not calibrated", c.SensitivitySkipped)
}

func cellText(e errorCell) string {
	if e.Predicted == e.Rows {
		return ErrorText(e.GeoMean)
	}
	return fmt.Sprintf("%s (%d/%d)", ErrorText(e.GeoMean), e.Predicted, e.Rows)
}

func mdCell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
}
