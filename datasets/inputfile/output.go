package inputfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// CheckOutput refuses an output path that names something other than a
// regular file or nothing, a new one whose directory is missing, and,
// under Guard, one that is an input of the command. Outputs are written
// to a temporary file renamed over the path, and a rename replaces
// whatever the path names: --out /dev/null would have replaced the
// device with a table, and a symbolic link (/dev/stdout among them) the
// link, not its target, so a link is refused too.
func CheckOutput(path string) error {
	info, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		if err := checkOutputDir(path); err != nil {
			return err
		}
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

// checkOutputDir refuses a new output whose directory is missing or is
// not a directory, naming the output and the directory: the write would
// otherwise fail creating its temporary file, an error that names that
// file, which the user never gave.
func checkOutputDir(path string) error {
	dir := filepath.Dir(path)
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &Error{Path: path, Reason: "its directory " + dir + " does not exist"}
	case errors.Is(err, syscall.ENOTDIR) || err == nil && !info.IsDir():
		return &Error{Path: path, Reason: "its directory " + dir + " is not a directory"}
	}
	return nil
}
