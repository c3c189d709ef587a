package cimport

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// FuzzImport imports mutations of C sources: whatever the input, Import
// returns a .knl that parses (it checks that itself) or an *Error, with a
// line and column where the cause is a place of the source (a flag of a
// "// uniperf:" comment included), never one that blames the importer,
// and never panics. The seeds are the originals of examples/ with their flags as a
// "// uniperf:" comment, so that mutations reach the translation.
func FuzzImport(f *testing.F) {
	all := append(slices.Clone(ports), fanPorts...)
	for _, p := range suitePorts {
		all = append(all, p.port)
	}
	for _, p := range all {
		src, err := os.ReadFile(filepath.Join("testdata", p.file))
		if err != nil {
			f.Fatal(err)
		}
		// A comment's flags are split at spaces: --assume's
		// conditions are written without them.
		var flags []string
		for _, fl := range p.flags {
			flags = append(flags, strings.ReplaceAll(fl, " ", ""))
		}
		f.Add(filepath.Ext(p.file), "// uniperf: "+strings.Join(flags, " ")+"\n"+string(src))
	}
	f.Add(".cu", guardsSrc)
	f.Add(".cu", walkSrc)
	f.Add(".cu", warprowSrc)
	f.Add(".cu", barrierIfSrc)
	f.Fuzz(func(t *testing.T, ext, src string) {
		if ext != ".cl" {
			ext = ".cu"
		}
		r, err := Import("k"+ext, []byte(src), Options{})
		if err == nil {
			if len(r.Knl) == 0 {
				t.Fatal("an empty .knl and no error")
			}
			return
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("%T %v: want an *Error", err, err)
		}
		if e.File != "k"+ext || e.Msg == "" {
			t.Fatalf("%q: want the file's name and a message", err)
		}
		// Every flag stands in a comment here: its refusal has the
		// comment's place.
		if e.Line == 0 && strings.HasPrefix(e.Msg, "-") {
			t.Fatalf("%q: a flag of a comment refused without the comment's line", err)
		}
		// A translation the .knl parser refuses is the importer's
		// bug, not bad input.
		if strings.Contains(e.Msg, "please report this") {
			t.Fatalf("%q: the importer wrote a .knl it refuses", err)
		}
	})
}
