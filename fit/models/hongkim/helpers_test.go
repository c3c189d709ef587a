package hongkim

import (
	"testing"

	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
)

func device(t *testing.T, name string) *gpus.Device {
	t.Helper()
	d, err := gpus.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func inputs(t *testing.T, env *models.Env, kernel string, consts, params map[string]int64) *models.Inputs {
	t.Helper()
	in, err := env.Inputs(models.Case{Kernel: kernel, Consts: consts, Params: params})
	if err != nil {
		t.Fatal(err)
	}
	return in
}
