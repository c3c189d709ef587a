package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/datasets/inputfile"
	"github.com/uniperf/uniperf/fit"
)

// embeddedPrefix names a table shipped in the binary on the command line:
// "embedded:pocl-cpu.arrow".
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
		sum := sha256.Sum256(data)
		lt.tables[arg] = t
		lt.inputs = append(lt.inputs, fit.Input{Name: filepath.Base(arg), SHA256: hex.EncodeToString(sum[:])})
	}
	return lt, nil
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
	data, err := inputfile.ReadFile(arg)
	var pe *fs.PathError
	if errors.As(err, &pe) && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission) {
		return nil, systemFailure(err)
	}
	return data, err
}
