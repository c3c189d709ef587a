// Package programs holds uniperf's example programs: sequences of kernel
// launches in the program-file format of package fit/program, each with
// its own .knl kernels, embedded in the binary. [Names] lists them and
// [Open] returns one's directory and the name of its program file. They
// are not part of the measurement library (package library), whose
// kernels the measurement suites run.
//
// "cnn" is the forward pass of a small convolutional network: two
// convolution layers with ReLU, two 2 × 2 max-pooling layers and a
// fully-connected layer (cnn/cnn.prog).
package programs

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

//go:embed cnn/*.knl cnn/*.prog
var files embed.FS

// Names lists the example programs.
func Names() []string {
	entries, _ := fs.ReadDir(files, ".")
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// Open returns an example program's directory and the name of its
// program file in it.
func Open(name string) (fs.FS, string, error) {
	dir, err := fs.Sub(files, name)
	if err == nil && name != "" && !strings.ContainsAny(name, "/.") {
		if _, err = fs.Stat(dir, name+".prog"); err == nil {
			return dir, name + ".prog", nil
		}
	}
	return nil, "", fmt.Errorf("no example program %q (the examples: %s)", name, strings.Join(Names(), ", "))
}
