package datasets_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/uniperf/uniperf/datasets"
)

// A measurement run opens its output with OpenWriter, skips the rows that
// are already there (a resumed run), and appends each new row as soon as it
// is measured.
func ExampleOpenWriter() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "device.arrow")
	meta := datasets.Meta{DeviceName: "Example GPU", Backend: "opencl", Suite: "quick",
		Method: "30 runs, first 4 discarded, minimum of the rest"}

	w, err := datasets.OpenWriter(path, meta)
	if err != nil {
		log.Fatal(err)
	}
	defer w.Close()
	for _, n := range []int64{1024, 2048} {
		params := map[string]int64{"n": n}
		local := []int64{256}
		if w.Has(datasets.MakeKey("vector_add", nil, params, local)) {
			continue
		}
		raw := []float64{3e-5, 2e-5, 1.5e-5, 1.4e-5} // seconds, in run order
		err := w.Append(datasets.Row{
			Device: meta.DeviceName, Backend: meta.Backend,
			Kernel: "vector_add", Class: "vector_scale_add", Role: datasets.RoleMeasurement,
			Variant: "stride=1", Params: params, LocalSize: local, GlobalSize: []int64{n},
			RawTimesS: raw, RunsDiscarded: 1, RunsKept: 3, TimeS: datasets.MinKept(raw, 1),
			Timestamp: time.Now(), Version: datasets.Version,
		})
		if err != nil {
			log.Fatal(err)
		}
	}

	t, err := datasets.Read(path)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range t.Rows {
		fmt.Printf("%s n=%d: %.1f µs\n", r.Kernel, r.Params["n"], r.TimeS*1e6)
	}
	// Output:
	// vector_add n=1024: 14.0 µs
	// vector_add n=2048: 14.0 µs
}
