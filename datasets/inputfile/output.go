package inputfile

import (
	"errors"
	"io/fs"
	"os"
)

// CheckOutput refuses an output path that names something other than a
// regular file or nothing, and, under Guard, one that is an input of the
// command. Outputs are written to a temporary file renamed over the path,
// and a rename replaces whatever the path names: --out /dev/null would
// have replaced the device with a table, and a symbolic link (/dev/stdout
// among them) the link, not its target, so a link is refused too.
func CheckOutput(path string) error {
	info, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return recordOutput(path, nil)
	case err != nil:
		return err
	case info.Mode()&fs.ModeSymlink != 0:
		return &Error{Path: path, Reason: symlinkReason(path)}
	case !info.Mode().IsRegular():
		return &Error{Path: path, Reason: kind(info.Mode()) + ", not a regular file to write"}
	}
	return recordOutput(path, info)
}
