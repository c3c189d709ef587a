package report

import (
	"regexp"
	"strconv"
	"strings"
)

// Rate is the figure a weight implies for its property: a sustained rate
// for memory accesses and arithmetic, a time per event for overheads.
type Rate struct {
	Value float64 // in Unit; valid only when OK
	Unit  string  // "GB/s", "GFLOP/s", "GOP/s", "ns" or "µs"; empty for unknown properties
	OK    bool
	Note  string // why there is no value: "negative weight", "zero weight", ...
}

func (r Rate) String() string {
	if !r.OK {
		return r.Note
	}
	return strconv.FormatFloat(r.Value, 'g', 4, 64) + " " + r.Unit
}

// propertyClass is the kind of a property name, for ordering and rates.
type propertyClass int

const (
	classGlobalLoad propertyClass = iota
	classGlobalStore
	classMinLdSt
	classAtomic
	classLocal
	classConflict
	classFlop
	classInt
	classSync
	classLaunch
	classOther
)

func classify(property string) propertyClass {
	f := strings.Split(property, ".")
	switch {
	case len(f) >= 2 && f[0] == "global" && (f[1] == "load" || f[1] == "ldg"):
		return classGlobalLoad
	case len(f) >= 2 && f[0] == "global" && f[1] == "store":
		return classGlobalStore
	case len(f) >= 2 && f[0] == "global" && f[1] == "minldst":
		return classMinLdSt
	case len(f) >= 2 && (f[0] == "global" || f[0] == "local") && f[1] == "atomic":
		return classAtomic
	case len(f) == 3 && f[0] == "local" && strings.HasPrefix(f[2], "conflict="):
		return classConflict
	case f[0] == "local":
		return classLocal
	case f[0] == "flop":
		return classFlop
	case f[0] == "int":
		return classInt
	case f[0] == "sync":
		return classSync
	case f[0] == "launch":
		return classLaunch
	}
	return classOther
}

// dtypePattern matches data types such as f32, i64, f16x4 (a vector of
// four 16-bit values).
var dtypePattern = regexp.MustCompile(`^[a-z]+([0-9]+)(?:x([0-9]+))?$`)

// dtypeBytes returns the size of one access of the data type, or 0.
func dtypeBytes(dtype string) float64 {
	m := dtypePattern.FindStringSubmatch(dtype)
	if m == nil {
		return 0
	}
	bits, _ := strconv.Atoi(m[1])
	lanes := 1
	if m[2] != "" {
		lanes, _ = strconv.Atoi(m[2])
	}
	if bits == 0 || bits%8 != 0 || lanes == 0 {
		return 0
	}
	return float64(bits / 8 * lanes)
}

// accessBytes returns the size of one access of a global or local load
// or store property, from its data type: the field after the direction
// (global.load.f32.stride=1, global.ldg.b8.stride=1, local.store.i64),
// or after "indirect" for a gather or scatter (global.load.indirect.f32);
// 0 where there is none.
func accessBytes(f []string) float64 {
	if len(f) >= 4 && f[2] == "indirect" {
		return dtypeBytes(f[3])
	}
	if len(f) >= 3 {
		return dtypeBytes(f[2])
	}
	return 0
}

// DerivedRate returns what a weight (seconds per operation) of a property
// means in the units engineers compare devices in:
//
//   - global and local loads and stores: GB/s, bytes per access / weight,
//     with the access size from the data type (f32: 4 bytes, b8: 1 byte),
//     readonly loads (global.ldg), gathers and scatters
//     (global.load.indirect.f32) included;
//   - atomic additions (global.atomic.i32.add): GOP/s, additions per
//     second, 1 / weight, at the contention the fitted rows had;
//   - flop.*: GFLOP/s, 1 / weight; int.*: GOP/s;
//   - sync.barrier and launch.groups: ns per event; launch.const: µs;
//   - local.*.conflict=D: ns per conflicted access, on top of the access.
//
// A negative or zero weight implies no rate (the fit traded that property
// off against others) and gets a note instead of a number, and so does
// global.minldst, a correction term for load–store overlap rather than an
// access class.
func DerivedRate(property string, weight float64) Rate {
	class := classify(property)
	f := strings.Split(property, ".")
	var r Rate
	switch class {
	case classGlobalLoad, classGlobalStore, classLocal:
		r.Unit = "GB/s"
		b := accessBytes(f)
		if b == 0 {
			return Rate{Note: "unknown data type"}
		}
		r.Value = b / weight / 1e9
	case classAtomic:
		r.Unit, r.Value = "GOP/s", 1/weight/1e9
	case classFlop:
		r.Unit, r.Value = "GFLOP/s", 1/weight/1e9
	case classInt:
		r.Unit, r.Value = "GOP/s", 1/weight/1e9
	case classSync:
		r.Unit, r.Value = "ns", weight*1e9
	case classLaunch:
		if property == "launch.const" {
			r.Unit, r.Value = "µs", weight*1e6
		} else {
			r.Unit, r.Value = "ns", weight*1e9
		}
	case classMinLdSt:
		return Rate{Note: "correction term"}
	case classConflict:
		// Counted beside the access itself: the extra time a conflicted
		// access costs, not a bandwidth.
		r.Unit, r.Value = "ns", weight*1e9
	default:
		return Rate{Note: "unknown property"}
	}
	switch {
	case weight < 0:
		r.Value, r.Note = 0, "negative weight"
	case weight == 0:
		r.Value, r.Note = 0, "zero weight"
	default:
		r.OK = true
	}
	return r
}
