package cimport

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/counts"
)

// Result is an imported kernel.
type Result struct {
	Kernel string // the kernel function's name
	Knl    []byte // the .knl source
	// Warnings say what the flags may not mean as written: a --groups
	// whose launch may leave out work-items the kernel's guard admits
	// (C's division truncates). The .knl's header repeats them.
	Warnings []string
}

// maxSource bounds the source read, so that memory stays bounded.
const maxSource = 4 << 20

// Import translates the kernel of a CUDA (.cu, .cuh) or OpenCL C (.cl)
// source into .knl. file names the source in errors and decides the
// dialect. The .knl it returns parses with counts.ParseKernel.
func Import(file string, src []byte, opts Options) (*Result, error) {
	res, err := importKernel(file, src, opts)
	if e, ok := err.(*Error); ok && e.File == "" {
		e.File = file
	}
	return res, err
}

func importKernel(file string, src []byte, opts Options) (*Result, error) {
	if len(src) > maxSource {
		return nil, &Error{Msg: fmt.Sprintf("the source has %d bytes, more than %d", len(src), maxSource)}
	}
	cuda := true
	switch strings.ToLower(filepath.Ext(file)) {
	case ".cl":
		cuda = false
	case ".cu", ".cuh":
	default:
		return nil, &Error{Msg: "the file must end in .cu (CUDA) or .cl (OpenCL C)"}
	}
	l, err := lex(string(src))
	if err != nil {
		return nil, err
	}
	opts, from, places, err := withComments(opts, l.comments)
	if err != nil {
		return nil, err
	}
	predefined := map[string]string{"__OPENCL_VERSION__": "120", "CLK_LOCAL_MEM_FENCE": "1", "CLK_GLOBAL_MEM_FENCE": "2", "true": "1", "false": "0"}
	if cuda {
		predefined = map[string]string{"__CUDACC__": "1", "warpSize": "32", "true": "1", "false": "0"}
	}
	k, _, err := parseKernel(l, cuda, opts, predefined)
	if err != nil {
		placeFlag(err, places)
		return nil, err
	}
	// A -D that names a floating-point argument gives the .knl scalar
	// argument its value (scalar alpha f32 = 1.5): the source is read
	// again without that macro, so that the body reads the argument.
	opts.bound = map[string]string{}
	for _, p := range k.params {
		if v := opts.Defines[p.name]; p.value != nil && p.typ.ptr == 0 && (p.typ.base == "float" || p.typ.base == "double") {
			if _, ok := floatLiteral(strings.TrimPrefix(strings.TrimSuffix(v, "f"), "-")); ok {
				opts.bound[p.name] = v
			}
		}
	}
	if len(opts.bound) > 0 {
		opts.Defines = maps.Clone(opts.Defines)
		for n := range opts.bound {
			delete(opts.Defines, n)
		}
	}
	im := &importer{file: file, l: l, cuda: cuda, opts: opts, from: from, predefined: predefined}
	r, err := im.withTunables(tunableCandidates(k, opts))
	placeFlag(err, places)
	return r, err
}

// parseKernel preprocesses and parses the source and picks the kernel.
func parseKernel(l *lexed, cuda bool, opts Options, predefined map[string]string) (*kernelFunc, map[string]*macro, error) {
	k, macros, _, err := parseTunables(l, cuda, opts, predefined, nil)
	return k, macros, err
}

// parseTunables is parseKernel where the defines named by tunables stay
// names; it returns which of them #if read, and where.
func parseTunables(l *lexed, cuda bool, opts Options, predefined map[string]string, tunables map[string]bool) (*kernelFunc, map[string]*macro, map[string]pos, error) {
	toks, macros, reads, err := preprocess(l, opts.Defines, predefined, tunables)
	if err != nil {
		return nil, nil, nil, err
	}
	ps := &parser{toks: toks, cuda: cuda, typedefs: map[string]ctype{}}
	ks, err := ps.kernels()
	if err != nil {
		return nil, nil, nil, err
	}
	k, err := pick(ks, opts.Kernel)
	if err != nil {
		return nil, nil, nil, err
	}
	if k.err != nil {
		return nil, nil, nil, k.err
	}
	return k, macros, reads, nil
}

// pick chooses the kernel named, or the only one.
func pick(ks []*kernelFunc, name string) (*kernelFunc, error) {
	var names []string
	for _, k := range ks {
		if k.name == name {
			return k, nil
		}
		names = append(names, k.name)
	}
	switch {
	case len(ks) == 0:
		return nil, &Error{Msg: "no kernel function (__global__ in CUDA, __kernel in OpenCL C) in the file"}
	case name != "":
		return nil, &Error{Msg: fmt.Sprintf("no kernel %s in the file; it has %s", name, strings.Join(names, ", "))}
	case len(ks) > 1:
		return nil, &Error{Msg: fmt.Sprintf("the file has %d kernels (%s); choose one with --kernel NAME", len(ks), strings.Join(names, ", "))}
	}
	return ks[0], nil
}

// withComments merges the "// uniperf: FLAGS" comments of the source
// into opts (the flags of opts win), and says where each size came
// from, and at which comment each flag taken from one stands (keyed as
// flagKey).
func withComments(opts Options, cs []comment) (Options, map[string]string, map[string]pos, error) {
	from := map[string]string{}
	out := opts
	out.Defines = maps.Clone(opts.Defines)
	out.Arrays = maps.Clone(opts.Arrays)
	out.Trips = maps.Clone(opts.Trips)
	if out.Trips == nil {
		out.Trips = map[string]string{}
	}
	if out.Defines == nil {
		out.Defines = map[string]string{}
	}
	if out.Arrays == nil {
		out.Arrays = map[string]string{}
	}
	for key := range opts.Arrays {
		from["array "+key] = "the command line"
	}
	for _, name := range []string{"local", "global", "groups"} {
		from[name] = "the command line"
	}
	for _, a := range opts.Assume {
		from["assume "+a] = "the command line"
	}
	out.Assume = slices.Clone(opts.Assume)
	places := map[string]pos{}
	for _, c := range cs {
		fo, err := ParseFlags(strings.Fields(c.text))
		if err != nil {
			return out, nil, nil, errorAt(c.p, "the uniperf: comment: %v", err)
		}
		where := fmt.Sprintf("the comment at line %d", c.p.line)
		if out.Kernel == "" {
			out.Kernel = fo.Kernel
		}
		for n, v := range fo.Defines {
			if _, ok := out.Defines[n]; !ok {
				out.Defines[n], places["-D "+n] = v, c.p
			}
		}
		for n, v := range fo.Trips {
			if _, ok := out.Trips[n]; !ok {
				out.Trips[n], places["--trips "+n] = v, c.p
			}
		}
		for _, a := range fo.Assume {
			if !slices.Contains(out.Assume, a) {
				out.Assume = append(out.Assume, a)
				from["assume "+a], places["--assume "+a] = where, c.p
			}
		}
		for n, v := range fo.Arrays {
			if _, ok := out.Arrays[n]; !ok {
				out.Arrays[n] = v
				from["array "+n], places["--array "+n] = where, c.p
			}
		}
		if len(out.Local) == 0 && len(fo.Local) > 0 {
			out.Local, from["local"], places["--local"] = fo.Local, where, c.p
		}
		if len(out.Global) == 0 && len(out.Groups) == 0 {
			if len(fo.Global) > 0 {
				out.Global, from["global"], places["--global"] = fo.Global, where, c.p
			}
			if len(fo.Groups) > 0 {
				out.Groups, from["groups"], places["--groups"] = fo.Groups, where, c.p
			}
		}
	}
	return out, from, places, nil
}

// A tunable is a -D of a positive integer (-D BLOCK_SIZE=128) that the
// .knl keeps as a const (const BLOCK_SIZE = 128), so that uniperf tune
// and predict --const can vary it: the macro stays a name in the body,
// and the translation carries it symbolically, as it carries the size
// parameters. Where the translation needs its value (an #if reads it, a
// loop is unrolled over it, a division by it is not exact, a step of
// s >>= 1 starts at it) the macro is a literal instead, and the .knl's
// header says why.

// tunableCandidates lists the -D macros that may be tunables: positive
// integer literals that name no argument of the kernel and no word of
// .knl.
func tunableCandidates(k *kernelFunc, opts Options) []string {
	var out []string
	for _, n := range slices.Sorted(maps.Keys(opts.Defines)) {
		v, ok := intLiteral(opts.Defines[n])
		if !ok || v <= 0 || reserved[n] || slices.ContainsFunc(k.params, func(p param) bool { return p.name == n }) {
			continue
		}
		out = append(out, n)
	}
	return out
}

// importer imports one kernel: the lexed source and the options.
type importer struct {
	file       string
	l          *lexed
	cuda       bool
	opts       Options
	from       map[string]string
	predefined map[string]string
}

// withTunables imports with the candidates as consts. Where that fails,
// the translation needs the value of one of them: it tries each left
// out (a literal) in turn, and at last all.
func (im *importer) withTunables(cands []string) (*Result, error) {
	baked := map[string]string{}
	r, err := im.attempt(cands, baked)
	if err == nil || len(cands) == 0 {
		return r, err
	}
	why := "as a const, " + err.Error()
	if e, ok := err.(*Error); ok && e.Line > 0 {
		why = fmt.Sprintf("as a const, line %d:%d: %s", e.Line, e.Col, e.Msg)
	}
	for i, c := range cands {
		if _, ok := baked[c]; ok {
			continue
		}
		b := maps.Clone(baked)
		b[c] = why
		if r, err2 := im.attempt(slices.Delete(slices.Clone(cands), i, i+1), b); err2 == nil {
			return r, nil
		}
	}
	for _, c := range cands {
		if _, ok := baked[c]; !ok {
			baked[c] = why
		}
	}
	return im.attempt(nil, baked)
}

// attempt imports with the tunables given as consts (less those an #if
// reads, which it adds to baked with the reason).
func (im *importer) attempt(tunables []string, baked map[string]string) (*Result, error) {
	names := map[string]bool{}
	for _, n := range tunables {
		names[n] = true
	}
	for {
		k, macros, reads, err := parseTunables(im.l, im.cuda, im.opts, im.predefined, names)
		if err != nil {
			return nil, err
		}
		if len(reads) > 0 {
			for n, p := range reads {
				baked[n] = fmt.Sprintf("#if at line %d reads its value", p.line)
				delete(names, n)
			}
			continue
		}
		opts := im.opts
		opts.tunables = map[string]int64{}
		for n := range names {
			opts.tunables[n], _ = intLiteral(opts.Defines[n])
		}
		opts.baked = baked
		return im.translate(k, macros, opts)
	}
}

// translate translates the kernel and checks that the .knl parses.
func (im *importer) translate(k *kernelFunc, macros map[string]*macro, opts Options) (*Result, error) {
	// The first pass finds the C variables that hold each axis's global
	// index; the second names the axes by them, as a hand port would.
	// Either starts again where it meets the lane or the run of a
	// work-item index, which the next try splits (lanes.go).
	var t *translator
	var err error
	for _, names := range [][]string{nil, {}} {
		if names != nil {
			names = t.axisNames()
		}
		for {
			t, err = translate(k, im.cuda, opts, im.from, macros, names)
			req, ok := err.(*splitRequest)
			if !ok {
				break
			}
			opts.splits = maps.Clone(opts.splits)
			if opts.splits == nil {
				opts.splits = map[int]split{}
			}
			opts.splits[req.axis] = req.split
		}
		if err != nil {
			return nil, err
		}
	}
	knl, err := t.write(im.file)
	if err != nil {
		return nil, err
	}
	if _, err := counts.ParseKernel(k.name+".knl", knl, nil); err != nil {
		return nil, &Error{Line: k.p.line, Col: k.p.col, Msg: fmt.Sprintf("kernel %s: the .knl it translates to is refused (%v); please report this with the source", k.name, err)}
	}
	return &Result{Kernel: k.name, Knl: knl, Warnings: t.warnings}, nil
}
