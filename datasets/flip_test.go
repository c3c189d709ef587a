package datasets

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// flipOutcomes decodes copies of data with one byte flipped at each of n
// positions drawn from seed, and counts the outcomes: refused with a
// clean message, accepted with the content of want, or accepted changed.
// A message with a runtime panic's text fails the test.
func flipOutcomes(t *testing.T, data []byte, want *Table, n int, seed uint64) (refused, same, changed, renamed int) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 45))
	b := make([]byte, len(data))
	for range n {
		copy(b, data)
		at := r.IntN(len(b))
		b[at] ^= byte(1 + r.IntN(255))
		got, err := Decode("t.arrow", b)
		switch {
		case err != nil:
			refused++
			if msg := err.Error(); strings.Contains(msg, "runtime error") || strings.Contains(msg, "goroutine") ||
				strings.Contains(msg, "panic") || !strings.HasPrefix(msg, "t.arrow") {
				t.Errorf("flip at %d: message %q", at, msg)
			}
		case reflect.DeepEqual(got.Meta, want.Meta) && reflect.DeepEqual(got.Rows, want.Rows):
			same++
		default:
			changed++
			if !reflect.DeepEqual(names(got), names(want)) {
				renamed++
			}
		}
	}
	return refused, same, changed, renamed
}

// names lists a table's strings, metadata and cells.
func names(t *Table) []string {
	m := t.Meta
	out := []string{m.DeviceName, m.DeviceVendor, m.DeviceDriver, m.Backend, m.Suite, m.Method, m.Calibration}
	for _, r := range t.Rows {
		out = append(out, r.Device, r.Backend, r.Kernel, r.Class, r.Role, r.Variant, r.Version)
		out = append(out, sortedKeys(r.Consts)...)
		out = append(out, sortedKeys(r.Params)...)
	}
	return out
}

// TestByteFlips flips single bytes of the shipped quick table and of the
// same table written with a checksum (issue 45: 36 of 310 flips were
// accepted with changed values, a kernel "vec\xf4or_scale_add" among
// them, and caught ones said "runtime error: slice bounds out of range").
//
// What is guaranteed: with a checksum, every flip is refused (exit 2) or
// leaves the decoded content exactly as written (a byte of padding or of
// a buffer no value reads); without one (the shipped tables), every
// string read is valid UTF-8 and every row passes validation, but a flip
// that gives another valid number, or another valid UTF-8 letter in a
// name, cannot be told from what was measured. No message carries a
// recovered panic's text.
func TestByteFlips(t *testing.T) {
	shipped, err := ShippedBytes("pocl-epyc-quick.arrow")
	if err != nil {
		t.Fatal(err)
	}
	want, err := Decode("shipped", shipped)
	if err != nil {
		t.Fatal(err)
	}
	if !want.Unchecked() {
		t.Fatal("the shipped table has a checksum: it was rewritten")
	}
	path := filepath.Join(t.TempDir(), "checked.arrow")
	if err := WriteFile(path, want); err != nil {
		t.Fatal(err)
	}
	checked, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := Decode("checked", checked); err != nil || got.Unchecked() || !reflect.DeepEqual(got.Rows, want.Rows) {
		t.Fatalf("the table written with a checksum reads back as %v, unchecked %v", err, got != nil && got.Unchecked())
	}

	const n = 2000
	refused, same, changed, _ := flipOutcomes(t, checked, want, n, 1)
	t.Logf("with a checksum, %d flips of %d bytes: %d refused, %d accepted unchanged, %d accepted changed", n, len(checked), refused, same, changed)
	if changed > 0 {
		t.Errorf("with a checksum, %d of %d flips were accepted with changed content", changed, n)
	}
	refused, same, changed, renamed := flipOutcomes(t, shipped, want, n, 2)
	t.Logf("without a checksum, %d flips of %d bytes: %d refused, %d accepted unchanged, %d accepted changed (%d of them in a string, valid UTF-8)", n, len(shipped), refused, same, changed, renamed)
}

// A flipped byte that makes a name invalid UTF-8 is refused even without
// a checksum (issue 45: kernel vec\xf4or_scale_add was read, and written
// on to CSV).
func TestInvalidUTF8Refused(t *testing.T) {
	data, err := ShippedBytes("pocl-epyc-quick.arrow")
	if err != nil {
		t.Fatal(err)
	}
	at := strings.Index(string(data), "vector_scale_add")
	if at < 0 {
		t.Fatal("no vector_scale_add in the shipped table")
	}
	b := slices.Clone(data)
	b[at+3] = 0xf4
	_, err = Decode("t.arrow", b)
	if err == nil || !strings.Contains(err.Error(), `"vec\xf4or_scale_add" is not valid UTF-8`) {
		t.Errorf("got %v, want the kernel name refused as invalid UTF-8", err)
	}
}
