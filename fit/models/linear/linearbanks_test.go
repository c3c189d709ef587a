package linear

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/models"
)

// bankDegrees are local_bank's conflict degrees at stride S (f32, so one
// 4-byte word per element), derived by hand for each layout. B banks of 4
// bytes, warps of B lanes: lane l reads word S*l, in bank S*l mod B, so
// gcd(S, B) lanes meet in a bank, each at another word. 32 banks of 8
// bytes: lane l reads word floor(S*l/2); S = 1 puts two lanes on one word
// (no conflict), S = 2 one lane a bank, S = 4, 8, 32 put 2, 4 and 16 lanes
// on words S/2*l of the banks S/2*l mod 32.
var bankDegrees = map[fit.BankLayout]map[int64]int64{
	{Banks: 32, BankBytes: 4}: {1: 1, 2: 2, 4: 4, 8: 8, 32: 32},
	{Banks: 16, BankBytes: 4}: {1: 1, 2: 2, 4: 4, 8: 8, 32: 16},
	{Banks: 32, BankBytes: 8}: {1: 1, 2: 1, 4: 2, 8: 4, 32: 16},
}

// A Counter counts local_bank's conflicts with its own layout: at n =
// 1024 with LX = 256 and R = 32, every one of its n*R = 32768 local loads
// and n + (n/LX)*R = 1152 local stores has the degree of bankDegrees, so
// that local.f32.conflict=D counts 33920 where D > 1 and nothing
// otherwise.
func TestCounterBanks(t *testing.T) {
	for _, layout := range slices.SortedFunc(maps.Keys(bankDegrees), func(a, b fit.BankLayout) int { return a.Banks*100 + a.BankBytes - b.Banks*100 - b.BankBytes }) {
		c := models.NewCounterWith(nil, layout)
		if c.Banks() != layout {
			t.Fatalf("Banks() = %v, want %v", c.Banks(), layout)
		}
		for s, degree := range bankDegrees[layout] {
			v, err := c.Counts("local_bank", map[string]int64{"S": s}, map[string]int64{"n": 1024})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]int64{}
			for p, n := range v {
				if strings.Contains(p, ".conflict=") {
					got[p] = n
				}
			}
			want := map[string]int64{}
			if degree > 1 {
				want["local.f32.conflict="+strconv.FormatInt(degree, 10)] = 33920
			}
			if !maps.Equal(got, want) {
				t.Errorf("%v, S = %d: conflicts %v, want %v", layout, s, got, want)
			}
		}
	}
}

// bankTable is a synthetic measurement table of local_bank on device,
// stride S = 1, 2, 4, 8, 32 at three sizes; its times are any positive
// numbers, since the test asks which properties the fit prices.
func bankTable(device string) *datasets.Table {
	t := &datasets.Table{Meta: datasets.Meta{DeviceName: device, Backend: "cuda", Suite: "test", Method: "synthetic"}}
	for _, s := range []int64{1, 2, 4, 8, 32} {
		for _, n := range []int64{1 << 16, 1 << 18, 1 << 20} {
			secs := 1e-9 * float64(n) * float64(1+s)
			t.Rows = append(t.Rows, datasets.Row{
				Device: device, Backend: "cuda", Kernel: "local_bank", Class: "local_bank", Role: datasets.RoleMeasurement, Variant: "v",
				Consts: map[string]int64{"S": s}, Params: map[string]int64{"n": n},
				LocalSize: []int64{256}, GlobalSize: []int64{n},
				TimeS: secs, RawTimesS: []float64{secs}, RunsKept: 1,
				Timestamp: time.Unix(0, 0).UTC(), Version: "test",
			})
		}
	}
	return t
}

// A fit on a device's tables with the device's layout records it, prices
// the conflict degrees of that layout (16-way on a GeForce 8800 GT, whose
// half-warps meet 16 banks, where the default layout would have 32-way),
// and predictions with the weights refuse a Counter of another layout.
func TestFitRecordsBanks(t *testing.T) {
	tables := map[string]*datasets.Table{"g80": bankTable("GeForce 8800GT")}
	banks, err := models.TablesBanks(tables)
	if err != nil {
		t.Fatal(err)
	}
	if banks != (fit.BankLayout{Banks: 16, BankBytes: 4}) {
		t.Fatalf("TablesBanks = %v, want 16 banks of 4 bytes", banks)
	}
	c := models.NewCounterWith(nil, banks)
	w, err := CalibrateTables(c, tables, Options{Fit: fit.Options{NonNegative: true, MinNorm: true}})
	if err != nil {
		t.Fatal(err)
	}
	if w.Banks == nil || *w.Banks != banks {
		t.Fatalf("weights record %v, want %v", w.Banks, banks)
	}
	for _, p := range []string{"local.f32.conflict=2", "local.f32.conflict=4", "local.f32.conflict=8", "local.f32.conflict=16"} {
		if _, ok := w.Weight(p); !ok {
			t.Errorf("the weights have no %s: %v", p, w.Properties)
		}
	}
	if _, ok := w.Weight("local.f32.conflict=32"); ok {
		t.Errorf("the weights price local.f32.conflict=32, which 16 banks cannot have")
	}
	params := map[string]int64{"n": 1 << 16}
	if _, _, err := Predict(c, w, "local_bank", map[string]int64{"S": 32}, params); err != nil {
		t.Fatal(err)
	}
	other := models.NewCounter(nil)
	_, _, err = Predict(other, w, "local_bank", map[string]int64{"S": 32}, params)
	if err == nil || !strings.Contains(err.Error(), "fitted on counts of local memory in 16 banks of 4 bytes, and the kernels are counted with 32 banks of 4 bytes") {
		t.Errorf("prediction with the default layout: %v", err)
	}
	if _, err := NewPredictor(other, w, "local_bank", map[string]int64{"S": 32}); err == nil {
		t.Error("Predictor with the default layout: no error")
	}
	if _, err := Validate(other, w, models.Rows(tables, "")); err == nil {
		t.Error("Validate with the default layout: no error")
	}
	// Weights that record no layout were counted with the default (the
	// default's 32-way conflicts are then priced at zero).
	w.Banks, w.ZeroMissing = nil, true
	if _, _, err := Predict(other, w, "local_bank", map[string]int64{"S": 32}, params); err != nil {
		t.Errorf("weights without a layout, default counter: %v", err)
	}
	if _, _, err := Predict(c, w, "local_bank", map[string]int64{"S": 32}, params); err == nil {
		t.Error("weights without a layout, 16-bank counter: no error")
	}
}
