// Command gosummary is the Go half of the apache-arrow cross-check (see
// ../check.sh). It reads the given measurement tables with package
// datasets, writes one more table with awkward values of its own
// (sample.arrow: unicode, empty and negative maps, three axes, tiny times),
// and writes summary.json: every table's row count, columns, metadata and
// every value, for check.mjs to compare with what apache-arrow reads.
// Integers are JSON strings so that JavaScript numbers cannot round them.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/uniperf/uniperf/datasets"
)

type summary struct {
	Tables []tableSummary `json:"tables"`
}

type tableSummary struct {
	Path     string            `json:"path"`
	Rows     int               `json:"rows"`
	Columns  []string          `json:"columns"`
	Metadata map[string]string `json:"metadata"`
	Data     []rowSummary      `json:"data"`
}

type rowSummary struct {
	Device        string            `json:"device"`
	Backend       string            `json:"backend"`
	Kernel        string            `json:"kernel"`
	Class         string            `json:"class"`
	Role          string            `json:"role"`
	Variant       string            `json:"variant"`
	Consts        map[string]string `json:"consts"`
	Params        map[string]string `json:"params"`
	LocalSize     []string          `json:"local_size"`
	GlobalSize    []string          `json:"global_size"`
	TimeS         float64           `json:"time_s"`
	RawTimesS     []float64         `json:"raw_times_s"`
	RunsKept      int32             `json:"runs_kept"`
	RunsDiscarded int32             `json:"runs_discarded"`
	TimestampUS   string            `json:"timestamp_us"`
	Version       string            `json:"uniperf_version"`
}

var columns = []string{"device", "backend", "kernel", "class", "role", "variant", "consts", "params",
	"local_size", "global_size", "time_s", "raw_times_s", "runs_kept", "runs_discarded", "timestamp", "uniperf_version"}

func main() {
	dir := flag.String("dir", "", "directory for sample.arrow and summary.json")
	flag.Parse()
	if err := run(*dir, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "gosummary:", err)
		os.Exit(1)
	}
}

func run(dir string, paths []string) error {
	if dir == "" {
		return fmt.Errorf("-dir is required")
	}
	sample := filepath.Join(dir, "sample.arrow")
	if err := datasets.WriteFile(sample, sampleTable()); err != nil {
		return err
	}
	var s summary
	for _, p := range append(paths, sample) {
		t, err := datasets.Read(p)
		if err != nil {
			return err
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return err
		}
		s.Tables = append(s.Tables, summarize(abs, t))
	}
	out, err := json.MarshalIndent(s, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "summary.json"), out, 0o644)
}

func summarize(path string, t *datasets.Table) tableSummary {
	m := t.Meta
	ts := tableSummary{Path: path, Rows: len(t.Rows), Columns: columns, Metadata: map[string]string{
		"uniperf.schema": datasets.SchemaID, "device.name": m.DeviceName, "device.vendor": m.DeviceVendor,
		"device.driver": m.DeviceDriver, "device.compute_units": strconv.Itoa(m.ComputeUnits),
		"device.clock_mhz": strconv.Itoa(m.ClockMHz), "device.global_mem_bytes": strconv.FormatInt(m.GlobalMemBytes, 10),
		"device.local_mem_bytes": strconv.FormatInt(m.LocalMemBytes, 10), "backend": m.Backend, "suite": m.Suite,
		"method": m.Method,
	}, Data: []rowSummary{}}
	for _, r := range t.Rows {
		ts.Data = append(ts.Data, rowSummary{
			Device: r.Device, Backend: r.Backend, Kernel: r.Kernel, Class: r.Class, Role: r.Role, Variant: r.Variant,
			Consts: strMap(r.Consts), Params: strMap(r.Params), LocalSize: strs(r.LocalSize), GlobalSize: strs(r.GlobalSize),
			TimeS: r.TimeS, RawTimesS: r.RawTimesS, RunsKept: r.RunsKept, RunsDiscarded: r.RunsDiscarded,
			TimestampUS: strconv.FormatInt(r.Timestamp.UnixMicro(), 10), Version: r.Version,
		})
	}
	return ts
}

func strMap(m map[string]int64) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = strconv.FormatInt(v, 10)
	}
	return out
}

func strs(v []int64) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = strconv.FormatInt(x, 10)
	}
	return out
}

func sampleTable() *datasets.Table {
	meta := datasets.Meta{DeviceName: "Gerät “Ω” 9000", DeviceVendor: "Acme", DeviceDriver: "1.0", ComputeUnits: 3,
		ClockMHz: 1234, GlobalMemBytes: 1 << 40, LocalMemBytes: 49152, Backend: "cuda", Suite: "sample",
		Method: "written by .ci/arrow-js/gosummary\nsecond line"}
	raw := []float64{1e-9, 3.141592653589793e-7, 2.5e-9, 7e-10}
	rows := []datasets.Row{
		{Kernel: "empty", Class: "empty", Role: datasets.RoleMeasurement, Variant: "",
			Consts: map[string]int64{}, Params: map[string]int64{"n": 1 << 40, "neg": -7},
			LocalSize: []int64{16, 12, 1}, GlobalSize: []int64{1 << 20, 48, 3},
			RawTimesS: raw, RunsDiscarded: 2, RunsKept: 2},
		{Kernel: "nbody", Class: "n-body", Role: datasets.RoleTest, Variant: "gsize=256, ünïcode ✓",
			Consts: map[string]int64{"gs": 256}, Params: map[string]int64{"n": 2048},
			LocalSize: []int64{256}, GlobalSize: []int64{2048},
			RawTimesS: []float64{0.5, 0.25}, RunsDiscarded: 0, RunsKept: 2},
	}
	for i := range rows {
		r := &rows[i]
		r.Device, r.Backend, r.Version = meta.DeviceName, meta.Backend, datasets.Version
		r.TimeS = datasets.MinKept(r.RawTimesS, int(r.RunsDiscarded))
		r.Timestamp = time.Date(2024, 2, 29, 23, 59, 59, 999999000, time.UTC).Add(time.Duration(i) * time.Hour)
	}
	return &datasets.Table{Meta: meta, Rows: rows}
}
