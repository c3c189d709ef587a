package gpus

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/datasets/inputfile"
)

//go:embed devices/*.json
var shipped embed.FS

// Parse reads one device file. file names the source in error messages.
// Unknown fields are errors (a misspelt parameter would otherwise be
// silently absent), and so are non-finite or negative numbers and limits
// that contradict each other.
func Parse(file string, data []byte) (*Device, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var d Device
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("device file %s: %w", file, jsonPlace(data, err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("device file %s: unexpected data after the device object", file)
	}
	d.File = file
	if err := d.validate(); err != nil {
		return nil, fmt.Errorf("device file %s: %w", file, err)
	}
	return &d, nil
}

// jsonPlace adds the line and column (1-based) of a JSON syntax or type
// error.
func jsonPlace(data []byte, err error) error {
	var offset int64 = -1
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		offset = syn.Offset
	case errors.As(err, &typ):
		offset = typ.Offset
	}
	if offset <= 0 || offset > int64(len(data)) {
		return err
	}
	// The decoder reports how many bytes it read; the culprit is the last.
	before := data[:offset-1]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Errorf("%d:%d: %w", line, col, err)
}

func (d *Device) validate() error {
	switch {
	case strings.TrimSpace(d.Name) == "":
		return errors.New("name is empty")
	case d.Kind != "gpu" && d.Kind != "cpu":
		return fmt.Errorf("kind must be \"gpu\" or \"cpu\", have %q", d.Kind)
	case len(d.Sources) == 0:
		return errors.New("sources is empty: every device file names where its numbers come from")
	}
	if err := d.checkRanges(); err != nil {
		return err
	}
	if err := d.Limits.Validate(); err != nil {
		return err
	}
	if d.LocalBanks != nil {
		if err := d.LocalBanks.validate(); err != nil {
			return err
		}
	}
	if d.Caches != nil {
		return d.Caches.validate(d.SMs)
	}
	return nil
}

// checkRanges checks the device's own numbers and every model constant
// against its range.
func (d *Device) checkRanges() error {
	checks := []interface{ check() error }{
		intRange{"sm_count", d.SMs, 1, maxSMs, false},
		floatRange{"clock_hz", d.ClockHz, minClockHz, maxClockHz, true},
		floatRange{"mem_bandwidth_bytes_per_s", d.MemBandwidth, minBytesPS, maxBytesPS, false},
	}
	for _, r := range d.Limits.ranges() {
		checks = append(checks, r)
	}
	for _, f := range d.constants() {
		checks = append(checks, floatRange{f.path, f.v, minConst, maxConst, false})
	}
	if r := d.Resios; r != nil {
		sim := r.Simulation
		checks = append(checks,
			intRange{"resios.simulation.compute_units", sim.ComputeUnits, 1, maxSimUnits, true},
			intRange{"resios.simulation.memory_units", sim.MemoryUnits, 1, maxSimUnits, true},
			intRange{"resios.simulation.max_sim_warps", sim.MaxSimWarps, 1, maxSimUnits, true})
	}
	for _, c := range checks {
		if err := c.check(); err != nil {
			return err
		}
	}
	return nil
}

// constants lists the model sections' numbers by JSON path.
func (d *Device) constants() []field {
	var nums []field
	if d.HongKim != nil {
		required, optional := d.HongKim.fields()
		nums = append(append(nums, required...), optional...)
	}
	if c := d.Cycles; c != nil {
		for _, k := range slices.Sorted(maps.Keys(c.Weights)) {
			nums = append(nums, field{"cycles.weights." + k, c.Weights[k]})
		}
	}
	if d.Resios != nil {
		required, optional := d.Resios.fields()
		nums = append(append(nums, required...), optional...)
	}
	return nums
}

// Load reads a device file from disk.
func Load(filename string) (*Device, error) {
	data, err := inputfile.ReadText(filename)
	if err != nil {
		return nil, err
	}
	return Parse(filename, data)
}

// Names returns the keys of the shipped devices (their file names without
// ".json"), sorted.
func Names() []string {
	entries, err := shipped.ReadDir("devices")
	if err != nil {
		panic(err) // the embedded directory is part of the binary
	}
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".json"))
	}
	return names
}

// Shipped returns every shipped device, in the order of Names.
func Shipped() ([]*Device, error) {
	var out []*Device
	for _, name := range Names() {
		d, err := open(name)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

func open(key string) (*Device, error) {
	file := path.Join("devices", key+".json")
	data, err := shipped.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return Parse(file, data)
}

// Lookup finds a shipped device by key ("gtx280"), by display name or by
// alias ("NVIDIA H100 80GB HBM3"), ignoring case and surrounding space.
// Names compare whole: two CPUs under one PoCL build share the prefix
// "pthread-skylake-avx512-" and differ in their caches.
func Lookup(name string) (*Device, error) {
	want := strings.ToLower(strings.TrimSpace(name))
	devices, err := Shipped()
	if err != nil {
		return nil, err
	}
	for i, key := range Names() {
		d := devices[i]
		if want == key || want == strings.ToLower(d.Name) {
			return d, nil
		}
		for _, a := range d.Aliases {
			if want == strings.ToLower(a) {
				return d, nil
			}
		}
	}
	return nil, fmt.Errorf("%w for %q; shipped devices: %s (or give a file of your own)",
		ErrNotShipped, name, strings.Join(Names(), ", "))
}
