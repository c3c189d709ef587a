package main

import (
	"slices"
	"testing"
)

// TestCalibrationInputs checks the tables a -calibrations file names as
// its inputs: the fit tables, then the -train tables its corpus rows
// came from (a calibration that named the fit tables alone hid them),
// and the fit tables alone without -train.
func TestCalibrationInputs(t *testing.T) {
	fitPaths := []string{"a.arrow", "b.arrow"}
	tr := corpusSpec{paths: []string{"bicg.arrow"}, weight: 4, folds: 5}
	if got, want := tr.inputs(fitPaths), []string{"a.arrow", "b.arrow", "bicg.arrow"}; !slices.Equal(got, want) {
		t.Errorf("with -train: %v, want %v", got, want)
	}
	if got := (corpusSpec{weight: 1, folds: 5}).inputs(fitPaths); !slices.Equal(got, fitPaths) {
		t.Errorf("without -train: %v, want %v", got, fitPaths)
	}
	if !slices.Equal(fitPaths, []string{"a.arrow", "b.arrow"}) {
		t.Errorf("the fit tables changed: %v", fitPaths)
	}
}
