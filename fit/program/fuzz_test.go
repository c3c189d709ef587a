package program

import "testing"

// FuzzParse checks that no program file makes Parse or Bind panic, and
// that a file that parses binds every launch or fails with a line.
func FuzzParse(f *testing.F) {
	f.Add([]byte(cnn))
	f.Add([]byte("let B = 2\nbatch B\nlayer l\nlaunch k b=B*-(3-B)/1\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := Parse("fuzz.prog", src)
		if err != nil {
			return
		}
		bound, _, err := p.Bind(0)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("Bind error without a line: %v", err)
			}
			return
		}
		if len(bound) != len(p.Launches) {
			t.Fatalf("%d launches bound of %d", len(bound), len(p.Launches))
		}
	})
}
