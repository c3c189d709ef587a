package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// inputUnits are the units --max-input takes, longest suffix first so that
// "KiB" is not read as a number ending in "B".
var inputUnits = []struct {
	suffix string
	shift  uint
}{{"KiB", 10}, {"MiB", 20}, {"GiB", 30}, {"B", 0}}

// parseInputSize reads --max-input: a number of MiB (64), as the flag
// always took, or a number with its unit (4096B, 512KiB, 64MiB, 2GiB), so
// that a cap below a MiB can be written. The result is in bytes.
func parseInputSize(s string) (int64, error) {
	num, shift := s, uint(20)
	for _, u := range inputUnits {
		if n, ok := cutSuffixFold(s, u.suffix); ok {
			num, shift = n, u.shift
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
	if err != nil || n <= 0 || n > math.MaxInt64>>shift {
		return 0, fmt.Errorf("--max-input %s: want a positive number of MiB (64) or a size with its unit (4096B, 512KiB, 2GiB) below 8 EiB", s)
	}
	return n << shift, nil
}

// cutSuffixFold is strings.CutSuffix ignoring case.
func cutSuffixFold(s, suffix string) (string, bool) {
	if len(s) < len(suffix) || !strings.EqualFold(s[len(s)-len(suffix):], suffix) {
		return s, false
	}
	return s[:len(s)-len(suffix)], true
}
