package models

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// constString renders a const binding in a fixed order, "{LX=16,LY=16}".
func constString(consts map[string]int64) string {
	return "{" + assignments(consts, ",") + "}"
}

// ParamString renders parameters in a fixed order, "m=64 n=128".
func ParamString(params map[string]int64) string {
	return assignments(params, " ")
}

func assignments(m map[string]int64, sep string) string {
	parts := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+"="+strconv.FormatInt(m[k], 10))
	}
	return strings.Join(parts, sep)
}
