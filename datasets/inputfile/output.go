package inputfile

import (
	"errors"
	"io/fs"
	"os"
)

// CheckOutput refuses an output path that names an existing file that is
// not a regular one. Outputs are written to a temporary file renamed over
// the path, and a rename replaces whatever the path names: --out
// /dev/null would have replaced the device with a table.
func CheckOutput(path string) error {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return &Error{Path: path, Reason: kind(info.Mode()) + ", not a regular file to write"}
	}
	return nil
}
