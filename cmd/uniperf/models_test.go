package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit/models"
)

func runFit(t *testing.T, args ...string) (int, string, string) {
	return runCommand(t, fitCmd, append([]string{"fit"}, args...)...)
}

func runPredict(t *testing.T, args ...string) (int, string, string) {
	return runCommand(t, predictCmd, append([]string{"predict"}, args...)...)
}

func runValidate(t *testing.T, args ...string) (int, string, string) {
	return runCommand(t, validateCmd, append([]string{"validate"}, args...)...)
}

// TestModelFlagCycles calibrates the cycle-weighted model on the GTX 460
// table of vsaTable, then predicts and validates with the calibration
// file: calibrated on 2^16 in 100 µs, it predicts 2^18 in 400 µs (the
// estimate is proportional to n), 20% below the 500 µs measured.
func TestModelFlagCycles(t *testing.T) {
	table := vsaTable(t)
	cal := filepath.Join(t.TempDir(), "gtx460.cycles.json")
	code, out, errText := runFit(t, table, "--model", "cycles", "--out", cal)
	if code != 0 {
		t.Fatalf("fit: exit %d: %s", code, errText)
	}
	if !strings.Contains(out, "vector_scale_add LX=256 STRIDE=1  n=65536") || !strings.Contains(out, "wrote "+cal) {
		t.Errorf("fit output:\n%s", out)
	}
	var f struct {
		Schema, Model, Device string
		Calibration           struct {
			Kernels []struct {
				Key             string
				AdjustingWeight float64 `json:"adjusting_weight"`
			}
		}
	}
	data, err := os.ReadFile(cal)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &f); err != nil || f.Schema != models.CalibrationSchema || f.Model != "cycles" || f.Device != "GeForce GTX 460" || len(f.Calibration.Kernels) != 1 {
		t.Fatalf("calibration file %+v (%v):\n%s", f, err, data)
	}
	// 2^16 work-items × 1548 cycles / 1.35 GHz (occupancy 1) over 100 µs.
	if aw, want := f.Calibration.Kernels[0].AdjustingWeight, 65536*1548/1.35e9/1e-4; !near(aw, want) {
		t.Errorf("adjusting weight %g, want %g", aw, want)
	}

	code, out, errText = runPredict(t, "--model", "cycles", "--weights", cal, "vector_scale_add", "--param", "n=262144", "--const", "LX=256", "--const", "STRIDE=1")
	if code != 0 || !strings.Contains(out, "predicted 400 µs") || !strings.Contains(out, "adjustingWeight") {
		t.Errorf("predict: exit %d %s\n%s", code, errText, out)
	}
	code, out, errText = runPredict(t, "--model", "cycles", "--weights", cal, "vector_scale_add", "--param", "n=65536,131072", "--const", "LX=256", "--const", "STRIDE=1")
	if code != 0 || !strings.Contains(out, "LX=256 STRIDE=1; n=131072  200 µs") {
		t.Errorf("predict two sizes: exit %d %s\n%s", code, errText, out)
	}

	code, out, errText = runValidate(t, "--model", "cycles", "--weights", cal, table)
	if code != 0 || !hasRow(out, "n=262144 STRIDE=1 @256", "0.50 0.40 0.200") || !hasRow(out, "n=524288 STRIDE=1 @256", "1.00 0.80 0.200") {
		t.Errorf("validate: exit %d %s\n%s", code, errText, out)
	}
	// Cross-validation has one class: nothing to calibrate on without it.
	code, _, errText = runValidate(t, "--model", "cycles", "--cv", table)
	if code != 2 || !strings.Contains(errText, "no other class to calibrate on") {
		t.Errorf("validate --cv: exit %d %s", code, errText)
	}
}

// hasRow reports whether a line of a report holds label and ends with the
// fields of tail.
func hasRow(report, label, tail string) bool {
	for _, line := range strings.Split(report, "\n") {
		if strings.Contains(line, label) && strings.HasSuffix(strings.Join(strings.Fields(line), " "), tail) {
			return true
		}
	}
	return false
}

func near(got, want float64) bool { return got >= want*(1-1e-9) && got <= want*(1+1e-9) }

// TestModelFlagHongKim calibrates Hong–Kim on the shipped PoCL table and
// predicts with it; cross-validation runs through the same flag.
func TestModelFlagHongKim(t *testing.T) {
	cal := filepath.Join(t.TempDir(), "pocl.hongkim.json")
	code, out, errText := runFit(t, "embedded:pocl-epyc-quick.arrow", "--model", "hongkim", "--out", cal)
	if code != 0 || !strings.Contains(out, "Mem_LD") || !strings.Contains(out, "parameters devices/pocl-cpu.json") {
		t.Fatalf("fit: exit %d %s\n%s", code, errText, out)
	}
	code, out, errText = runPredict(t, "--model", "hongkim", "--weights", cal, "matmul_tiled", "--param", "n=256", "--param", "m=256", "--param", "ell=256", "--json")
	var p modelPrediction
	if code != 0 || json.Unmarshal([]byte(out), &p) != nil || p.Model != "hongkim" || !(p.Predicted > 0) || len(p.Explain) < 10 {
		t.Errorf("predict: exit %d %s\n%s", code, errText, out)
	}
	code, out, errText = runValidate(t, "--model", "hongkim", "--cv", "embedded:pocl-epyc-quick.arrow")
	if code != 0 || !strings.Contains(out, "not predicted: empty") || !strings.Contains(out, "cross-kernel") {
		t.Errorf("validate --cv: exit %d %s\n%s", code, errText, out)
	}
}

func TestModelFlagErrors(t *testing.T) {
	table := vsaTable(t)
	dir := t.TempDir()
	cal := filepath.Join(dir, "cycles.json")
	if code, _, errText := runFit(t, table, "--model", "cycles", "--out", cal); code != 0 {
		t.Fatal(errText)
	}
	notJSON := filepath.Join(dir, "weights.arrow")
	if err := os.WriteFile(notJSON, []byte("ARROW1"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		run  func() (int, string, string)
		want string
	}{
		{"fit unknown model", func() (int, string, string) {
			return runFit(t, table, "--model", "oracle", "--out", filepath.Join(dir, "x"))
		}, `--model: no model "oracle"`},
		{"fit device without the section", func() (int, string, string) {
			return runFit(t, table, "--model", "hongkim", "--out", filepath.Join(dir, "x"))
		}, "device file devices/gtx460.json has no hongkim section"},
		{"fit linear options with another model", func() (int, string, string) {
			return runFit(t, table, "--model", "cycles", "--free", "--out", filepath.Join(dir, "x"))
		}, "concern the linear model's fit, not the cycles model's"},
		{"fit linear with a device file", func() (int, string, string) {
			return runFit(t, table, "--device-file", "x.json", "--out", filepath.Join(dir, "x"))
		}, "--device-file is for models other than linear"},
		{"predict with another model's calibration", func() (int, string, string) {
			return runPredict(t, "--model", "hongkim", "--weights", cal, "vector_scale_add", "--param", "n=64")
		}, "holds a calibration of the cycles model, not of hongkim (give --model cycles)"},
		{"predict with a file that is not a calibration", func() (int, string, string) {
			return runPredict(t, "--model", "cycles", "--weights", notJSON, "vector_scale_add", "--param", "n=64")
		}, "is not a calibration file written by uniperf fit --model"},
		{"predict a kernel without work", func() (int, string, string) {
			return runPredict(t, "--model", "cycles", "--weights", cal, "empty", "--param", "n=64")
		}, "the model sees no work in this kernel"},
		{"validate another device", func() (int, string, string) {
			return runValidate(t, "--model", "cycles", "--weights", cal, "embedded:pocl-epyc-quick.arrow")
		}, `was measured on "pthread-skylake-avx512-AMD EPYC" but ` + cal + ` calibrates "GeForce GTX 460"`},
		{"validate unknown model", func() (int, string, string) {
			return runValidate(t, "--model", "oracle", "--cv", table)
		}, `no model "oracle"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, errText := c.run()
			if code != 2 || !strings.Contains(errText, c.want) {
				t.Errorf("exit %d, error %q; want 2 and %q", code, errText, c.want)
			}
		})
	}
}

// TestHongkimTrafficFlag checks --hongkim-traffic: fit writes the option
// into the calibration file (the hierarchy extension when asked, seed
// 002's paper traffic by default on PoCL, a CPU), and a value that names
// no option, or the flag without the hongkim model, is bad usage.
func TestHongkimTrafficFlag(t *testing.T) {
	for _, c := range []struct{ flag, want string }{{"hierarchy", `"traffic": "hierarchy"`}, {"", `"traffic": "paper"`}} {
		cal := filepath.Join(t.TempDir(), "pocl.hongkim.json")
		args := []string{"embedded:pocl-epyc-quick.arrow", "--model", "hongkim", "--out", cal}
		if c.flag != "" {
			args = append(args, "--hongkim-traffic", c.flag)
		}
		code, out, errText := runFit(t, args...)
		data, err := os.ReadFile(cal)
		if code != 0 || err != nil || !strings.Contains(string(data), c.want) || !strings.Contains(out, "traffic)") {
			t.Errorf("fit --hongkim-traffic %q: exit %d %s, file lacks %s:\n%s", c.flag, code, errText, c.want, data)
		}
	}
	code, _, errText := runFit(t, "embedded:pocl-epyc-quick.arrow", "--model", "hongkim", "--hongkim-traffic", "dram", "--out", filepath.Join(t.TempDir(), "x.json"))
	if code != 2 || !strings.Contains(errText, `--hongkim-traffic "dram": give hierarchy or paper`) {
		t.Errorf("fit --hongkim-traffic dram: exit %d, %q", code, errText)
	}
	code, _, errText = runCompare(t, "embedded:pocl-epyc-quick.arrow", "--models", "linear,cycles", "--hongkim-traffic", "paper")
	if code != 2 || !strings.Contains(errText, "not among the models (linear, cycles)") {
		t.Errorf("compare --models linear,cycles --hongkim-traffic paper: exit %d, %q", code, errText)
	}
}
