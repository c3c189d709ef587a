package datasets

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"math"
	"unicode/utf8"
)

// keyChecksum is the schema metadata key of a table's checksum: SHA-256
// of its decoded content (every metadata value and every cell, floats by
// their bits), so that a flipped byte that still decodes, in a time as
// much as in a name, is caught. Tables written before it (the shipped
// ones among them) have none and are read unchecked.
const keyChecksum = "uniperf.checksum"

// checksum returns t's checksum, "sha256:" and 64 hex digits.
func checksum(t *Table) string {
	h := sha256.New()
	m := t.Meta
	for _, s := range []string{m.DeviceName, m.DeviceVendor, m.DeviceDriver, m.Backend, m.Suite, m.Method, m.Calibration} {
		putString(h, s)
	}
	for _, v := range []int64{int64(m.ComputeUnits), int64(m.ClockMHz), m.GlobalMemBytes, m.LocalMemBytes, int64(len(t.Rows))} {
		putInt(h, v)
	}
	for _, r := range t.Rows {
		for _, s := range []string{r.Device, r.Backend, r.Kernel, r.Class, r.Role, r.Variant, r.Version} {
			putString(h, s)
		}
		for _, mp := range []map[string]int64{r.Consts, r.Params} {
			putInt(h, int64(len(mp)))
			for _, k := range sortedKeys(mp) {
				putString(h, k)
				putInt(h, mp[k])
			}
		}
		for _, list := range [][]int64{r.LocalSize, r.GlobalSize} {
			putInt(h, int64(len(list)))
			for _, v := range list {
				putInt(h, v)
			}
		}
		putInt(h, int64(math.Float64bits(r.TimeS)))
		putInt(h, int64(len(r.RawTimesS)))
		for _, v := range r.RawTimesS {
			putInt(h, int64(math.Float64bits(v)))
		}
		putInt(h, int64(r.RunsKept))
		putInt(h, int64(r.RunsDiscarded))
		putInt(h, r.Timestamp.UnixMicro())
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

func putInt(h hash.Hash, v int64) {
	h.Write(binary.LittleEndian.AppendUint64(nil, uint64(v)))
}

// putString writes s with its length, so that no two lists of strings
// hash alike.
func putString(h hash.Hash, s string) {
	putInt(h, int64(len(s)))
	h.Write([]byte(s))
}

// verify compares t with the checksum stored in its file ("" for none).
func verify(t *Table, stored string) error {
	if stored == "" {
		return nil
	}
	if got := checksum(t); got != stored {
		return &Error{Row: -1, Err: fmt.Errorf("the content does not match the checksum in the metadata (%s %s, content %s): the file was damaged after it was written", keyChecksum, stored, got)}
	}
	return nil
}

// checkUTF8 refuses a string of the metadata or a cell that is not valid
// UTF-8: a flipped byte in a name (kernel vec\xf4or_scale_add) is damage,
// not a new kernel.
func checkUTF8(t *Table) error {
	m := t.Meta
	for _, f := range []struct{ key, v string }{{keyDeviceName, m.DeviceName}, {keyDeviceVendor, m.DeviceVendor},
		{keyDeviceDriver, m.DeviceDriver}, {keyBackend, m.Backend}, {keySuite, m.Suite}, {keyMethod, m.Method}, {keyCalibration, m.Calibration}} {
		if !utf8.ValidString(f.v) {
			return &Error{Row: -1, Err: fmt.Errorf("schema metadata %q is not valid UTF-8: %q", f.key, f.v)}
		}
	}
	for i, r := range t.Rows {
		for _, c := range []struct{ col, v string }{{colDevice, r.Device}, {colBackend, r.Backend}, {colKernel, r.Kernel},
			{colClass, r.Class}, {colRole, r.Role}, {colVariant, r.Variant}, {colVersion, r.Version}} {
			if !utf8.ValidString(c.v) {
				return rowError(i, c.col, "%q is not valid UTF-8", c.v)
			}
		}
		for _, c := range []struct {
			col string
			m   map[string]int64
		}{{colConsts, r.Consts}, {colParams, r.Params}} {
			for _, k := range sortedKeys(c.m) {
				if !utf8.ValidString(k) {
					return rowError(i, c.col, "key %q is not valid UTF-8", k)
				}
			}
		}
	}
	return nil
}
