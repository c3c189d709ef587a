package counts

import (
	"errors"
	"testing"
)

// FuzzParseKernel feeds arbitrary text to the parser. Whatever it is, the
// parser must return a kernel or an *Error, never panic; a kernel it
// accepts must render domains that parse again, and its launch grid must
// evaluate (or fail cleanly) at small parameters. The seed corpus is in
// testdata/fuzz/FuzzParseKernel.
func FuzzParseKernel(f *testing.F) {
	f.Fuzz(func(t *testing.T, src []byte) {
		k, err := ParseKernel("fuzz.knl", src, nil)
		if err != nil {
			var ke *Error
			if !errors.As(err, &ke) {
				t.Fatalf("error %v is a %T, not *Error", err, err)
			}
			return
		}
		_ = FormatSchedule(k.Schedule)
		for _, d := range k.Domains {
			if _, err := ParseKernel("again.knl", []byte("kernel k\ndomain "+d.String()+"\n"), nil); err != nil {
				t.Fatalf("rendered domain %s does not parse: %v", d, err)
			}
		}
		params := map[string]int64{}
		for _, p := range k.Params {
			params[p] = 3
		}
		e, err := newEngine(k, params)
		if err != nil {
			return
		}
		e.budget = 100000
		_, _, _ = e.launch()
	})
}
