package models

import (
	"testing"

	"github.com/uniperf/uniperf/fit/gpus"
)

func device(t *testing.T, name string) *gpus.Device {
	t.Helper()
	d, err := gpus.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
