// Command filecycles fails where two non-test files of one package each use
// a package-level declaration or method declared in the other, and where a
// package imports one it must stay independent of.
//
// Files in a package should read in one direction: each builds on files
// that do not build on it, so a reader can start from the lowest file and
// never meet a name whose file needs the one they are reading, and a file
// can move to a package of its own without untangling it first. Two files
// that use each other hold one idea split in two or two ideas tangled
// together: move each declaration to the file whose idea it belongs to,
// split the file that holds two ideas, or move the helper both use into a
// lower file of its own.
//
// Usage:
//
//	filecycles [-exempt DIR,...] [-independent DIR,... [-forbid DIR,...]] PACKAGES...
//
// PACKAGES are go list patterns. Packages whose directories -exempt names
// are not checked for file cycles. No package that -independent names may
// import, directly or not, another one it names or one that -forbid names.
// Each cycle and each import is one line on standard output; the exit
// status is 1 where there is any, 2 where the packages do not load or
// type-check.
//
// Packages are type-checked from source against the export data that
// `go list -export` leaves in the build cache, so a check costs little more
// than the build that go vet does anyway.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run checks the packages that args name, writes what it finds to stdout
// and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("filecycles", flag.ContinueOnError)
	fs.SetOutput(stderr)
	exempt := fs.String("exempt", "", "comma-separated `dirs` of packages not checked for file cycles")
	independent := fs.String("independent", "", "comma-separated `dirs` of packages that import none of each other")
	forbid := fs.String("forbid", "", "comma-separated `dirs` of packages that no -independent package imports")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "filecycles: no packages named")
		return 2
	}
	pkgs, err := load(fs.Args())
	if err != nil {
		fmt.Fprintln(stderr, "filecycles:", err)
		return 2
	}
	skip, err := pkgs.byDirs(*exempt)
	if err != nil {
		fmt.Fprintln(stderr, "filecycles:", err)
		return 2
	}
	cycles, err := checkCycles(pkgs, skip, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "filecycles:", err)
		return 2
	}
	imports, err := checkIndependent(pkgs, *independent, *forbid, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "filecycles:", err)
		return 2
	}
	if cycles+imports > 0 {
		return 1
	}
	return 0
}

// checkIndependent writes one line per import of an -independent package
// that the rule forbids and returns their number.
func checkIndependent(pkgs *packages, independent, forbid string, stdout io.Writer) (int, error) {
	apart, err := pkgs.byDirs(independent)
	if err != nil {
		return 0, err
	}
	avoid, err := pkgs.byDirs(forbid)
	if err != nil {
		return 0, err
	}
	for path := range apart {
		avoid[path] = true
	}
	found := 0
	for _, p := range pkgs.listed {
		if !apart[p.ImportPath] {
			continue
		}
		for _, dep := range p.Deps {
			if avoid[dep] {
				fmt.Fprintf(stdout, "%s imports %s, which it must stay independent of\n", p.ImportPath, dep)
				found++
			}
		}
	}
	return found, nil
}
