// Package modeltest holds the helpers that the tests of the model packages
// under fit/models share: a shipped device file by name, a launch's inputs,
// and a relative comparison. They fail the test instead of returning errors.
package modeltest

import (
	"math"
	"testing"

	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
)

// Device returns the shipped device file of that name.
func Device(t testing.TB, name string) *gpus.Device {
	t.Helper()
	d, err := gpus.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Inputs returns what env's counter gives the models for one launch.
func Inputs(t testing.TB, env *models.Env, kernel string, consts, params map[string]int64) *models.Inputs {
	t.Helper()
	in, err := env.Inputs(models.Case{Kernel: kernel, Consts: consts, Params: params})
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// RelClose reports whether got is within tol of want, relative to want.
func RelClose(got, want, tol float64) bool { return math.Abs(got-want) <= tol*math.Abs(want) }
