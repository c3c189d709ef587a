package weightsio

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// Every single-byte flip of a weight table written with a checksum is
// refused, with no recovered panic's text, or leaves the decoded weights
// exactly as written (a byte no value reads).
func TestWeightsByteFlips(t *testing.T) {
	want := sampleWeights()
	data, err := EncodeWeights(want)
	if err != nil {
		t.Fatal(err)
	}
	clean, err := DecodeWeights(data)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(45, 4))
	b := make([]byte, len(data))
	const n = 2000
	var refused, same int
	for range n {
		copy(b, data)
		at := r.IntN(len(b))
		b[at] ^= byte(1 + r.IntN(255))
		got, err := DecodeWeights(b)
		switch {
		case err != nil:
			refused++
			if msg := err.Error(); strings.Contains(msg, "runtime error") || strings.Contains(msg, "goroutine") {
				t.Errorf("flip at %d: message %q", at, msg)
			}
		case reflect.DeepEqual(got, clean):
			same++
		default:
			t.Errorf("flip at %d accepted with changed weights", at)
		}
	}
	t.Logf("%d flips of %d bytes: %d refused, %d accepted unchanged", n, len(data), refused, same)
}
