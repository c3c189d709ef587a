package datasets

import (
	"errors"
	"testing"
)

// FuzzDecode feeds arbitrary bytes to the table reader: it must return a
// table that passes validation or an *Error, and never panic or exhaust
// memory. The seed corpus (testdata/fuzz/FuzzDecode) holds a valid table
// and damaged copies of it.
func FuzzDecode(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		tab, err := Decode("fuzz", data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.File != "fuzz" {
				t.Fatalf("error %T %v does not name the input", err, err)
			}
			return
		}
		if err := tab.Validate(); err != nil {
			t.Fatalf("Decode returned an invalid table: %v", err)
		}
	})
}
