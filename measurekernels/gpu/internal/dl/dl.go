// Package dl opens shared libraries and binds their C functions to Go
// function variables with purego, so that the runtimes build without cgo.
//
// [Open] opens a [Library] by the first of several names that loads;
// [Library.Bind] binds C functions, each a [Func], and [Library.Has] tests
// for an optional symbol. [CString] (a fixed-size C buffer) and [GoString]
// (a NUL-terminated C string) copy C strings into Go strings.
package dl

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/ebitengine/purego"
)

// Library is an open shared library.
type Library struct {
	Name   string // the name it was opened under
	handle uintptr
}

// Open tries each name in turn (bare sonames go through the dynamic
// linker's search path) and returns the first library that opens. The error
// gives the dynamic linker's reason for the first name.
func Open(names ...string) (*Library, error) {
	var first error
	for _, name := range names {
		h, err := purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err == nil {
			return &Library{Name: name, handle: h}, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, fmt.Errorf("%s not found (%v)", names[0], first)
}

// Func is one C function to bind: Ptr points to a Go function variable
// whose signature matches the C prototype (see purego.RegisterFunc).
type Func struct {
	Name string
	Ptr  any
}

// Bind resolves every function, or reports the first missing symbol.
func (l *Library) Bind(funcs []Func) error {
	for _, f := range funcs {
		sym, err := purego.Dlsym(l.handle, f.Name)
		if err != nil {
			return fmt.Errorf("%s: missing symbol %s", l.Name, f.Name)
		}
		purego.RegisterFunc(f.Ptr, sym)
	}
	return nil
}

// Has reports whether the library exports a symbol.
func (l *Library) Has(name string) bool {
	_, err := purego.Dlsym(l.handle, name)
	return err == nil
}

// GoString copies a NUL-terminated C string.
func GoString(p *byte) string {
	if p == nil {
		return ""
	}
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice(p, n))
}

// CString trims a fixed-size C buffer at its first NUL.
func CString(b []byte) string {
	if i := strings.IndexByte(string(b), 0); i >= 0 {
		b = b[:i]
	}
	return strings.TrimSpace(string(b))
}
