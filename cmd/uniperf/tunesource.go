package main

import (
	"crypto/sha256"
	"fmt"
	"maps"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/counts/cimport"
	"github.com/uniperf/uniperf/datasets/inputfile"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/tune"
)

// A CUDA or OpenCL source is tuned as Kernel Tuner compiles it: each
// configuration's tunables are macros (-D NAME=VALUE), and the source is
// imported anew with them. The importer keeps a tunable as a .knl const
// where it can, so configurations whose imports differ only in their
// consts' values are one kernel, counted once and bound per
// configuration; where an #if reads a tunable (Kernel Tuner's
// convolution.cu: use_padding, read_only, the tile sizes), each outcome
// is a kernel of its own, which one import of the .knl could not vary.

// isCSource reports whether kernel names a CUDA or OpenCL C source.
func isCSource(kernel string) bool {
	switch strings.ToLower(filepath.Ext(kernel)) {
	case ".cu", ".cl":
		return true
	}
	return false
}

// importedKernels imports a C source once per configuration and names
// each distinct kernel it gives: the Source of tune's counter. Memory
// stays small however many kernels a space gives (one a configuration
// where #ifs read every tunable): each is known by a hash of its shape
// and the macros that first gave it, and its text is kept only while a
// binding of it is predicted (a later reading imports it again).
type importedKernels struct {
	file string
	src  []byte
	opts cimport.Options

	mu      sync.Mutex
	names   map[[sha256.Size]byte]string // a hash of the kernel's shape -> its name
	macros  map[string]map[string]int64  // name -> the macros that first gave it
	pending map[string][]byte            // name -> its .knl, while a binding is predicted
}

// newImportedKernels reads the source and the flags of uniperf import
// that --import-flags gives, in the syntax of a // uniperf: comment.
func newImportedKernels(file, flags string) (*importedKernels, error) {
	src, err := inputfile.ReadText(file)
	if err != nil {
		return nil, err
	}
	opts, err := cimport.ParseFlags(strings.Fields(flags))
	if err != nil {
		return nil, fmt.Errorf("--import-flags: %w", err)
	}
	if opts.Defines == nil {
		opts.Defines = map[string]string{}
	}
	return &importedKernels{file: file, src: src, opts: opts, names: map[[sha256.Size]byte]string{},
		macros: map[string]map[string]int64{}, pending: map[string][]byte{}}, nil
}

// imports imports the source with macros as -D.
func (ik *importedKernels) imports(macros map[string]int64) ([]byte, error) {
	o := ik.opts
	o.Defines = maps.Clone(ik.opts.Defines)
	for n, v := range macros {
		o.Defines[n] = strconv.FormatInt(v, 10)
	}
	r, err := cimport.Import(ik.file, ik.src, o)
	if err != nil {
		return nil, err
	}
	return r.Knl, nil
}

// kernel imports the source with macros as -D and returns the name of
// the kernel it gives and the binding of that kernel's consts; its text
// is kept until done(name).
func (ik *importedKernels) kernel(macros map[string]int64) (string, map[string]int64, error) {
	knl, err := ik.imports(macros)
	if err != nil {
		return "", nil, err
	}
	shape, consts := kernelShape(knl)
	key := sha256.Sum256([]byte(shape))
	ik.mu.Lock()
	name, ok := ik.names[key]
	if !ok {
		name = fmt.Sprintf("%s[%d]", ik.file, len(ik.names)+1)
		ik.names[key] = name
		ik.macros[name] = maps.Clone(macros)
	}
	ik.pending[name] = knl
	ik.mu.Unlock()
	bound := map[string]int64{}
	for _, c := range consts {
		if v, ok := macros[c]; ok {
			bound[c] = v
		}
	}
	return name, bound, nil
}

// done drops the text kernel kept of name.
func (ik *importedKernels) done(name string) {
	ik.mu.Lock()
	delete(ik.pending, name)
	ik.mu.Unlock()
}

// kernels is how many distinct kernels the imports have given.
func (ik *importedKernels) kernels() int {
	ik.mu.Lock()
	defer ik.mu.Unlock()
	return len(ik.names)
}

// source serves the kernels kernel has named: the text it keeps, or the
// import of the macros that first gave the kernel.
func (ik *importedKernels) source(name string) (string, []byte, error) {
	ik.mu.Lock()
	knl, ok := ik.pending[name]
	macros, known := ik.macros[name]
	ik.mu.Unlock()
	switch {
	case ok:
		return name, knl, nil
	case !known:
		return "", nil, fmt.Errorf("%s: no kernel of that name was imported", name)
	}
	knl, err := ik.imports(macros)
	return name, knl, err
}

// kernelShape returns a .knl's text without its comments (the import's
// header names every macro's value) and without its consts' values, and
// the names of its consts: two imports with the same shape are one
// kernel with two bindings of its consts.
func kernelShape(knl []byte) (string, []string) {
	var b strings.Builder
	var consts []string
	for line := range strings.Lines(string(knl)) {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "#") {
			continue
		}
		if rest, ok := strings.CutPrefix(t, "const "); ok {
			if name, _, ok := strings.Cut(rest, "="); ok {
				name = strings.TrimSpace(name)
				consts = append(consts, name)
				b.WriteString("const " + name + "\n")
				continue
			}
		}
		b.WriteString(line)
	}
	return b.String(), consts
}

// tuneSource returns the Source of tune's counter for kernel: a C
// source's imports (and them), or the .knl or library kernel.
func tuneSource(kernel, importFlags string) (models.Source, *importedKernels, error) {
	if !isCSource(kernel) {
		return kernelSource(kernel), nil, nil
	}
	ik, err := newImportedKernels(kernel, importFlags)
	if err != nil {
		return nil, nil, err
	}
	return ik.source, ik, nil
}

// tuneKernel returns the kernel a binding of tune's consts predicts and
// its consts: kernel itself, or the import of a C source with them.
func tuneKernel(kernel string, ik *importedKernels, consts map[string]int64) (string, map[string]int64, error) {
	if ik == nil {
		return kernel, consts, nil
	}
	return ik.kernel(consts)
}

// params returns the size parameters (the integer arguments) of the
// kernel the first of configs that imports gives, trying a few: they are
// the same for every configuration, and tune asks for them in --param
// before predicting any. None where no configuration tried imports: the
// ranking then names why each is invalid.
func (ik *importedKernels) params(space *tune.Space, m *tune.Mapping, configs []tune.Config) []string {
	for _, c := range configs[:min(len(configs), 16)] {
		macros, err := m.Bind(space, c)
		if err != nil {
			continue
		}
		knl, err := ik.imports(macros)
		if err != nil {
			continue
		}
		if k, err := counts.ParseKernel(ik.file, knl, nil); err == nil {
			return k.Params
		}
	}
	return nil
}
