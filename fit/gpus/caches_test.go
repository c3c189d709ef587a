package gpus

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestShippedCaches checks the cache capacities of the shipped devices
// for consistency with their other numbers: a GPU whose L1 and shared
// memory share one array has at least its shared memory there, and a
// device that caches global loads in L1 has an L2 too.
func TestShippedCaches(t *testing.T) {
	devs, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	with := 0
	for _, d := range devs {
		c := d.Caches
		if c == nil {
			continue
		}
		with++
		if d.Kind == "gpu" && c.L1PerSM > 0 && c.L1PerSM < int64(d.Limits.SharedPerSM) {
			t.Errorf("%s: l1_bytes_per_sm %d is below shared_per_sm %d, which it holds", d.Name, c.L1PerSM, d.Limits.SharedPerSM)
		}
		if c.L1PerSM > 0 && c.L2 == 0 {
			t.Errorf("%s: an L1 of %d bytes and no L2", d.Name, c.L1PerSM)
		}
	}
	for _, name := range []string{"h100-sxm5", "h100-pcie", "h200", "pocl-cpu"} {
		d, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if d.Caches == nil || d.Caches.L2 == 0 {
			t.Errorf("%s: no L2 capacity", name)
		}
	}
	if with < 4 {
		t.Errorf("%d devices give caches", with)
	}
}

// TestCachesValidation checks that a capacity out of range or a missing
// source is refused, naming the field.
func TestCachesValidation(t *testing.T) {
	data, err := os.ReadFile("devices/h100-sxm5.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ from, to, want string }{
		{`"l2_bytes": 52428800`, `"l2_bytes": -1`, "caches.l2_bytes must be 0 to"},
		{`"l1_bytes_per_sm": 262144`, `"l1_bytes_per_sm": 1073741824`, "caches.l1_bytes_per_sm must be 0 to"},
		{`"l2_bytes": 52428800`, `"l2_bytes": 52428800, "l3_bytes": 8589934592`, "caches.l3_bytes must be 0 to"},
		{`"l2_bytes": 52428800`, `"l2_bytes": 52428800, "l3_shared_bytes": -1`, "caches.l3_shared_bytes must be 0 to"},
		{`"l2_bytes": 52428800`, `"l2_bytes": 52428800, "l2_ways": 65`, "caches.l2_ways must be 0 (unknown) to 64"},
		{`"l2_bytes": 52428800`, `"l2_bytes": 52428800, "l1_ways": -1`, "caches.l1_ways must be 0 (unknown) to 64"},
		{`"l2_bytes": 52428800`, `"l2_bytes": 52428800, "l1_dtlb_entries": -1`, "caches.l1_dtlb_entries must be 0 (unknown) to 65536"},
		{`"l2_bytes": 52428800`, `"l2_bytes": 52428800, "l1_dtlb_entries": 65537`, "caches.l1_dtlb_entries must be 0 (unknown) to 65536"},
		{`(?s)("l2_bytes": 52428800,\s*"source": )"[^"]*"`, `$1""`, "caches.source is empty"},
	} {
		bad := strings.Replace(string(data), c.from, c.to, 1)
		if strings.HasPrefix(c.from, "(?s)") {
			bad = regexp.MustCompile(c.from).ReplaceAllString(string(data), c.to)
		}
		if bad == string(data) {
			t.Fatalf("%q not in the file", c.from)
		}
		if _, err := Parse("h100-sxm5.json", []byte(bad)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.to, err, c.want)
		}
	}
}

// TestCachesL2Sets checks that l2_ways must leave each core's L2 a
// power of two of 64-byte sets, as the conflict counts take it: the
// PoCL CPU's 2 MiB over 2 cores is 16384 lines a core, 1024 sets at its
// 16 ways, 2048 at 8, 1365.33 at 12 (refused); an H100's 50 MiB over
// 132 SMs at 16 ways is 387.88 sets (refused). l1_ways likewise for a
// core's L1: the PoCL CPU's 48 KiB is 768 lines, 64 sets at its 12 ways,
// 128 at 6, 96 at 8 (refused); 65 ways are out of range.
func TestCachesL2Sets(t *testing.T) {
	for _, c := range []struct {
		file, from, to, want string // want "" where the file is accepted
	}{
		{"pocl-cpu.json", `"l2_ways": 16`, `"l2_ways": 16`, ""},
		{"pocl-cpu.json", `"l2_ways": 16`, `"l2_ways": 8`, ""},
		{"pocl-cpu.json", `"l2_ways": 16`, `"l2_ways": 12`, "caches.l2_ways 12: each core's L2 (caches.l2_bytes 2097152 over sm_count 2) in 64-byte lines over 12 ways is 1365.33 sets, not a power of two"},
		{"pocl-cpu.json", `"l2_bytes": 2097152`, `"l2_bytes": 0`, "is 0 sets, not a power of two"},
		{"pocl-cpu.json", `"l1_ways": 12`, `"l1_ways": 6`, ""},
		{"pocl-cpu.json", `"l1_ways": 12`, `"l1_ways": 8`, "caches.l1_ways 8: a core's L1 (caches.l1_bytes_per_sm 49152) in 64-byte lines over 8 ways is 96 sets, not a power of two"},
		{"pocl-cpu.json", `"l1_ways": 12`, `"l1_ways": 65`, "caches.l1_ways must be 0 (unknown) to 64, have 65"},
		{"h100-sxm5.json", `"l2_bytes": 52428800`, `"l2_bytes": 52428800, "l2_ways": 16`, "is 387.879 sets, not a power of two"},
	} {
		data, err := os.ReadFile("devices/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		src := strings.Replace(string(data), c.from, c.to, 1)
		if !strings.Contains(string(data), c.from) {
			t.Fatalf("%s: %q not in the file", c.file, c.from)
		}
		_, err = Parse(c.file, []byte(src))
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s with %s: error %v, want %q", c.file, c.to, err, c.want)
		}
	}
}
