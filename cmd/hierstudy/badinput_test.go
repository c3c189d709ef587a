package main

import (
	"errors"
	"strings"
	"testing"
)

// TestBadInput checks that what the command line or its tables get
// wrong is marked bad input (exit 2), before any table is read where a
// flag is at fault, and that the message names the flag or the file.
func TestBadInput(t *testing.T) {
	const table = "../../datasets/pocl-epyc-quick.arrow"
	for _, c := range []struct {
		fit, split, form, want string
	}{
		{table, "dev", "hierarchy", `-split "dev"`},
		{table, "", "hierarchy+nosuch", `unknown option "nosuch"`},
		{table, "", "hierarchy+context+localfoot", "+localfoot and +context or +context2 both move"},
		{table, "", "hierarchy+localfoot+context2", "+localfoot and +context or +context2 both move"},
		{table, "", "linear,maxx", `form "maxx"`},
		{"no/such/table.arrow", "", "linear", "no/such/table.arrow"},
	} {
		err := run([]string{c.fit}, nil, c.split, strings.Split(c.form, ","), false, false, false, "", "", false)
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
