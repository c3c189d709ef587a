package cimport

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkImport imports each original of examples/ (target: under 1 s
// a kernel; the .knl it writes is parsed to check it, which is part of
// the time).
func BenchmarkImport(b *testing.B) {
	for _, c := range runCases() {
		p := c.port
		src, err := os.ReadFile(filepath.Join("testdata", p.file))
		if err != nil {
			b.Fatal(err)
		}
		opts, err := ParseFlags(p.flags)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(p.knl, func(b *testing.B) {
			for b.Loop() {
				if _, err := Import(p.file, src, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
