package tune

import (
	"bytes"
	"fmt"
	"math"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"

	"github.com/uniperf/uniperf/datasets/arrowfile"
)

// arrowMagic opens every Arrow IPC file.
var arrowMagic = []byte("ARROW1")

// readMeasuredArrow reads the table WriteArrow writes, with a float64
// "time" column in ms (null where not timed): a column per tunable
// (integer, floating-point, bool or string), "time", and optionally
// "predicted_time" (ms) and "rank", which is ignored.
func readMeasuredArrow(data []byte, name string) ([]Measured, error) {
	var out []Measured
	err := arrowfile.Read(bytes.NewReader(data), func(r *ipc.FileReader) error {
		s := r.Schema()
		timeCol, predCol := -1, -1
		for i, f := range s.Fields() {
			switch f.Name {
			case "time", PredictedTime:
				if f.Type.ID() != arrow.FLOAT64 {
					return fmt.Errorf("column %s is %s: want float64 milliseconds", f.Name, f.Type)
				}
				if f.Name == "time" {
					timeCol = i
				} else {
					predCol = i
				}
			}
		}
		if timeCol < 0 {
			return fmt.Errorf("no \"time\" column (measured milliseconds, float64)")
		}
		for b := range r.NumRecords() {
			rec, err := r.Record(b)
			if err != nil {
				return err
			}
			for row := range int(rec.NumRows()) {
				if len(out) == MaxMeasured {
					return fmt.Errorf("more than %d rows: %w", MaxMeasured, ErrTooLarge)
				}
				m := Measured{Config: map[string]Value{}, Time: math.NaN(), Predicted: math.NaN()}
				for i, f := range s.Fields() {
					col := rec.Column(i)
					switch {
					case i == timeCol || i == predCol:
						if col.IsNull(row) {
							continue
						}
						v := col.(*array.Float64).Value(row) * 1e-3
						if i == timeCol {
							m.Time = v
						} else {
							m.Predicted = v
						}
					case f.Name == "rank":
					default:
						v, err := arrowValue(col, row)
						if err != nil {
							return fmt.Errorf("row %d: column %s: %w", len(out)+1, f.Name, err)
						}
						m.Config[f.Name] = v
					}
				}
				out = append(out, m)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// TimedOn returns the device that an Arrow file of WriteArrow records as
// having timed its configurations: "" for a file that records none (one
// written before the record, or without times) and for CSV or JSON,
// which have no place for it.
func TimedOn(data []byte, name string) (string, error) {
	if !bytes.HasPrefix(data, arrowMagic) {
		return "", nil
	}
	var device string
	err := arrowfile.Read(bytes.NewReader(data), func(r *ipc.FileReader) error {
		md := r.Schema().Metadata()
		if i := md.FindKey(TimedOnKey); i >= 0 {
			device = md.Values()[i]
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("%s: %w", name, err)
	}
	return device, nil
}

// arrowValue is a tunable's value in an Arrow column.
func arrowValue(col arrow.Array, row int) (Value, error) {
	if col.IsNull(row) {
		return Value{}, fmt.Errorf("null: every tunable needs a value")
	}
	switch c := col.(type) {
	case *array.Int64:
		return IntValue(c.Value(row)), nil
	case *array.Int32:
		return IntValue(int64(c.Value(row))), nil
	case *array.Float64:
		return Value{Kind: Float, F: c.Value(row)}, nil
	case *array.Boolean:
		return boolValue(c.Value(row)), nil
	case *array.String:
		return cellValue(c.Value(row)), nil
	}
	return Value{}, fmt.Errorf("type %s: want int64, int32, float64, bool or utf8", col.DataType())
}
