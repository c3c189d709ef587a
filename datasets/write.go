package datasets

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/uniperf/uniperf/datasets/inputfile"
)

// WriteFile validates t and writes it to path atomically: the table goes
// to a temporary file in the same directory, which is synced and renamed
// over path, so that path holds either the old table or the new one, never
// part of one.
func WriteFile(path string, t *Table) error {
	if err := t.Validate(); err != nil {
		if e, ok := err.(*Error); ok {
			e.File = path
		}
		return err
	}
	return writeAtomic(path, t)
}

// tempPrefix is the name prefix of the temporary files of path; a leftover
// one is what an interrupted write leaves behind.
func tempPrefix(path string) string { return "." + filepath.Base(path) + ".tmp-" }

func writeAtomic(path string, t *Table) (err error) {
	if err := inputfile.CheckOutput(path); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, tempPrefix(path)+"*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
			err = fmt.Errorf("writing %s: %w", path, err)
		}
	}()
	if err := encode(f, t); err != nil {
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	return syncDir(dir)
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}
