package xu

import (
	"math"
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

func relClose(got, want, tol float64) bool { return math.Abs(got-want) <= tol*math.Abs(want) }
