package weightsio

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/ipc"

	"github.com/uniperf/uniperf/datasets/arrowfile"
	"github.com/uniperf/uniperf/fit"
)

// keyChecksum is the metadata key of a weight table's checksum: SHA-256 of
// every other metadata key and value, in order, and of every row (device,
// model, property, the weight's bits), so that a flipped byte that still
// decodes is caught. Tables written before it have none and are read
// unchecked.
const keyChecksum = "uniperf.checksum"

// checksum returns the checksum of the metadata keys and values (those of
// keyChecksum left out) and the rows of w.
func checksum(keys, values []string, w *fit.Weights) string {
	h := sha256.New()
	put := func(s string) {
		h.Write(binary.LittleEndian.AppendUint64(nil, uint64(len(s))))
		h.Write([]byte(s))
	}
	for i, k := range keys {
		if k != keyChecksum {
			put(k)
			put(values[i])
		}
	}
	put(w.Device)
	put(w.Model)
	for i, p := range w.Properties {
		put(p)
		h.Write(binary.LittleEndian.AppendUint64(nil, math.Float64bits(w.Values[i])))
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// verify refuses a table whose strings are not valid UTF-8 or whose
// content does not match its stored checksum, where it has one.
func verify(md arrow.Metadata, w *fit.Weights) error {
	strs := append(append(append([]string{w.Device, w.Model}, md.Keys()...), md.Values()...), w.Properties...)
	for _, s := range strs {
		if !utf8.ValidString(s) {
			return fmt.Errorf("%q is not valid UTF-8: the file is damaged", s)
		}
	}
	i := md.FindKey(keyChecksum)
	if i < 0 {
		return nil
	}
	stored := md.Values()[i]
	if got := checksum(md.Keys(), md.Values(), w); got != stored {
		return fmt.Errorf("the content does not match the checksum in the metadata (%s %s, content %s): the file was damaged after it was written", keyChecksum, stored, got)
	}
	return nil
}

// hasChecksum reports whether data, a weight table that decodes, carries
// a checksum in its metadata.
func hasChecksum(data []byte) bool {
	found := false
	err := arrowfile.Read(bytes.NewReader(data), func(r *ipc.FileReader) error {
		found = r.Schema().Metadata().FindKey(keyChecksum) >= 0
		return nil
	})
	return err == nil && found
}
