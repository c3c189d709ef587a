package tune

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"slices"
	"strconv"
	"time"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"

	"github.com/uniperf/uniperf/fit/weightsio"
)

// T4Version is the version of Kernel Tuner's T4 results schema that
// WriteT4 writes (kernel_tuner/schema/T4/1.0.0/results-schema.json).
const T4Version = "1.0.0"

// TimedOnKey is the key of WriteArrow's schema metadata that names the
// device the times were measured on.
const TimedOnKey = "uniperf.tune.timed_on"

// PredictedTime is the name of the T4 measurement, and of the CSV and
// Arrow column, that holds a prediction, in milliseconds as Kernel
// Tuner's times are.
const PredictedTime = "predicted_time"

type t4Measurement struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
}

type t4Result struct {
	Timestamp     string          `json:"timestamp"`
	Configuration map[string]any  `json:"configuration"`
	Times         map[string]any  `json:"times"`
	Invalidity    string          `json:"invalidity"`
	Correctness   int             `json:"correctness"`
	Measurements  []t4Measurement `json:"measurements"`
	Objectives    []string        `json:"objectives"`
}

// WriteT4 encodes ranked results in Kernel Tuner's T4 results schema:
// {"schema_version": "1.0.0", "results": [...]}, one result per
// configuration in rank order, with its tunables as "configuration",
// empty "times" (nothing ran), "invalidity": "correct", "correctness":
// 1, one measurement {"name": "predicted_time", "value": ms, "unit":
// "ms"} and "objectives": ["predicted_time"]; a configuration that was
// timed has the measurement "time" (ms) too, first, as Kernel Tuner
// writes it.
func WriteT4(s *Space, results []Result, at time.Time) ([]byte, error) {
	out := struct {
		Version string     `json:"schema_version"`
		Results []t4Result `json:"results"`
	}{Version: T4Version, Results: make([]t4Result, len(results))}
	stamp := at.UTC().Format(time.RFC3339)
	for i, r := range results {
		conf := make(map[string]any, len(s.Params))
		for j, p := range s.Params {
			conf[p.Name] = s.Value(r.Config, j).JSON()
		}
		ms := []t4Measurement{{Name: PredictedTime, Value: r.Predicted * 1e3, Unit: "ms"}}
		if r.Measured > 0 {
			ms = append([]t4Measurement{{Name: "time", Value: r.Measured * 1e3, Unit: "ms"}}, ms...)
		}
		out.Results[i] = t4Result{Timestamp: stamp, Configuration: conf, Times: map[string]any{},
			Invalidity: "correct", Correctness: 1, Measurements: ms, Objectives: []string{PredictedTime}}
	}
	b, err := json.MarshalIndent(out, "", " ")
	return append(b, '\n'), err
}

// WriteCSV encodes ranked results as CSV: rank, the tunables, and
// predicted_time in milliseconds, and time (measured, ms; empty where
// not timed) where any configuration was timed.
func WriteCSV(s *Space, results []Result) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	header := append(append([]string{"rank"}, s.Names()...), PredictedTime)
	timed := slices.ContainsFunc(results, func(r Result) bool { return r.Measured > 0 })
	if timed {
		header = append(header, "time")
	}
	if err := w.Write(header); err != nil {
		return nil, err
	}
	row := make([]string, len(header))
	for _, r := range results {
		row[0] = strconv.Itoa(r.Rank)
		for j := range r.Config {
			row[j+1] = s.Value(r.Config, j).Text()
		}
		row[len(s.Params)+1] = strconv.FormatFloat(r.Predicted*1e3, 'g', -1, 64)
		if timed {
			row[len(row)-1] = ""
			if r.Measured > 0 {
				row[len(row)-1] = strconv.FormatFloat(r.Measured*1e3, 'g', -1, 64)
			}
		}
		if err := w.Write(row); err != nil {
			return nil, err
		}
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

// WriteArrow encodes ranked results as an Arrow IPC file: int64 rank, a
// column per tunable (int64 where every value is an integer, float64
// where every value is a number, else utf8 of the values' text),
// float64 predicted_time in milliseconds and, where any configuration
// was timed, float64 time (measured, ms; null where not timed).
// timedOn, where not empty, is the device that timed them, recorded in
// the schema's metadata under TimedOnKey, so that a resumed run can tell
// another device's times from its own.
func WriteArrow(s *Space, results []Result, timedOn string) ([]byte, error) {
	fields := []arrow.Field{{Name: "rank", Type: arrow.PrimitiveTypes.Int64}}
	kinds := make([]Kind, len(s.Params))
	for j, p := range s.Params {
		kinds[j] = columnKind(p.Values)
		t := arrow.DataType(arrow.BinaryTypes.String)
		switch kinds[j] {
		case Int:
			t = arrow.PrimitiveTypes.Int64
		case Float:
			t = arrow.PrimitiveTypes.Float64
		}
		fields = append(fields, arrow.Field{Name: p.Name, Type: t})
	}
	fields = append(fields, arrow.Field{Name: PredictedTime, Type: arrow.PrimitiveTypes.Float64})
	timed := slices.ContainsFunc(results, func(r Result) bool { return r.Measured > 0 })
	if timed {
		fields = append(fields, arrow.Field{Name: "time", Type: arrow.PrimitiveTypes.Float64, Nullable: true})
	}
	var meta *arrow.Metadata
	if timedOn != "" {
		m := arrow.NewMetadata([]string{TimedOnKey}, []string{timedOn})
		meta = &m
	}
	schema := arrow.NewSchema(fields, meta)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for _, r := range results {
		b.Field(0).(*array.Int64Builder).Append(int64(r.Rank))
		for j := range r.Config {
			v := s.Value(r.Config, j)
			switch kinds[j] {
			case Int:
				i, _ := v.Integer()
				b.Field(j + 1).(*array.Int64Builder).Append(i)
			case Float:
				f, _ := v.number()
				b.Field(j + 1).(*array.Float64Builder).Append(f)
			default:
				b.Field(j + 1).(*array.StringBuilder).Append(v.Text())
			}
		}
		b.Field(len(s.Params) + 1).(*array.Float64Builder).Append(r.Predicted * 1e3)
		if timed {
			tb := b.Field(len(s.Params) + 2).(*array.Float64Builder)
			if r.Measured > 0 {
				tb.Append(r.Measured * 1e3)
			} else {
				tb.AppendNull()
			}
		}
	}
	rec := b.NewRecord()
	defer rec.Release()
	return weightsio.EncodeRecord(schema, rec)
}

// columnKind is Int where every value is an integer (not a float),
// Float where every value is a number, else String.
func columnKind(values []Value) Kind {
	k := Int
	for _, v := range values {
		switch v.Kind {
		case Int, Bool:
		case Float:
			k = Float
		default:
			return String
		}
	}
	return k
}
