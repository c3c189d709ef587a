package tune

import (
	"math"
	"strings"
	"testing"
)

// TestMeasuredArrowRoundTrip writes a ranking with made-up measured
// times as Arrow, an int, a float and a string tunable among its
// columns, and reads it back as a measurement table: every row's
// tunables, time and prediction as given, and the untimed row's time
// NaN.
func TestMeasuredArrowRoundTrip(t *testing.T) {
	s, err := ReadSpace([]byte(`{"tune_params": {"BX": [16, 32], "f": [0.5, 2], "mode": ["a", "b"]}}`), "s")
	if err != nil {
		t.Fatal(err)
	}
	configs, err := s.Configs()
	if err != nil {
		t.Fatal(err)
	}
	results := make([]Result, len(configs))
	for i, c := range configs {
		results[i] = Result{Config: c, Rank: i + 1, Predicted: float64(i+1) * 1e-3, Measured: float64(9-i) * 1e-4}
	}
	results[3].Measured = 0
	data, err := WriteArrow(s, results, "")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := ReadMeasured(data, "r.arrow")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 8 {
		t.Fatalf("%d rows, want 8", len(rows))
	}
	for i, r := range rows {
		bx := []int64{16, 16, 16, 16, 32, 32, 32, 32}[i]
		f := []float64{0.5, 0.5, 2, 2}[i%4]
		mode := []string{"a", "b"}[i%2]
		if r.Config["BX"].Kind != Int || r.Config["BX"].I != bx || r.Config["f"].F != f || r.Config["mode"].S != mode || len(r.Config) != 3 {
			t.Errorf("row %d: %v, want BX=%d f=%g mode=%s", i, r.Config, bx, f, mode)
		}
		wantTime := float64(9-i) * 1e-4
		if i == 3 {
			if !math.IsNaN(r.Time) {
				t.Errorf("row 3 was not timed, read %g", r.Time)
			}
		} else if math.Abs(r.Time-wantTime) > 1e-15 {
			t.Errorf("row %d: time %g, want %g", i, r.Time, wantTime)
		}
		if math.Abs(r.Predicted-float64(i+1)*1e-3) > 1e-15 {
			t.Errorf("row %d: predicted %g", i, r.Predicted)
		}
	}
	for i := range results {
		results[i].Measured = 0
	}
	untimed, _ := WriteArrow(s, results, "")
	if _, err := ReadMeasured(untimed, "p.arrow"); err == nil || !strings.Contains(err.Error(), `p.arrow: no "time" column`) {
		t.Errorf("a ranking without times: %v", err)
	}
	if _, err := ReadMeasured(data[:len(data)/2], "cut.arrow"); err == nil || !strings.Contains(err.Error(), "cut.arrow") {
		t.Errorf("a truncated file: %v", err)
	}
}

// TestTimedOn reads back the device WriteArrow records: the name given,
// nothing where none was given, and nothing from CSV, which has no place
// for it; the times read the same either way.
func TestTimedOn(t *testing.T) {
	s, err := ReadSpace([]byte(`{"tune_params": {"BX": [16, 32]}}`), "s")
	if err != nil {
		t.Fatal(err)
	}
	configs, err := s.Configs()
	if err != nil {
		t.Fatal(err)
	}
	results := []Result{{Config: configs[0], Rank: 1, Predicted: 1e-3, Measured: 2e-3}, {Config: configs[1], Rank: 2, Predicted: 2e-3}}
	const device = "pthread-haswell-Example CPU 9000"
	for _, c := range []struct{ timedOn, want string }{{device, device}, {"", ""}} {
		data, err := WriteArrow(s, results, c.timedOn)
		if err != nil {
			t.Fatal(err)
		}
		got, err := TimedOn(data, "r.arrow")
		if err != nil || got != c.want {
			t.Errorf("WriteArrow(%q): TimedOn %q, %v; want %q", c.timedOn, got, err, c.want)
		}
		rows, err := ReadMeasured(data, "r.arrow")
		if err != nil || len(rows) != 2 || rows[0].Time != 2e-3 {
			t.Errorf("WriteArrow(%q): read back %+v, %v", c.timedOn, rows, err)
		}
	}
	csv, err := WriteCSV(s, results)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := TimedOn(csv, "r.csv"); got != "" || err != nil {
		t.Errorf("CSV: TimedOn %q, %v; want nothing", got, err)
	}
}

// FuzzReadMeasured feeds ReadMeasured every format it reads, an Arrow
// table among them: it must return rows or an error, never panic.
func FuzzReadMeasured(f *testing.F) {
	s, _ := ReadSpace([]byte(`{"tune_params": {"BX": [16, 32], "mode": ["a", "b"]}}`), "s")
	configs, _ := s.Configs()
	results := make([]Result, len(configs))
	for i, c := range configs {
		results[i] = Result{Config: c, Rank: i + 1, Predicted: 1e-3, Measured: float64(i+1) * 1e-3}
	}
	table, _ := WriteArrow(s, results, "")
	for _, seed := range [][]byte{table, []byte("rank,BX,predicted_time,time\n1,16,0.5,0.7\n"),
		[]byte(`{"results": [{"configuration": {"BX": 16}, "invalidity": "correct", "measurements": [{"name": "time", "value": 1, "unit": "ms"}]}]}`),
		[]byte(`{"cache": {"16": {"BX": 16, "time": 1.5}}}`)} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ReadMeasured(data, "fuzz")
	})
}
