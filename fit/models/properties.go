package models

import (
	"fmt"
	"strings"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/fit"
)

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
		if !counts.IsProperty(p) {
			return fmt.Errorf("weights for device %s have property %q, which this uniperf does not count: they come from another property set (uniperf %s)", w.Device, p, w.Version)
		}
	}
	return nil
}
