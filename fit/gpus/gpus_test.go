package gpus

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestShippedDevicesParse(t *testing.T) {
	devices, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	names := Names()
	if !slices.IsSorted(names) || len(devices) != len(names) || len(names) < 12 {
		t.Fatalf("names %v", names)
	}
	for i, d := range devices {
		if d.File != "devices/"+names[i]+".json" {
			t.Errorf("%s: file %q", names[i], d.File)
		}
	}
}

// The numbers of Hong and Kim's Tables 3 and 6, typed from the paper.
func TestHongKimTables3And6(t *testing.T) {
	type row struct {
		sms                       int
		clock, bw                 float64
		cc                        string
		memLD, delUncoal, delCoal float64
		coalPerMW, uncoalPerMW    float64
	}
	fx := func(sms int, clock, bw float64, cc string) row {
		return row{sms, clock, bw, cc, 420, 10, 4, 1, 32}
	}
	want := map[string]row{
		"8800gtx":       fx(16, 1.35e9, 86.4e9, "1.0"),
		"quadro-fx5600": fx(16, 1.35e9, 76.8e9, "1.0"),
		"8800gt":        fx(14, 1.5e9, 57.6e9, "1.1"),
		"gtx280":        {30, 1.3e9, 141.7e9, "1.3", 450, 40, 4, 1, 0},
	}
	for key, w := range want {
		d, err := Lookup(key)
		if err != nil {
			t.Fatal(err)
		}
		h, err := d.HongKimParams()
		if err != nil {
			t.Fatal(err)
		}
		got := row{d.SMs, d.ClockHz, d.MemBandwidth, d.ComputeCapability, h.MemLD, h.DepartureDelUncoal,
			h.DepartureDelCoal, h.CoalPerMW, h.UncoalPerMW}
		if got != w {
			t.Errorf("%s: %+v, want %+v", key, got, w)
		}
		if h.IssueCycles != 4 {
			t.Errorf("%s: Issue_cycles %g, want 4 (Table 1)", key, h.IssueCycles)
		}
	}
}

// Resios's Table 3.1, typed from the thesis.
func TestResiosTable31(t *testing.T) {
	d, err := Lookup("GTX460")
	if err != nil {
		t.Fatal(err)
	}
	r, err := d.ResiosParams()
	if err != nil {
		t.Fatal(err)
	}
	table := map[string]ResiosInstruction{
		"add": {16, 32, 16}, "mul": {20, 16, 16}, "madd": {22, 16, 11}, "div": {317, 1.8, 5},
		"and": {16, 32, 16}, "fadd": {16, 32, 16}, "fmadd": {18, 32, 16}, "fmul": {16, 32, 16},
		"fdiv": {711, 0.75, 4}, "sqrt": {269, 1.6, 5},
	}
	if len(r.Instructions) != len(table) {
		t.Errorf("%d instructions, want %d", len(r.Instructions), len(table))
	}
	for k, w := range table {
		if r.Instructions[k] != w {
			t.Errorf("%s: %+v, want %+v", k, r.Instructions[k], w)
		}
	}
	if r.Global.Latency != 500 || r.Shared.Latency != 36 || d.SMs != 7 || d.ClockHz != 1.35e9 {
		t.Errorf("memory latencies or machine: %+v %+v %d %g", r.Global, r.Shared, d.SMs, d.ClockHz)
	}
}

func TestLookup(t *testing.T) {
	for _, name := range []string{"h100-sxm5", "H100 SXM5 80GB", "nvidia h100 80gb hbm3", "  GTX280 ", "pthread-skylake-avx512-AMD EPYC"} {
		if _, err := Lookup(name); err != nil {
			t.Errorf("Lookup(%q): %v", name, err)
		}
	}
	_, err := Lookup("Voodoo2")
	if !errors.Is(err, ErrNotShipped) || !strings.HasPrefix(err.Error(), `no device file for "Voodoo2"; shipped devices: `) || !strings.Contains(err.Error(), "gtx280") {
		t.Errorf("unknown device: %v", err)
	}
	// Other CPUs under the same PoCL build share pocl-cpu's prefix and
	// vendor, not its caches: none of them is pocl-cpu.
	for _, name := range []string{"pthread-skylake-avx512-Intel(R) Xeon(R) Processor", "pthread-skylake-avx512-AMD EPYC 7B13", "pthread-skylake-avx512-AMD", "pthread-skylake-avx512-"} {
		if d, err := Lookup(name); !errors.Is(err, ErrNotShipped) {
			t.Errorf("Lookup(%q) = %v, %v; want no device file", name, d, err)
		}
	}
}

func TestMissingParameters(t *testing.T) {
	h100, err := Lookup("h100-sxm5")
	if err != nil {
		t.Fatal(err)
	}
	var m *MissingError
	// Hopper's issue rate is known, its memory constants are calibrated.
	if _, err := h100.HongKimParams(); !errors.As(err, &m) || m.Field != "hongkim.mem_ld" || m.File != "devices/h100-sxm5.json" {
		t.Errorf("H100 Hong–Kim: %v", err)
	}
	gtx970, err := Lookup("gtx970")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gtx970.HongKimParams(); !errors.As(err, &m) || m.Field != "hongkim" || !m.Section || m.File != "devices/gtx970.json" {
		t.Errorf("GTX 970 Hong–Kim: %v", err)
	}
	if _, err := h100.ResiosParams(); !errors.As(err, &m) || m.Field != "resios" {
		t.Errorf("H100 Resios: %v", err)
	}

	d, err := Lookup("gtx280")
	if err != nil {
		t.Fatal(err)
	}
	d.HongKim.MemLD = 0
	_, err = d.HongKimParams()
	if !errors.As(err, &m) || m.Field != "hongkim.mem_ld" || !strings.Contains(err.Error(), "gtx280.json") {
		t.Errorf("missing mem_ld: %v", err)
	}

	// Calibration needs only Issue_cycles and the bandwidth: the PoCL CPU
	// has no measured memory constants, and the full set is missing.
	pocl, err := Lookup("pocl-cpu")
	if err != nil {
		t.Fatal(err)
	}
	if h, err := pocl.HongKimFixedParams(); err != nil || h.IssueCycles != 1 || h.SegmentBytes != 64 {
		t.Errorf("PoCL fixed Hong–Kim constants: %+v, %v", h, err)
	}
	if _, err := pocl.HongKimParams(); !errors.As(err, &m) || m.Field != "hongkim.mem_ld" {
		t.Errorf("PoCL full Hong–Kim constants: %v", err)
	}
	pocl.HongKim.IssueCycles = 0
	if _, err := pocl.HongKimFixedParams(); !errors.As(err, &m) || m.Field != "hongkim.issue_cycles" || m.File != "devices/pocl-cpu.json" {
		t.Errorf("missing issue_cycles: %v", err)
	}
	pocl.MemBandwidth = 0
	if _, err := pocl.HongKimFixedParams(); !errors.As(err, &m) || m.Field != "mem_bandwidth_bytes_per_s" {
		t.Errorf("missing bandwidth: %v", err)
	}
	if _, err := gtx970.HongKimFixedParams(); !errors.As(err, &m) || !m.Section {
		t.Errorf("GTX 970 fixed Hong–Kim constants: %v", err)
	}

	g, err := Lookup("gtx460")
	if err != nil {
		t.Fatal(err)
	}
	in := g.Resios.Instructions["fdiv"]
	in.Throughput = 0
	g.Resios.Instructions["fdiv"] = in
	if _, err := g.ResiosParams(); !errors.As(err, &m) || m.Field != "resios.instructions.fdiv.throughput" {
		t.Errorf("missing throughput: %v", err)
	}
}

func TestCycleWeights(t *testing.T) {
	defaults := map[string]float64{"add": 24, "exp": 40}
	// The H100 PCIe file has no cycle weights (no table of it ships).
	pcie, _ := Lookup("h100-pcie")
	w, from := pcie.CycleWeights(defaults)
	if from != "defaults" || w["add"] != 24 {
		t.Errorf("H100 PCIe: %v from %s", w, from)
	}
	g, _ := Lookup("gtx460")
	w, from = g.CycleWeights(defaults)
	if from != "devices/gtx460.json" || w["add"] != 16 || w["exp"] != 40 || w["global"] != 500 {
		t.Errorf("GTX 460: %v from %s", w, from)
	}
	if defaults["add"] != 24 {
		t.Error("defaults modified")
	}
}

const minimal = `{
  "name": "Test GPU", "kind": "gpu", "vendor": "x", "sources": ["test"],
  "sm_count": 2, "clock_hz": 1e9,
  "limits": {"warp_size": 32, "max_threads_per_block": 1024, "max_threads_per_sm": 2048,
    "max_warps_per_sm": 64, "max_blocks_per_sm": 16, "shared_per_sm": 49152,
    "max_shared_per_block": 49152, "shared_alloc_unit": 256}
}`

func TestParseErrors(t *testing.T) {
	if _, err := Parse("min.json", []byte(minimal)); err != nil {
		t.Fatalf("minimal file: %v", err)
	}
	cases := []struct {
		name, src, want string
	}{
		{"syntax", "{\n  \"name\": ,\n}", "min.json: 2:11"},
		{"unknown field", strings.Replace(minimal, `"vendor"`, `"vendr"`, 1), `unknown field "vendr"`},
		{"wrong type", strings.Replace(minimal, `"sm_count": 2`, `"sm_count": "two"`, 1), "min.json: 3:"},
		{"trailing data", minimal + "{}", "unexpected data"},
		{"no sources", strings.Replace(minimal, `["test"]`, `[]`, 1), "sources is empty"},
		{"bad kind", strings.Replace(minimal, `"gpu"`, `"fpga"`, 1), "kind"},
		{"zero clock", strings.Replace(minimal, `1e9`, `0`, 1), "clock_hz"},
		{"threads vs warps", strings.Replace(minimal, `"max_threads_per_sm": 2048`, `"max_threads_per_sm": 2000`, 1), "max_threads_per_sm 2000"},
		{"registers incomplete", strings.Replace(minimal, `"max_blocks_per_sm": 16`, `"max_blocks_per_sm": 16, "regs_per_sm": 65536`, 1), "max_regs_per_block"},
		{"negative constant", strings.Replace(minimal, `"clock_hz": 1e9`, `"clock_hz": 1e9, "hongkim": {"mem_ld": -1, "source": "x"}`, 1), "hongkim.mem_ld"},
		{"no banks", strings.Replace(minimal, `"clock_hz": 1e9`, `"clock_hz": 1e9, "local_banks": {"banks": 0, "bank_bytes": 4, "source": "x"}`, 1), "local_banks.banks must be 1 to 64, have 0"},
		{"too many banks", strings.Replace(minimal, `"clock_hz": 1e9`, `"clock_hz": 1e9, "local_banks": {"banks": 65, "bank_bytes": 4, "source": "x"}`, 1), "local_banks.banks must be 1 to 64, have 65"},
		{"wide banks", strings.Replace(minimal, `"clock_hz": 1e9`, `"clock_hz": 1e9, "local_banks": {"banks": 32, "bank_bytes": 32, "source": "x"}`, 1), "local_banks.bank_bytes must be 1 to 16, have 32"},
		{"banks without source", strings.Replace(minimal, `"clock_hz": 1e9`, `"clock_hz": 1e9, "local_banks": {"banks": 32, "bank_bytes": 4}`, 1), "local_banks.source is empty"},
		{"shared per block above per SM", strings.Replace(minimal, `"max_shared_per_block": 49152`, `"max_shared_per_block": 99999`, 1), "exceeds"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("min.json", []byte(c.src))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

// A parsed device survives a JSON round trip unchanged.
func TestRoundTrip(t *testing.T) {
	for _, name := range Names() {
		d, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Parse(d.File, data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		again, _ := json.Marshal(back)
		if string(again) != string(data) {
			t.Errorf("%s: round trip changed the device", name)
		}
	}
}

// TestCoalPerMWMatchesSegments: a file that gives both #Coal_per_mw and a
// sector size must agree with itself. A coalesced warp of W work-items
// reading 4-byte elements spans 4W bytes: on Hopper 32·4 = 128 bytes, four
// 32-byte sectors; on the PoCL CPU 8·4 = 32 bytes, within one 64-byte line.
func TestCoalPerMWMatchesSegments(t *testing.T) {
	devices, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, d := range devices {
		h := d.HongKim
		if h == nil || h.SegmentBytes == 0 || h.CoalPerMW == 0 {
			continue
		}
		checked++
		if want := math.Ceil(float64(4*d.Limits.WarpSize) / h.SegmentBytes); h.CoalPerMW != want {
			t.Errorf("%s: coal_per_mw %g, but a coalesced warp of %d work-items of f32 touches %g sectors of %g bytes",
				d.File, h.CoalPerMW, d.Limits.WarpSize, want, h.SegmentBytes)
		}
	}
	if checked < 4 { // the H100 SXM5 and PCIe, the H200, the PoCL CPU
		t.Errorf("%d files give both coal_per_mw and segment_bytes, want at least 4", checked)
	}
}
