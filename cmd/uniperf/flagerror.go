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

// flagError names the command, suggests the flags near an unknown one
// (nearNames), and points to the command's --help.
func flagError(c *cobra.Command, err error) error {
	msg := fmt.Sprintf("%s: %v", strings.TrimPrefix(c.CommandPath(), rootCmd.Name()+" "), err)
	if name, ok := strings.CutPrefix(err.Error(), "unknown flag: --"); ok {
		var flags []string
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden {
				flags = append(flags, f.Name)
			}
		})
		if near := nearNames(name, flags); len(near) > 0 {
			msg += " (did you mean --" + strings.Join(near, " or --") + "?)"
		}
	}
	return fmt.Errorf("%s; %s --help lists its flags", msg, c.CommandPath())
}

// nearNames returns the names nearest a mistyped one, in their order:
// those fewest edits away, ignoring case (lx for LX, not LY), and at most
// two. A name that shares no letter's place with it (n for x, LX for ab)
// is no suggestion: one- and two-letter names would otherwise all
// suggest one another.
func nearNames(typed string, names []string) []string {
	var near []string
	best := 2
	for _, n := range names {
		d := editDistance(strings.ToLower(typed), strings.ToLower(n))
		if d > best || d >= max(len(typed), len(n)) {
			continue
		}
		if d < best {
			near, best = nil, d
		}
		near = append(near, n)
	}
	return near
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
