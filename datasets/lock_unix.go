//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package datasets

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// fileLock is an exclusive advisory lock (flock) on a hidden lock file next
// to a table. The kernel drops it when the process dies, so a killed
// writer leaves no stale lock, only a harmless empty file.
type fileLock struct {
	f    *os.File
	path string
}

func lockPath(table string) string {
	return filepath.Join(filepath.Dir(table), "."+filepath.Base(table)+".lock")
}

func lockFile(table string) (*fileLock, error) {
	path := lockPath(table)
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			return nil, fmt.Errorf("opening %s: %w", table, err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, fmt.Errorf("%s: another process is writing this table (it holds %s)", table, path)
			}
			return nil, fmt.Errorf("locking %s: %w", table, err)
		}
		// A previous holder removes the file when it releases the lock; if
		// that happened after we opened it, we hold a lock on a file nobody
		// else can find, so start again.
		held, err1 := f.Stat()
		named, err2 := os.Stat(path)
		if err1 == nil && err2 == nil && os.SameFile(held, named) {
			return &fileLock{f: f, path: path}, nil
		}
		f.Close()
	}
}

func (l *fileLock) release() error {
	return errors.Join(os.Remove(l.path), l.f.Close())
}
