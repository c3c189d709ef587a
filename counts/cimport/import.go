package cimport

import (
	"fmt"
	"maps"
	"path/filepath"
	"strings"
)

// Result is an imported kernel.
type Result struct {
	Kernel string // the kernel function's name
	Knl    []byte // the .knl source
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
	opts, from, err := withComments(opts, l.comments)
	if err != nil {
		return nil, err
	}
	predefined := map[string]string{"__OPENCL_VERSION__": "120", "CLK_LOCAL_MEM_FENCE": "1", "CLK_GLOBAL_MEM_FENCE": "2"}
	if cuda {
		predefined = map[string]string{"__CUDACC__": "1", "warpSize": "32"}
	}
	k, _, err := parseKernel(l, cuda, opts, predefined)
	if err != nil {
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
	return im.withTunables(tunableCandidates(k, opts))
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
// from.
func withComments(opts Options, cs []comment) (Options, map[string]string, error) {
	from := map[string]string{}
	out := opts
	out.Defines = maps.Clone(opts.Defines)
	out.Arrays = maps.Clone(opts.Arrays)
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
	for _, c := range cs {
		fo, err := ParseFlags(strings.Fields(c.text))
		if err != nil {
			return out, nil, errorAt(c.p, "the uniperf: comment: %v", err)
		}
		where := fmt.Sprintf("the comment at line %d", c.p.line)
		if out.Kernel == "" {
			out.Kernel = fo.Kernel
		}
		for n, v := range fo.Defines {
			if _, ok := out.Defines[n]; !ok {
				out.Defines[n] = v
			}
		}
		for n, v := range fo.Arrays {
			if _, ok := out.Arrays[n]; !ok {
				out.Arrays[n] = v
				from["array "+n] = where
			}
		}
		if len(out.Local) == 0 && len(fo.Local) > 0 {
			out.Local, from["local"] = fo.Local, where
		}
		if len(out.Global) == 0 && len(out.Groups) == 0 {
			if len(fo.Global) > 0 {
				out.Global, from["global"] = fo.Global, where
			}
			if len(fo.Groups) > 0 {
				out.Groups, from["groups"] = fo.Groups, where
			}
		}
	}
	return out, from, nil
}
