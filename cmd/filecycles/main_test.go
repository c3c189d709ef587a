package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	cases := []struct {
		name   string
		args   []string
		status int
		out    string
	}{
		{"cycle", []string{"./testdata/cycle"}, 1,
			"github.com/uniperf/uniperf/cmd/filecycles/testdata/cycle: a.go <-> b.go (a.go:5 uses B, b.go:4 uses T)\n"},
		{"exempt cycle", []string{"-exempt", "./testdata/cycle", "./testdata/cycle"}, 0, ""},
		{"one way", []string{"./testdata/oneway"}, 0, ""},
		{"dependent", []string{"-independent", "./testdata/apart/low,./testdata/apart/high", "./testdata/apart/..."}, 1,
			"github.com/uniperf/uniperf/cmd/filecycles/testdata/apart/high imports github.com/uniperf/uniperf/cmd/filecycles/testdata/apart/low, which it must stay independent of\n"},
		{"forbidden", []string{"-independent", "./testdata/apart/high", "-forbid", "./testdata/apart/low", "./testdata/apart/..."}, 1,
			"github.com/uniperf/uniperf/cmd/filecycles/testdata/apart/high imports github.com/uniperf/uniperf/cmd/filecycles/testdata/apart/low, which it must stay independent of\n"},
		{"imported by", []string{"-independent", "./testdata/apart/low", "-forbid", "./testdata/apart/high", "./testdata/apart/..."}, 0, ""},
		{"unknown dir", []string{"-exempt", "./testdata/gone", "./testdata/cycle"}, 2, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := run(c.args, &stdout, &stderr)
			if status != c.status || stdout.String() != c.out {
				t.Errorf("run %s: status %d, output\n%s\nwant status %d, output\n%s\nstderr: %s",
					strings.Join(c.args, " "), status, stdout.String(), c.status, c.out, stderr.String())
			}
		})
	}
}
