package datasets

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow/go/v17/arrow"
)

// SchemaID is the value of the `uniperf.schema` metadata key of a
// measurement table.
const SchemaID = "measurements/1"

// Row is one measurement: a kernel at one configuration, size and group
// size, timed on one device.
type Row struct {
	Device  string // device name as the runtime reports it
	Backend string // "opencl" or "cuda"
	Kernel  string // library kernel name
	Class   string // kernel class, e.g. "matmul_tiled"
	Role    string // RoleMeasurement or RoleTest
	Variant string // human-readable configuration, e.g. "shape=n=l,m=n/2"

	Consts map[string]int64 // .knl const bindings (group and tile sizes)
	Params map[string]int64 // size parameters

	LocalSize  []int64 // work-group size per axis
	GlobalSize []int64 // global size per axis, in work-items

	TimeS         float64   // minimum of the kept runs, seconds
	RawTimesS     []float64 // every run in order, discarded ones first
	RunsKept      int32
	RunsDiscarded int32

	Timestamp time.Time // when the row was measured (stored to the microsecond, UTC)
	Version   string    // uniperf version that measured it
}

// The two roles of a kernel in the model (seed 001 §4 and §5).
const (
	RoleMeasurement = "measurement" // fit on it
	RoleTest        = "test"        // validate on it
)

// Meta is a table's schema metadata: the device and how it was measured.
type Meta struct {
	DeviceName     string
	DeviceVendor   string
	DeviceDriver   string
	ComputeUnits   int
	ClockMHz       int
	GlobalMemBytes int64
	LocalMemBytes  int64
	Backend        string
	Suite          string // e.g. "paper", "quick"
	Method         string // free text: timing protocol, host, anything a reader needs
	// Calibration is what the measuring program found before timing (for
	// uniperf measure, JSON of the size chosen per kernel), kept so that
	// a resumed run need not find it again; "" when there is none. It is
	// not part of the table's identity: a resumed run may add to it.
	Calibration string
}

// Key identifies a row within a table: kernel, const bindings, parameter
// values and work-group size. A table holds at most one row per key, and a
// resumed run skips the keys already present.
//
// The work-group size is keyed without trailing axes of 1: [16,16],
// [16,16,1] and the launch's own [16,16,1] are one size, and a plan names
// it with as many axes as the kernel has while a table may hold the axes
// the device launched (tables measured before this rule hold both forms).
type Key string

// Key returns r's key.
func (r Row) Key() Key {
	var b strings.Builder
	b.WriteString(r.Kernel)
	b.WriteString("|")
	writeMap(&b, r.Consts)
	b.WriteString("|")
	writeMap(&b, r.Params)
	b.WriteString("|")
	local := r.LocalSize
	for len(local) > 1 && local[len(local)-1] == 1 {
		local = local[:len(local)-1]
	}
	for i, v := range local {
		if i > 0 {
			b.WriteString("x")
		}
		b.WriteString(strconv.FormatInt(v, 10))
	}
	return Key(b.String())
}

// MakeKey is the key of a row that has not been measured yet.
func MakeKey(kernel string, consts, params map[string]int64, local []int64) Key {
	return Row{Kernel: kernel, Consts: consts, Params: params, LocalSize: local}.Key()
}

func writeMap(b *strings.Builder, m map[string]int64) {
	for i, k := range sortedKeys(m) {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(b, "%s=%d", k, m[k])
	}
}

func sortedKeys(m map[string]int64) []string { return slices.Sorted(maps.Keys(m)) }

// Column names, in schema order.
const (
	colDevice        = "device"
	colBackend       = "backend"
	colKernel        = "kernel"
	colClass         = "class"
	colRole          = "role"
	colVariant       = "variant"
	colConsts        = "consts"
	colParams        = "params"
	colLocalSize     = "local_size"
	colGlobalSize    = "global_size"
	colTimeS         = "time_s"
	colRawTimesS     = "raw_times_s"
	colRunsKept      = "runs_kept"
	colRunsDiscarded = "runs_discarded"
	colTimestamp     = "timestamp"
	colVersion       = "uniperf_version"
)

var (
	sizeMap  = arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64)
	sizeList = arrow.ListOf(arrow.PrimitiveTypes.Int64)
	timeList = arrow.ListOf(arrow.PrimitiveTypes.Float64)
)

// fields is the table's columns, in order.
var fields = []arrow.Field{
	{Name: colDevice, Type: arrow.BinaryTypes.String},
	{Name: colBackend, Type: arrow.BinaryTypes.String},
	{Name: colKernel, Type: arrow.BinaryTypes.String},
	{Name: colClass, Type: arrow.BinaryTypes.String},
	{Name: colRole, Type: arrow.BinaryTypes.String},
	{Name: colVariant, Type: arrow.BinaryTypes.String},
	{Name: colConsts, Type: sizeMap},
	{Name: colParams, Type: sizeMap},
	{Name: colLocalSize, Type: sizeList},
	{Name: colGlobalSize, Type: sizeList},
	{Name: colTimeS, Type: arrow.PrimitiveTypes.Float64},
	{Name: colRawTimesS, Type: timeList},
	{Name: colRunsKept, Type: arrow.PrimitiveTypes.Int32},
	{Name: colRunsDiscarded, Type: arrow.PrimitiveTypes.Int32},
	{Name: colTimestamp, Type: arrow.FixedWidthTypes.Timestamp_us},
	{Name: colVersion, Type: arrow.BinaryTypes.String},
}

// Metadata keys.
const (
	keySchema       = "uniperf.schema"
	keyDeviceName   = "device.name"
	keyDeviceVendor = "device.vendor"
	keyDeviceDriver = "device.driver"
	keyComputeUnits = "device.compute_units"
	keyClockMHz     = "device.clock_mhz"
	keyGlobalMem    = "device.global_mem_bytes"
	keyLocalMem     = "device.local_mem_bytes"
	keyBackend      = "backend"
	keySuite        = "suite"
	keyMethod       = "method"
	keyCalibration  = "calibration" // optional
)

// Schema is the Arrow schema of a measurement table with meta as its
// metadata.
func Schema(meta Meta) *arrow.Schema {
	keys := []string{keySchema, keyDeviceName, keyDeviceVendor, keyDeviceDriver, keyComputeUnits, keyClockMHz,
		keyGlobalMem, keyLocalMem, keyBackend, keySuite, keyMethod}
	values := []string{SchemaID, meta.DeviceName, meta.DeviceVendor, meta.DeviceDriver, strconv.Itoa(meta.ComputeUnits),
		strconv.Itoa(meta.ClockMHz), strconv.FormatInt(meta.GlobalMemBytes, 10), strconv.FormatInt(meta.LocalMemBytes, 10),
		meta.Backend, meta.Suite, meta.Method}
	if meta.Calibration != "" {
		keys, values = append(keys, keyCalibration), append(values, meta.Calibration)
	}
	md := arrow.NewMetadata(keys, values)
	return arrow.NewSchema(slices.Clone(fields), &md)
}

// metaFrom reads Meta back from schema metadata.
func metaFrom(md arrow.Metadata) (Meta, error) {
	get := func(key string) (string, error) {
		i := md.FindKey(key)
		if i < 0 {
			return "", fmt.Errorf("schema metadata lacks %q", key)
		}
		return md.Values()[i], nil
	}
	if s, err := get(keySchema); err != nil {
		return Meta{}, fmt.Errorf("not a uniperf measurement table: %w", err)
	} else if s != SchemaID {
		return Meta{}, fmt.Errorf("not a uniperf measurement table: %s is %q, want %q", keySchema, s, SchemaID)
	}
	var m Meta
	var err error
	for _, f := range []struct {
		key string
		dst *string
	}{{keyDeviceName, &m.DeviceName}, {keyDeviceVendor, &m.DeviceVendor}, {keyDeviceDriver, &m.DeviceDriver},
		{keyBackend, &m.Backend}, {keySuite, &m.Suite}, {keyMethod, &m.Method}} {
		if *f.dst, err = get(f.key); err != nil {
			return Meta{}, err
		}
	}
	var units, clock int64
	for _, f := range []struct {
		key string
		dst *int64
	}{{keyComputeUnits, &units}, {keyClockMHz, &clock}, {keyGlobalMem, &m.GlobalMemBytes}, {keyLocalMem, &m.LocalMemBytes}} {
		s, err := get(f.key)
		if err != nil {
			return Meta{}, err
		}
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v < 0 {
			return Meta{}, fmt.Errorf("schema metadata %q = %q is not a non-negative integer", f.key, s)
		}
		*f.dst = v
	}
	m.ComputeUnits, m.ClockMHz = int(units), int(clock)
	if i := md.FindKey(keyCalibration); i >= 0 {
		m.Calibration = md.Values()[i]
	}
	if err := m.validate(); err != nil {
		return Meta{}, err
	}
	return m, nil
}

func (m Meta) validate() error {
	if m.DeviceName == "" {
		return fmt.Errorf("schema metadata %q is empty", keyDeviceName)
	}
	if m.Backend != "opencl" && m.Backend != "cuda" {
		return fmt.Errorf("schema metadata %q = %q, want \"opencl\" or \"cuda\"", keyBackend, m.Backend)
	}
	return nil
}
