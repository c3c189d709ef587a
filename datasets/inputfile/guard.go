package inputfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// The files of one command, while Guard is on: what Open read (inputs) and
// what CheckOutput cleared to be written (outputs). Without it `uniperf
// fit T.arrow --out T.arrow` replaced the measurement table with weights.
var guard struct {
	sync.Mutex
	on              bool
	inputs, outputs []file
}

// file is one path of a command: as named, resolved to an absolute path
// without symbolic links, and its identity (nil where it did not exist),
// which a hard link or another spelling of the path shares.
type file struct {
	path, resolved string
	info           fs.FileInfo
}

// Guard makes Open and CheckOutput refuse an output that is one of the
// command's inputs, in whichever order they come: the same file (device
// and inode, so through any link), or the same resolved path where the
// file does not exist yet; the function it returns ends that. A
// command-line program guards every command; a program that reads a table
// and writes it back on purpose does not.
func Guard() (end func()) {
	guard.Lock()
	defer guard.Unlock()
	guard.on, guard.inputs, guard.outputs = true, nil, nil
	return func() {
		guard.Lock()
		defer guard.Unlock()
		guard.on, guard.inputs, guard.outputs = false, nil, nil
	}
}

// newFile describes path; info is its identity, or nil.
func newFile(path string, info fs.FileInfo) file {
	return file{path: path, resolved: resolve(path), info: info}
}

// resolve returns path absolute and cleaned, with the symbolic links of
// its directory resolved, and of its last element too where it names one.
func resolve(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(dir, filepath.Base(abs))
	}
	return abs
}

// same reports whether a and b are one file, or one path (an output
// that a write replaces with a new file keeps its path).
func (a file) same(b file) bool {
	return a.info != nil && b.info != nil && os.SameFile(a.info, b.info) || a.resolved == b.resolved
}

// SameFile reports whether paths a and b name one file, as Guard tells an
// output from an input: the same file where both exist (through any link),
// or the same resolved path.
func SameFile(a, b string) bool {
	return newFile(a, stat(a)).same(newFile(b, stat(b)))
}

// stat is the identity of the file at path, or nil where there is none.
func stat(path string) fs.FileInfo {
	info, err := os.Stat(path)
	if err != nil {
		return nil
	}
	return info
}

// find returns the first of list that is the same file as f.
func find(list []file, f file) (file, bool) {
	for _, g := range list {
		if f.same(g) {
			return g, true
		}
	}
	return file{}, false
}

// recordInput refuses an input that is an output of the command, and
// records it.
func recordInput(path string, info fs.FileInfo) error {
	guard.Lock()
	defer guard.Unlock()
	if !guard.on {
		return nil
	}
	in := newFile(path, info)
	if out, ok := find(guard.outputs, in); ok {
		return clobber(out.path, path)
	}
	guard.inputs = append(guard.inputs, in)
	return nil
}

// recordOutput refuses an output that is an input of the command, and
// records it; info is the output's identity or nil.
func recordOutput(path string, info fs.FileInfo) error {
	guard.Lock()
	defer guard.Unlock()
	if !guard.on {
		return nil
	}
	out := newFile(path, info)
	if in, ok := find(guard.inputs, out); ok {
		return clobber(path, in.path)
	}
	if _, ok := find(guard.outputs, out); !ok {
		guard.outputs = append(guard.outputs, out)
	}
	return nil
}

func clobber(out, in string) error {
	same := "is the input " + in
	if out != in {
		same = "is the same file as the input " + in
	}
	return &Error{Path: out, Reason: "this output " + same + ", which writing it would destroy: name another output file"}
}

// symlinkReason says why a symbolic link is no output, and what to name
// instead.
func symlinkReason(path string) string {
	target, err := os.Readlink(path)
	if err != nil {
		target = "its target"
	}
	hint := "name " + target + " itself, or another file"
	if strings.HasPrefix(path, "/dev/std") || strings.HasPrefix(target, "/proc/self/fd/") {
		hint = "leave the output out to write to standard output"
	}
	return "a symbolic link (to " + target + "), which an output would replace rather than write through: " + hint
}
