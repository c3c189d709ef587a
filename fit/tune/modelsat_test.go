package tune_test

import (
	"testing"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
	_ "github.com/uniperf/uniperf/fit/models/cycles"
	_ "github.com/uniperf/uniperf/fit/models/hongkim"
	_ "github.com/uniperf/uniperf/fit/models/resios"
	_ "github.com/uniperf/uniperf/fit/models/xu"
)

// TestModelsAtSizesAsSymbolic calibrates each analytical model on the
// PoCL quick table and checks its predictions of bindings of the two
// tuning kernels counted at the sizes (models.NewCounterAt, as tune
// counts them) against the same bindings counted symbolically in the
// sizes (as predict counts them), time and explanation alike.
func TestModelsAtSizesAsSymbolic(t *testing.T) {
	tab, err := datasets.OpenShipped("pocl-epyc-quick.arrow")
	if err != nil {
		t.Fatal(err)
	}
	rows := models.Rows(map[string]*datasets.Table{"quick": tab}, datasets.RoleMeasurement)
	d, err := gpus.Lookup("pocl-cpu")
	if err != nil {
		t.Fatal(err)
	}
	calib := &models.Env{Counter: models.NewCounter(nil), Device: d}
	cases := []models.Case{
		{Kernel: "../../examples/matmul_kernel.knl", Consts: map[string]int64{"BX": 16, "BY": 4, "TX": 2, "TY": 2}, Params: map[string]int64{"n": 96}},
		{Kernel: "../../examples/convolution_kernel.knl", Consts: map[string]int64{"BX": 16, "BY": 2, "TX": 1, "TY": 2, "PAD": 0}, Params: map[string]int64{"h": 64, "w": 64}},
	}
	for _, name := range []string{"cycles", "hongkim", "xu", "resios"} {
		t.Run(name, func(t *testing.T) {
			m, err := models.New(name)
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Calibrate(calib, rows); err != nil {
				t.Fatal(err)
			}
			symbolic := &models.Env{Counter: models.NewCounter(models.Files), Device: d}
			for _, c := range cases {
				at := &models.Env{Counter: models.NewCounterAt(models.Files, models.DefaultBanks, c.Params), Device: d}
				checkSamePrediction(t, m, symbolic, at, c)
			}
		})
	}
}
