package tune

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Kind is the type of a Value.
type Kind uint8

// The kinds of values a space's expressions compute with.
const (
	Int Kind = iota
	Float
	Bool
	String
	List
)

// Value is a value of a tunable or of an expression: a 64-bit integer, a
// float, a bool, a string or a list of values.
type Value struct {
	Kind Kind
	I    int64
	F    float64
	S    string
	L    []Value
}

// IntValue returns the integer v.
func IntValue(v int64) Value { return Value{Kind: Int, I: v} }

func boolValue(b bool) Value {
	if b {
		return Value{Kind: Bool, I: 1}
	}
	return Value{Kind: Bool}
}

// Integer returns v as an exact integer: an int, a bool (Python's bools
// are 0 and 1) or a float with an integer value.
func (v Value) Integer() (int64, bool) {
	switch v.Kind {
	case Int, Bool:
		return v.I, true
	case Float:
		if v.F == math.Trunc(v.F) && math.Abs(v.F) < 1<<53 {
			return int64(v.F), true
		}
	}
	return 0, false
}

// truth is Python's truth of v.
func (v Value) truth() bool {
	switch v.Kind {
	case Float:
		return v.F != 0
	case String:
		return v.S != ""
	case List:
		return len(v.L) > 0
	}
	return v.I != 0
}

func (v Value) number() (float64, bool) {
	switch v.Kind {
	case Int, Bool:
		return float64(v.I), true
	case Float:
		return v.F, true
	}
	return 0, false
}

// String renders v as Python would print it: 16, 0.5, True, 'abc',
// [1, 2].
func (v Value) String() string {
	switch v.Kind {
	case Int:
		return strconv.FormatInt(v.I, 10)
	case Float:
		s := strconv.FormatFloat(v.F, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEn") {
			s += ".0"
		}
		return s
	case Bool:
		if v.I != 0 {
			return "True"
		}
		return "False"
	case String:
		return strconv.Quote(v.S)
	}
	parts := make([]string, len(v.L))
	for i, e := range v.L {
		parts[i] = e.String()
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// Text renders v for a CSV cell or a key: strings without quotes.
func (v Value) Text() string {
	if v.Kind == String {
		return v.S
	}
	return v.String()
}

// JSON returns v as encoding/json encodes it: int64, float64, bool,
// string or []any.
func (v Value) JSON() any {
	switch v.Kind {
	case Int:
		return v.I
	case Float:
		return v.F
	case Bool:
		return v.I != 0
	case String:
		return v.S
	}
	out := make([]any, len(v.L))
	for i, e := range v.L {
		out[i] = e.JSON()
	}
	return out
}

// equal is Python's == of a and b.
func equal(a, b Value) bool {
	if x, ok := a.number(); ok {
		if y, ok := b.number(); ok {
			if a.Kind != Float && b.Kind != Float {
				return a.I == b.I
			}
			return x == y
		}
		return false
	}
	if a.Kind != b.Kind {
		return false
	}
	if a.Kind == String {
		return a.S == b.S
	}
	if len(a.L) != len(b.L) {
		return false
	}
	for i := range a.L {
		if !equal(a.L[i], b.L[i]) {
			return false
		}
	}
	return true
}

// valueOfJSON converts a decoded JSON value (json.Number for numbers).
func valueOfJSON(x any) (Value, error) {
	switch x := x.(type) {
	case bool:
		return boolValue(x), nil
	case string:
		return Value{Kind: String, S: x}, nil
	case interface{ String() string }:
		s := x.String()
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return IntValue(i), nil
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return Value{}, fmt.Errorf("%s is not a number", s)
		}
		return Value{Kind: Float, F: f}, nil
	case []any:
		l := make([]Value, len(x))
		for i, e := range x {
			v, err := valueOfJSON(e)
			if err != nil {
				return Value{}, err
			}
			l[i] = v
		}
		return Value{Kind: List, L: l}, nil
	}
	return Value{}, fmt.Errorf("%v is not a number, string, bool or list", x)
}

// decodeJSON decodes a JSON value with numbers as json.Number.
func decodeJSON(raw []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var x any
	err := d.Decode(&x)
	return x, err
}
