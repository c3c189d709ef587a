package tune

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Measured is one configuration of a table of measurements: its
// tunables, its measured time and, where the table has one, its
// predicted time (NaN otherwise), both in seconds.
type Measured struct {
	Config    map[string]Value
	Time      float64
	Predicted float64
}

// MaxMeasured bounds the rows of a measurement table.
const MaxMeasured = 2_000_000

func readMeasuredJSON(data []byte, name string) ([]Measured, error) {
	var top struct {
		Results []struct {
			Configuration map[string]json.RawMessage
			Invalidity    string
			Measurements  []struct {
				Name  string
				Value json.RawMessage
				Unit  string
			}
		}
		Cache map[string]map[string]json.RawMessage
	}
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var out []Measured
	switch {
	case top.Results != nil:
		for i, r := range top.Results {
			if r.Invalidity != "" && r.Invalidity != "correct" {
				continue
			}
			where := fmt.Sprintf("%s: results[%d]", name, i)
			m := Measured{Time: math.NaN(), Predicted: math.NaN()}
			var err error
			if m.Config, err = configOf(r.Configuration, where); err != nil {
				return nil, err
			}
			for _, x := range r.Measurements {
				if x.Name != "time" && x.Name != PredictedTime {
					continue
				}
				t, err := seconds(x.Value, x.Unit)
				if err != nil {
					return nil, fmt.Errorf("%s: measurement %s: %w", where, x.Name, err)
				}
				if x.Name == "time" {
					m.Time = t
				} else {
					m.Predicted = t
				}
			}
			out = append(out, m)
		}
	case top.Cache != nil:
		for key, entry := range top.Cache {
			where := fmt.Sprintf("%s: cache[%q]", name, key)
			t, err := seconds(entry["time"], "ms")
			if err != nil {
				continue
			}
			delete(entry, "time")
			conf := map[string]json.RawMessage{}
			for k, v := range entry {
				if k == "times" || strings.HasSuffix(k, "_time") || k == "timestamp" {
					continue
				}
				conf[k] = v
			}
			c, err := configOf(conf, where)
			if err != nil {
				return nil, err
			}
			out = append(out, Measured{Config: c, Time: t, Predicted: math.NaN()})
		}
	default:
		return nil, fmt.Errorf("%s: neither T4 results (\"results\") nor a Kernel Tuner cache (\"cache\")", name)
	}
	if len(out) > MaxMeasured {
		return nil, fmt.Errorf("%s: more than %d rows: %w", name, MaxMeasured, ErrTooLarge)
	}
	return out, nil
}

func configOf(raw map[string]json.RawMessage, where string) (map[string]Value, error) {
	c := make(map[string]Value, len(raw))
	for k, v := range raw {
		x, err := decodeJSON(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", where, k, err)
		}
		if c[k], err = valueOfJSON(x); err != nil {
			if x == nil {
				delete(c, k)
				continue
			}
			return nil, fmt.Errorf("%s: %s: %w", where, k, err)
		}
	}
	return c, nil
}

var units = map[string]float64{"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1, "": 1e-3}

// seconds converts a JSON number in unit to seconds.
func seconds(raw json.RawMessage, unit string) (float64, error) {
	scale, ok := units[unit]
	if !ok {
		return 0, fmt.Errorf("unit %q: give ns, us, ms or s", unit)
	}
	var v float64
	if err := json.Unmarshal(raw, &v); err != nil {
		return 0, errors.New("not a number")
	}
	return v * scale, nil
}

func readMeasuredCSV(data []byte, name string) ([]Measured, error) {
	r := csv.NewReader(bytes.NewReader(data))
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: CSV header: %w", name, err)
	}
	timeCol, predCol := -1, -1
	for i, h := range header {
		switch strings.TrimSpace(h) {
		case "time":
			timeCol = i
		case PredictedTime:
			predCol = i
		}
	}
	if timeCol < 0 {
		return nil, fmt.Errorf("%s: the CSV header has no \"time\" column (measured milliseconds)", name)
	}
	var out []Measured
	for line := 2; ; line++ {
		rec, err := r.Read()
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if len(out) == MaxMeasured {
			return nil, fmt.Errorf("%s: more than %d rows: %w", name, MaxMeasured, ErrTooLarge)
		}
		m := Measured{Config: map[string]Value{}, Time: math.NaN(), Predicted: math.NaN()}
		for i, cell := range rec {
			cell = strings.TrimSpace(cell)
			h := strings.TrimSpace(header[i])
			switch i {
			case timeCol, predCol:
				if cell == "" {
					continue
				}
				v, err := strconv.ParseFloat(cell, 64)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: %s %q is not a number", name, line, h, cell)
				}
				if i == timeCol {
					m.Time = v * 1e-3
				} else {
					m.Predicted = v * 1e-3
				}
			default:
				if h == "rank" {
					continue
				}
				m.Config[h] = cellValue(cell)
			}
		}
		out = append(out, m)
	}
	return out, nil
}

// cellValue reads a CSV cell as an integer, a float, a bool or else a
// string.
func cellValue(s string) Value {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return IntValue(i)
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return Value{Kind: Float, F: f}
	}
	if s == "True" || s == "False" {
		return boolValue(s == "True")
	}
	return Value{Kind: String, S: s}
}

// Key renders the values of names in a configuration as a join key,
// integers (however written) as integers, or reports a missing name.
func Key(names []string, get func(string) (Value, bool)) (string, error) {
	var b strings.Builder
	for _, n := range names {
		v, ok := get(n)
		if !ok {
			return "", fmt.Errorf("no value of tunable %s", n)
		}
		if i, ok := v.Integer(); ok && v.Kind != String {
			b.WriteString(strconv.FormatInt(i, 10))
		} else {
			b.WriteString(v.Text())
		}
		b.WriteByte('\x00')
	}
	return b.String(), nil
}
