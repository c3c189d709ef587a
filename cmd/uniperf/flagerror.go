package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// A mistyped flag is bad usage like any other, but pflag's message names
// neither the command nor the flag meant: "unknown flag: --weight".
func init() {
	rootCmd.SetFlagErrorFunc(flagError)
}

// flagError names the command, suggests the flags within two edits of an
// unknown one, and points to the command's --help.
func flagError(c *cobra.Command, err error) error {
	msg := fmt.Sprintf("%s: %v", strings.TrimPrefix(c.CommandPath(), rootCmd.Name()+" "), err)
	if name, ok := strings.CutPrefix(err.Error(), "unknown flag: --"); ok {
		var near []string
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden && editDistance(name, f.Name) <= 2 {
				near = append(near, "--"+f.Name)
			}
		})
		if len(near) > 0 {
			msg += " (did you mean " + strings.Join(near, " or ") + "?)"
		}
	}
	return fmt.Errorf("%s; %s --help lists its flags", msg, c.CommandPath())
}

// editDistance is the Levenshtein distance between a and b, by bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev = cur
	}
	return prev[len(b)]
}
