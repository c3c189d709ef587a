package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// pkg is the part of `go list -json` that the checks read.
type pkg struct {
	Dir        string
	ImportPath string
	Export     string
	GoFiles    []string
	ImportMap  map[string]string
	Deps       []string
	DepOnly    bool
	Error      *struct{ Err string }
}

// packages are the packages that the patterns name, with the export data
// of everything they import.
type packages struct {
	listed []*pkg
	// export maps every import path among the packages and their
	// dependencies to its export data file.
	export map[string]string
	// byDir maps the directory of every package go list printed to its
	// import path.
	byDir map[string]string
}

// load lists the packages that patterns name and builds the export data of
// their dependencies.
func load(patterns []string) (*packages, error) {
	args := append([]string{"list", "-json", "-deps", "-export", "--"}, patterns...)
	cmd := exec.Command("go", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v\n%s", err, stderr.Bytes())
	}
	pkgs := &packages{export: map[string]string{}, byDir: map[string]string{}}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		p := new(pkg)
		if err := dec.Decode(p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list output: %v", err)
		}
		if p.Error != nil {
			return nil, fmt.Errorf("%s: %s", p.ImportPath, p.Error.Err)
		}
		pkgs.export[p.ImportPath] = p.Export
		pkgs.byDir[p.Dir] = p.ImportPath
		if !p.DepOnly {
			pkgs.listed = append(pkgs.listed, p)
		}
	}
	return pkgs, nil
}

// byDirs returns the import paths of the packages in the comma-separated
// directories of list, each of which must be one that load printed, so
// that a flag that names a package moved away fails rather than checks
// nothing.
func (pkgs *packages) byDirs(list string) (map[string]bool, error) {
	paths := map[string]bool{}
	for _, dir := range strings.Split(list, ",") {
		if dir = strings.TrimSpace(dir); dir == "" {
			continue
		}
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, err
		}
		path, ok := pkgs.byDir[abs]
		if !ok {
			return nil, fmt.Errorf("%s: not a package among those checked", dir)
		}
		paths[path] = true
	}
	return paths, nil
}

// open opens the export data of the package with import path path.
func (pkgs *packages) open(path string) (io.ReadCloser, error) {
	file := pkgs.export[path]
	if file == "" {
		return nil, fmt.Errorf("no export data for %s", path)
	}
	return os.Open(file)
}
