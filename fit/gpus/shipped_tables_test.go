package gpus_test

import (
	"testing"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/gpus"
)

// Every model of uniperf compare must run on every shipped table, so the
// device file that a table's device name resolves to must give the
// constants each analytical model cannot fit: Hong–Kim's issue cycles and
// the cycle weights of seed 004 (the CPU's are the models' defaults).
func TestShippedTablesHaveModelConstants(t *testing.T) {
	for _, name := range datasets.Shipped() {
		table, err := datasets.OpenShipped(name)
		if err != nil {
			t.Fatal(err)
		}
		d, err := gpus.Lookup(table.Meta.DeviceName)
		if err != nil {
			t.Errorf("table %s: %v", name, err)
			continue
		}
		h, err := d.HongKimFixedParams()
		if err != nil {
			t.Errorf("table %s: %v", name, err)
			continue
		}
		if d.Kind == "gpu" && h.IssueCycles*float64(d.Limits.WarpSize) > float64(d.Limits.MaxThreadsPerSM) {
			t.Errorf("table %s: device %s: issue cycles %g per warp exceed a resident warp per cycle", name, d.Name, h.IssueCycles)
		}
	}
}
