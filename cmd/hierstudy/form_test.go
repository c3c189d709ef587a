package main

import (
	"testing"

	"github.com/uniperf/uniperf/fit/models/hierarchy"
)

// TestLocalFootReplacesContext checks the forms that name the local
// footprint on a CPU, whose chosen form has a context level
// (hierarchy.Chosen("cpu").Context is ContextL1): +localfoot replaces it,
// in either order with +nocontext, and keeps every other option of the
// chosen form.
func TestLocalFootReplacesContext(t *testing.T) {
	defer func(k string) { deviceKind = k }(deviceKind)
	deviceKind = "cpu"
	want := hierarchy.Chosen("cpu")
	if want.Context != hierarchy.ContextL1 {
		t.Fatalf("the CPU's chosen form has context %q, want %q", want.Context, hierarchy.ContextL1)
	}
	want.Context, want.LocalFootprint = "", true
	for _, form := range []string{"hierarchy+localfoot", "hierarchy+localfoot+nocontext", "hierarchy+nocontext+localfoot"} {
		got, err := parseForm(form)
		if err != nil {
			t.Errorf("%s: %v", form, err)
			continue
		}
		if got != want {
			t.Errorf("%s: %+v, want %+v", form, got, want)
		}
	}
}
