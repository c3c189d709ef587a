package models

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/uniperf/uniperf/fit"
)

// propertyName matches the property names of package counts (see its
// "Properties" documentation): memory traffic by direction, type and
// stride class, indirect (gathered) traffic and atomic additions,
// operations by type and kind, barriers and launches.
var propertyName = regexp.MustCompile(`^(` +
	`global\.(load|store|minldst)\.(f32|f64|i32|i64)\.stride=(0|1|[12]/2|[1-3]/3|[1-4]/4|[1-4]/>4)` +
	`|(global|local)\.(load|store)\.indirect\.(f32|f64|i32|i64)` +
	`|(global|local)\.atomic\.(f32|i32)\.add` +
	`|local\.(load|store)\.(f32|f64|i32|i64)` +
	`|local\.(f32|f64|i32|i64)\.conflict=(2|4|8|16|32|64)` +
	`|flop\.(f32|f64)\.(add|mul|div|pow|exp|special|fmod)` +
	`|int\.(i32|i64)\.(add|mul|div|pow|exp|special|bitwise|shift)` +
	`|sync\.barrier|launch\.groups|launch\.const)$`)

// IntegerOp reports whether property counts integer operations (int.*),
// which seed 001's model leaves out and uniperf's fits include unless
// linear.Options.NoInteger.
func IntegerOp(property string) bool { return strings.HasPrefix(property, "int.") }

// CheckWeights returns an error unless every property of w is one that
// package counts produces, so that weights fitted against another naming
// of the properties (another uniperf version, another tool) are refused
// rather than silently priced at zero.
func CheckWeights(w *fit.Weights) error {
	if w.Model != fit.ModelUnified {
		return fmt.Errorf("weights for device %s are of model %q, not the unified linear model %q", w.Device, w.Model, fit.ModelUnified)
	}
	for _, p := range w.Properties {
		if !propertyName.MatchString(p) {
			return fmt.Errorf("weights for device %s have property %q, which this uniperf does not count: they come from another property set (uniperf %s)", w.Device, p, w.Version)
		}
	}
	return nil
}
