package main

import (
	"bytes"
	"testing"
)

// captureStderr runs f and returns what commands reported on stderr.
func captureStderr(t *testing.T, f func()) string {
	t.Helper()
	var buf bytes.Buffer
	old := stderr
	stderr = &buf
	defer func() { stderr = old }()
	f()
	return buf.String()
}
