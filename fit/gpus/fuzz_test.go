package gpus

import (
	"encoding/json"
	"testing"
)

// FuzzParse checks that Parse never panics and that whatever it accepts is
// a valid device that survives a JSON round trip. The seed corpus is in
// testdata/fuzz/FuzzParse, plus every shipped file.
func FuzzParse(f *testing.F) {
	f.Add([]byte(minimal))
	for _, name := range Names() {
		data, err := shipped.ReadFile("devices/" + name + ".json")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse("fuzz.json", data)
		if err != nil {
			return
		}
		out, err := json.Marshal(d)
		if err != nil {
			t.Fatalf("accepted device does not marshal: %v", err)
		}
		if _, err := Parse("fuzz.json", out); err != nil {
			t.Fatalf("accepted device does not re-parse: %v\n%s", err, out)
		}
	})
}
