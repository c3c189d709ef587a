package examples

import (
	"crypto/sha256"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
)

// FS holds the corpus: every .knl file of the package, by base name.
//
//go:embed *.knl
var FS embed.FS

// Split is the part of the corpus a kernel belongs to.
type Split string

const (
	// Development kernels may be looked at when a model choice is made.
	Development Split = "development"
	// HeldOut kernels are only reported, never fitted or looked at.
	HeldOut Split = "held-out"
)

// SplitOf says which part of the corpus the kernel file belongs to, by the
// rule README.md fixes: the first byte of the SHA-256 of the file's base
// name ("gemm.knl") is even for a development kernel, odd for a held-out
// one. The rule reads the name alone, so a kernel's part never depends on
// its content or on how a model fares on it.
func SplitOf(file string) Split {
	if sha256.Sum256([]byte(path.Base(file)))[0]%2 == 0 {
		return Development
	}
	return HeldOut
}

// Files lists, sorted, the base names of the corpus's kernel files in
// split s.
func Files(s Split) ([]string, error) {
	names, err := fs.Glob(FS, "*.knl")
	if err != nil {
		return nil, fmt.Errorf("examples: listing the corpus: %w", err)
	}
	var out []string
	for _, n := range names {
		if SplitOf(n) == s {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out, nil
}
