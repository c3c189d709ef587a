package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/weightsio"
)

// WeightComparisonSchema is the uniperf.schema metadata value of the Arrow
// form of a WeightComparison.
const WeightComparisonSchema = "weights-comparison/1"

// WeightComparison puts the weight tables of several devices side by side,
// in the manner of seed 001's Table 2 for many devices, with the rates the
// weights imply. (Package models' Comparison compares models, not
// devices.)
type WeightComparison struct {
	Labels     []string       // one column label per table
	Tables     []*fit.Weights // the tables, in column order
	Properties []string       // every property of any table: memory, arithmetic, synchronisation, launch

	// weights indexes each table's weights by property, ties resolved,
	// so that a comparison of n properties is linear in n (looking each
	// up in the table's list took 65 s for 200,000).
	weights []map[string]float64
}

// CompareWeights builds a comparison. Labels default to the device names;
// a label that repeats gets a suffix " (2)", " (3)", ... . Tables may hold
// different properties (a device's suite may exercise a class another's
// did not, as PoCL's integer operations): a property a table has no
// weight for is an empty cell. A property a table ties to another
// (fit.Weights.Ties) has that one's weight. Weights of different models are not
// comparable and give an error.
func CompareWeights(tables []*fit.Weights, labels []string) (*WeightComparison, error) {
	if len(tables) == 0 {
		return nil, fmt.Errorf("compare: no weight tables")
	}
	if labels != nil && len(labels) != len(tables) {
		return nil, fmt.Errorf("compare: %d labels for %d tables", len(labels), len(tables))
	}
	c := &WeightComparison{Tables: tables}
	count := make(map[string]int)
	seen := make(map[string]bool)
	for i, t := range tables {
		if t.Model != tables[0].Model {
			return nil, fmt.Errorf("compare: %s holds weights of model %q, %s of %q: the weights do not measure the same things",
				t.Device, t.Model, tables[0].Device, tables[0].Model)
		}
		l := t.Device
		if labels != nil {
			l = labels[i]
		}
		count[l]++
		if count[l] > 1 {
			l = fmt.Sprintf("%s (%d)", l, count[l])
		}
		c.Labels = append(c.Labels, l)
		// A tied property is listed with its target's weight, so that the
		// table read back from CSV prices it as the fit did.
		for _, p := range append(slices.Clone(t.Properties), slices.Sorted(maps.Keys(t.Ties))...) {
			if !seen[p] {
				seen[p] = true
				c.Properties = append(c.Properties, p)
			}
		}
		c.weights = append(c.weights, weightIndex(t))
	}
	slices.SortStableFunc(c.Properties, func(a, b string) int { return int(classify(a)) - int(classify(b)) })
	return c, nil
}

// weightIndex maps each property of t to its weight, a tied property to
// its target's, as t.Weight does.
func weightIndex(t *fit.Weights) map[string]float64 {
	own := make(map[string]float64, len(t.Properties))
	for i, p := range t.Properties {
		own[p] = t.Values[i]
	}
	m := maps.Clone(own)
	for p, to := range t.Ties {
		delete(m, p)
		if v, ok := own[to]; ok {
			m[p] = v
		}
	}
	return m
}

// cell returns table i's weight of a property and its rate.
func (c *WeightComparison) cell(i int, property string) (w float64, r Rate, ok bool) {
	if c.weights != nil {
		w, ok = c.weights[i][property]
	} else {
		w, ok = c.Tables[i].Weight(property)
	}
	if !ok {
		return 0, Rate{}, false
	}
	return w, DerivedRate(property, w), true
}

// tieNote says which property table i prices p by, where it ties p.
func (c *WeightComparison) tieNote(i int, p string) string {
	if to, ok := c.Tables[i].Ties[p]; ok {
		return "tied to " + to
	}
	return ""
}

// unit returns the rate unit of a property, the same for every device.
func unit(property string) string {
	return DerivedRate(property, 1).Unit
}

// WriteMarkdown writes a Markdown table: one row per property, a weight
// and a rate column per device. A missing weight is an empty cell; a
// weight that implies no rate says why.
func (c *WeightComparison) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("| property | rate unit |")
	for _, l := range c.Labels {
		fmt.Fprintf(&b, " %s weight (s/op) | %s rate |", mdEscape(l), mdEscape(l))
	}
	b.WriteString("\n|---|---|" + strings.Repeat("---:|---:|", len(c.Labels)) + "\n")
	for _, p := range c.Properties {
		fmt.Fprintf(&b, "| %s | %s |", p, unit(p))
		for i := range c.Tables {
			wt, r, ok := c.cell(i, p)
			if !ok {
				b.WriteString("  |  |")
				continue
			}
			fmt.Fprintf(&b, " %.3e | %s |", wt, rateText(r))
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

func rateText(r Rate) string {
	if !r.OK {
		return r.Note
	}
	return strconv.FormatFloat(r.Value, 'f', rateDecimals(r.Value), 64)
}

// rateDecimals shows rates to about four significant digits.
func rateDecimals(v float64) int {
	switch {
	case v >= 1000:
		return 0
	case v >= 100:
		return 1
	case v >= 10:
		return 2
	}
	return 3
}

// WriteCSV writes the comparison as CSV: property, rate unit, and for each
// device its weight in s/op, its rate and a note saying why a rate is
// missing.
func (c *WeightComparison) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := []string{"property", "rate_unit"}
	for _, l := range c.Labels {
		head = append(head, l+" weight_s", l+" rate", l+" note")
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, p := range c.Properties {
		rec := []string{p, unit(p)}
		for i := range c.Tables {
			wt, r, ok := c.cell(i, p)
			switch {
			case !ok:
				rec = append(rec, "", "", "no weight")
			case !r.OK:
				rec = append(rec, strconv.FormatFloat(wt, 'g', -1, 64), "", r.Note)
			default:
				rec = append(rec, strconv.FormatFloat(wt, 'g', -1, 64), strconv.FormatFloat(r.Value, 'g', 6, 64), c.tieNote(i, p))
			}
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

type jsonDevice struct {
	Label       string          `json:"label"`
	Device      string          `json:"device"`
	Model       string          `json:"model"`
	Version     string          `json:"uniperf_version"`
	PropertySet string          `json:"property_set"`
	Diagnostics fit.Diagnostics `json:"diagnostics"`
}

type jsonValue struct {
	Weight float64  `json:"weight_s"`
	Rate   *float64 `json:"rate"`
	Note   string   `json:"note,omitempty"`
}

type jsonProperty struct {
	Property string       `json:"property"`
	Unit     string       `json:"rate_unit"`
	Values   []*jsonValue `json:"values"` // one per device, null where the device has no weight
}

// WriteJSON writes the comparison as one JSON object with a "devices" list
// and a "properties" list whose "values" follow the device order.
func (c *WeightComparison) WriteJSON(w io.Writer) error {
	var out struct {
		Devices    []jsonDevice   `json:"devices"`
		Properties []jsonProperty `json:"properties"`
	}
	for i, t := range c.Tables {
		out.Devices = append(out.Devices, jsonDevice{c.Labels[i], t.Device, t.Model, t.Version, t.PropertySet, t.Diagnostics})
	}
	for _, p := range c.Properties {
		jp := jsonProperty{Property: p, Unit: unit(p)}
		for i := range c.Tables {
			wt, r, ok := c.cell(i, p)
			if !ok {
				jp.Values = append(jp.Values, nil)
				continue
			}
			v := &jsonValue{Weight: wt, Note: r.Note}
			if r.OK {
				v.Rate = &r.Value
			}
			jp.Values = append(jp.Values, v)
		}
		out.Properties = append(out.Properties, jp)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// WriteArrow writes the comparison as an Arrow IPC file in long form, one
// row per (device, property): label, device, model, property, weight_s,
// rate (null where there is none), rate_unit, note.
func (c *WeightComparison) WriteArrow(w io.Writer) error {
	md := arrow.NewMetadata([]string{weightsio.KeySchema}, []string{WeightComparisonSchema})
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "label", Type: arrow.BinaryTypes.String},
		{Name: "device", Type: arrow.BinaryTypes.String},
		{Name: "model", Type: arrow.BinaryTypes.String},
		{Name: "property", Type: arrow.BinaryTypes.String},
		{Name: "weight_s", Type: arrow.PrimitiveTypes.Float64},
		{Name: "rate", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "rate_unit", Type: arrow.BinaryTypes.String},
		{Name: "note", Type: arrow.BinaryTypes.String},
	}, &md)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	str := func(k int, s string) { b.Field(k).(*array.StringBuilder).Append(s) }
	for i, t := range c.Tables {
		for _, p := range c.Properties {
			wt, r, ok := c.cell(i, p)
			if !ok {
				continue
			}
			str(0, c.Labels[i])
			str(1, t.Device)
			str(2, t.Model)
			str(3, p)
			b.Field(4).(*array.Float64Builder).Append(wt)
			if r.OK {
				b.Field(5).(*array.Float64Builder).Append(r.Value)
			} else {
				b.Field(5).(*array.Float64Builder).AppendNull()
			}
			str(6, unit(p))
			str(7, r.Note)
		}
	}
	rec := b.NewRecord()
	defer rec.Release()
	data, err := weightsio.EncodeRecord(schema, rec)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}
