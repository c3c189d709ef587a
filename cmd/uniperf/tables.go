package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/datasets/arrowfile"
	"github.com/uniperf/uniperf/datasets/inputfile"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/measurekernels/library"
)

// embeddedPrefix names a table shipped in the binary on the command line:
// "embedded:pocl-epyc-quick.arrow".
const embeddedPrefix = "embedded:"

// loadedTables are measurement tables read for a command, keyed by the
// name they were given by, with the identity of each for weight tables.
type loadedTables struct {
	tables map[string]*datasets.Table
	inputs []fit.Input
}

// loadTables reads and validates measurement tables given as paths or as
// embedded:NAME. A missing, corrupt or repeated table is bad input; other
// read failures are the system's.
func loadTables(args []string) (*loadedTables, error) {
	lt := &loadedTables{tables: map[string]*datasets.Table{}}
	for _, arg := range args {
		if _, dup := lt.tables[arg]; dup {
			return nil, fmt.Errorf("%s is given twice", arg)
		}
		data, err := readTable(arg)
		if err != nil {
			return nil, err
		}
		t, err := datasets.Decode(arg, data)
		if err != nil {
			return nil, err
		}
		if t.Unchecked() && !strings.HasPrefix(arg, embeddedPrefix) {
			// The embedded tables are checked as part of the binary.
			noteUnchecked(arg)
		}
		sum := sha256.Sum256(data)
		lt.tables[arg] = t
		lt.inputs = append(lt.inputs, fit.Input{Name: filepath.Base(arg), SHA256: hex.EncodeToString(sum[:])})
	}
	return lt, nil
}

// noteUnchecked notes on standard error that the table or weight file at
// path carries no checksum, so that damage to its numbers goes unseen.
func noteUnchecked(path string) {
	fmt.Fprintf(stderr, "note: %s has no checksum (written before uniperf wrote one): damage to its numbers cannot be detected\n", path)
}

// shippedTables names every embedded table as embedded:NAME.
func shippedTables() []string {
	var out []string
	for _, n := range datasets.Shipped() {
		out = append(out, embeddedPrefix+n)
	}
	return out
}

func readTable(arg string) ([]byte, error) {
	if name, ok := strings.CutPrefix(arg, embeddedPrefix); ok {
		data, err := datasets.ShippedBytes(name)
		if err != nil && !strings.HasSuffix(name, ".arrow") {
			// embedded:NAME as for programs, the extension left out
			data, err = datasets.ShippedBytes(name + ".arrow")
		}
		if err != nil {
			return nil, fmt.Errorf("%s: no such embedded table (embedded: %s)", arg, strings.Join(datasets.Shipped(), ", "))
		}
		return data, nil
	}
	data, err := inputfile.ReadChecked(arg, arrowfile.Check)
	return data, readError(err)
}

// kernelSource reads kernel from a file when it names one (a path or a
// name ending in .knl) and from the library otherwise.
func kernelSource(kernel string) models.Source {
	if strings.HasSuffix(kernel, ".knl") || strings.ContainsRune(kernel, '/') {
		return models.Files
	}
	if _, err := library.Source(kernel); err != nil {
		return func(string) (string, []byte, error) {
			return "", nil, fmt.Errorf("%q is neither a .knl file nor a library kernel (see uniperf kernels list)", kernel)
		}
	}
	return models.Library
}

// tableKernels reads the kernels that measurement tables name: library
// kernels by name, and the .knl files that uniperf measure KERNEL
// recorded by their path.
func tableKernels(name string) (string, []byte, error) { return kernelSource(name)(name) }

// tableError classifies an error opening a table: a corrupt or mismatched
// table and a path that cannot be created are bad input; other file-system
// failures are the system's.
func tableError(err error) error {
	var te *datasets.Error
	if errors.As(err, &te) {
		return err
	}
	return outputError(err)
}

// warnClock warns on stderr where a resumed table's rows were measured
// with the device at another clock than it reports now.
func warnClock(w *datasets.Writer, now datasets.Meta) {
	if msg := datasets.ClockChange(w.Table().Meta, now); msg != "" {
		fmt.Fprintf(stderr, "warning: %s: %s\n", w.Path(), msg)
	}
}
