package arrowfile

import (
	"strings"
	"testing"
)

// refused reports whether f panics with errOverBudget.
func refused(f func()) (ok bool) {
	defer func() {
		_, ok = recover().(errOverBudget)
	}()
	f()
	return false
}

func TestBudget(t *testing.T) {
	small := newBudget(1000)
	if small.limit != 64<<20 {
		t.Errorf("limit %d for a small file, want the 64 MiB floor", small.limit)
	}
	if big := newBudget(1 << 30); big.limit != 64<<30 {
		t.Errorf("limit %d for a 1 GiB file, want 64 GiB", big.limit)
	}

	a := newBudget(1000)
	b := a.Allocate(40 << 20)
	// Growing by 20 MiB brings the total to 60 MiB; shrinking costs nothing.
	b = a.Reallocate(60<<20, b)
	a.Reallocate(1<<20, b)
	if got := a.used.Load(); got != 60<<20 {
		t.Errorf("charged %d bytes, want %d", got, 60<<20)
	}
	// Freed bytes stay charged: the total is what the file made us allocate.
	a.Free(b)
	if !refused(func() { a.Allocate(5 << 20) }) {
		t.Error("an allocation past the budget was granted")
	}
	if !refused(func() { newBudget(1000).Allocate(-1) }) {
		t.Error("a negative size was granted")
	}
	if !refused(func() { newBudget(1000).Reallocate(-1, nil) }) {
		t.Error("a negative size was granted")
	}
	msg := errOverBudget{size: 5 << 20, limit: 64 << 20, fileSize: 1000}.Error()
	if !strings.Contains(msg, "5242880 bytes") || !strings.Contains(msg, "1000-byte file") {
		t.Errorf("message %q does not name the buffer and the file", msg)
	}
}
