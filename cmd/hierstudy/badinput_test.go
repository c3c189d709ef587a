package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadInput checks that what the command line or its tables get
// wrong is marked bad input (exit 2), before any table is read where a
// flag is at fault, and that the message names the flag or the file.
func TestBadInput(t *testing.T) {
	const table = "../../datasets/pocl-epyc-quick.arrow"
	for _, c := range []struct {
		fit, split, form, calDir, want string
	}{
		{table, "dev", "hierarchy", "", `-split "dev"`},
		{table, "", "hierarchy+nosuch", "", `unknown option "nosuch"`},
		{table, "", "hierarchy+context+localfoot", "", "+localfoot and +context or +context2 both move"},
		{table, "", "hierarchy+localfoot+context2", "", "+localfoot and +context or +context2 both move"},
		{table, "", "linear,maxx", "", `form "maxx"`},
		{"no/such/table.arrow", "", "linear", "", "no/such/table.arrow"},
		{table, "", "hierarchy", "no/such/folder", "-calibrations no/such/folder"},
		{table, "", "hierarchy", table, "-calibrations " + table + ": not a folder"},
	} {
		err := run([]string{c.fit}, nil, c.split, strings.Split(c.form, ","), false, false, false, c.calDir, "", false, corpusSpec{weight: 1, folds: 5})
		var bad badInput
		if !errors.As(err, &bad) {
			t.Errorf("%+v: error %v, want bad input", c, err)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %q does not name %s", c, err, c.want)
		}
	}
}

// TestBadCorpusInput checks the refusals of -train, -train-weight,
// -folds and -repeats: a held-out kernel is never fitted (gemm.knl's
// name hashes odd, examples/README.md), under its own name or another,
// and a run that lacks a table is named.
func TestBadCorpusInput(t *testing.T) {
	const table = "../../datasets/pocl-epyc-quick.arrow"
	// gemm's rows under a development kernel's name: refused by its rows.
	renamed := filepath.Join(t.TempDir(), "bicg.arrow")
	gemm, err := os.ReadFile("../../datasets/examples-pocl/gemm.arrow")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(renamed, gemm, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		spec corpusSpec
		want string
	}{
		{corpusSpec{weight: 0, folds: 5}, "-train-weight 0"},
		{corpusSpec{weight: 1, folds: 1}, "-folds 1"},
		{corpusSpec{paths: []string{"../../datasets/examples-pocl/gemm.arrow"}, weight: 1, folds: 5}, "gemm.knl is not a development kernel"},
		{corpusSpec{weight: 1, folds: 5, repeats: []string{"no/such/run"}}, "no/such/run/bicg.arrow"},
		{corpusSpec{paths: []string{renamed}, weight: 1, folds: 5}, "a row of examples/gemm.knl, not a development kernel"},
	} {
		err := run([]string{table}, []string{"../../datasets/examples-pocl/bicg.arrow"}, "", []string{"hierarchy"}, false, false, false, "", "", false, c.spec)
		var bad badInput
		if !errors.As(err, &bad) {
			t.Errorf("%+v: error %v, want bad input", c.spec, err)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %q does not name %s", c.spec, err, c.want)
		}
	}
}
