package models_test

import (
	"testing"

	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
)

// FuzzDecodeCalibration feeds DecodeCalibration arbitrary calibration
// files: it must return an error or a model, and a model it restores must
// summarize itself and predict a launch of vectorAdd, or refuse it with an error,
// never panic, as uniperf predict --model NAME --weights FILE does with
// it. The seeds (testdata/fuzz/FuzzDecodeCalibration) are the
// calibrations that uniperf fit --model writes for each model on the
// PoCL quick table (pocl-epyc-quick.arrow, device file pocl-cpu), and
// linear-short and hierarchy-short, a weight fewer than properties, which
// made Predict index past the weights before CheckCalibration refused them.
func FuzzDecodeCalibration(f *testing.F) {
	d, err := gpus.Lookup("pocl-cpu")
	if err != nil {
		f.Fatal(err)
	}
	// One counter for every input, so that the launch is counted once;
	// vectorAdd, whose hierarchy counts take milliseconds where
	// matmul_kernel's take 4 s.
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: d}
	launch := models.Case{Kernel: "../../examples/vectorAdd.knl", Params: map[string]int64{"numElements": 1000}}
	f.Fuzz(func(t *testing.T, data []byte, model string) {
		_, m, err := models.DecodeCalibration("fuzz.json", data, model)
		if err != nil {
			return
		}
		_ = m.Summary()
		_, _ = m.Predict(env, launch)
	})
}
