package weightsio

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/uniperf/uniperf/fit"
)

// weightSuffix ends the header of a device's weight column in the CSV that
// uniperf export writes: "<label> weight_s", then "<label> rate" and
// "<label> note".
const weightSuffix = " weight_s"

// DecodeWeightsCSV reads the weights of one device from CSV in the layout
// that uniperf export --format csv writes: columns property and rate_unit,
// then a weight, a rate and a note column per device, headed by the
// device's label. label picks the device; it may be empty where the file
// holds one. An empty weight cell (a property that device has no weight
// for) is left out. The weights are of the unified linear model, and their
// property set is the file's property list, since CSV carries no fit
// metadata. Errors give the CSV line.
func DecodeWeightsCSV(data []byte, label string) (*fit.Weights, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	head, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("weights CSV: %w", csvError(err))
	}
	col, err := weightColumn(head, label)
	if err != nil {
		return nil, fmt.Errorf("weights CSV, line 1: %w", err)
	}
	w := &fit.Weights{Device: strings.TrimSuffix(head[col], weightSuffix), Model: fit.ModelUnified}
	seen := map[string]bool{}
	for line := 2; ; line++ {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("weights CSV: %w", csvError(err))
		}
		if len(rec) != len(head) {
			return nil, fmt.Errorf("weights CSV, line %d: %d fields, the header has %d", line, len(rec), len(head))
		}
		p, cell := rec[0], rec[col]
		if p == "" || seen[p] {
			return nil, fmt.Errorf("weights CSV, line %d: property %q is empty or given twice", line, p)
		}
		seen[p] = true
		if cell == "" {
			continue
		}
		v, err := strconv.ParseFloat(cell, 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, fmt.Errorf("weights CSV, line %d: weight %q of %s is not a finite number", line, cell, p)
		}
		w.Properties = append(w.Properties, p)
		w.Values = append(w.Values, v)
	}
	if len(w.Properties) == 0 {
		return nil, fmt.Errorf("weights CSV: device %q has no weights", w.Device)
	}
	w.PropertySet = fit.PropertySetID(w.Properties)
	return w, nil
}

// weightColumn returns the index of the weight column of the device with
// the given label, or of the only device where label is empty.
func weightColumn(head []string, label string) (int, error) {
	if len(head) < 5 || head[0] != "property" || head[1] != "rate_unit" {
		return 0, errors.New("the header does not start property, rate_unit, <device> weight_s, <device> rate, <device> note (the layout of uniperf export --format csv)")
	}
	if (len(head)-2)%3 != 0 {
		return 0, fmt.Errorf("%d columns: each device has three (weight_s, rate, note)", len(head))
	}
	var labels []string
	for i := 2; i+2 < len(head); i += 3 {
		l := strings.TrimSuffix(head[i], weightSuffix)
		if l == head[i] || head[i+1] != l+" rate" || head[i+2] != l+" note" {
			return 0, fmt.Errorf("columns %d to %d are %q, %q, %q, not a device's weight_s, rate and note", i+1, i+3, head[i], head[i+1], head[i+2])
		}
		if strings.TrimSpace(l) == "" {
			// Weights name their device; a blank label would pass here
			// and fail Validate wherever the weights are used.
			return 0, fmt.Errorf("column %d, %q, names no device", i+1, head[i])
		}
		if l == label || (label == "" && len(head) == 5) {
			return i, nil
		}
		labels = append(labels, l)
	}
	if label == "" {
		return 0, fmt.Errorf("the file holds %d devices (%s): name one as FILE.csv#DEVICE", len(labels), strings.Join(labels, ", "))
	}
	return 0, fmt.Errorf("no device %q (the file holds %s)", label, strings.Join(labels, ", "))
}

// csvError drops the encoding/csv prefix, keeping the line and column.
func csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("line %d, column %d: %w", pe.Line, pe.Column, pe.Err)
	}
	return err
}
