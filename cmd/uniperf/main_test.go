package main

import (
	"bytes"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
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

// runCommand runs uniperf with args, after resetting the flags of cmd to
// their defaults, and returns the exit status, standard output and the
// error message.
func runCommand(t *testing.T, cmd *cobra.Command, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out bytes.Buffer
	resetFlags(cmd)
	cmd.SetOut(&out)
	t.Cleanup(func() { cmd.SetOut(nil) })
	stderr = captureStderr(t, func() { code = run(args) })
	return code, out.String(), stderr
}

// resetFlags sets every flag of cmd back to its default, as if it had not
// been given.
func resetFlags(cmd *cobra.Command) {
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			_ = sv.Replace(nil)
		} else {
			_ = f.Value.Set(f.DefValue)
		}
		f.Changed = false
	})
}
