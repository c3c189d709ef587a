package cimport

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/counts"
)

// Options are what the C source does not say: which kernel, the
// macros, and the sizes of the launch and of the global arrays. Each
// may also come from a comment of the source, "// uniperf: FLAGS", in
// the flags' syntax (see [ParseFlags]); the options given here win.
type Options struct {
	Kernel  string            // the kernel function; may be empty where the file has one
	Defines map[string]string // -D NAME=VALUE: macros, or values of scalar arguments
	Local   []string          // the work-group size along each axis (blockDim), constant expressions
	Global  []string          // the work-items the launch covers along each axis (rounded up to whole groups)
	Groups  []string          // the work-groups along each axis (gridDim), where Global is not given
	Arrays  map[string]string // NAME=EXTENT: a global array's number of elements
}

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
	toks, macros, err := preprocess(l, opts.Defines, predefined)
	if err != nil {
		return nil, err
	}
	ps := &parser{toks: toks, cuda: cuda, typedefs: map[string]ctype{}}
	ks, err := ps.kernels()
	if err != nil {
		return nil, err
	}
	k, err := pick(ks, opts.Kernel)
	if err != nil {
		return nil, err
	}
	if k.err != nil {
		return nil, k.err
	}
	// The first pass finds the C variables that hold each axis's global
	// index; the second names the axes by them, as a hand port would.
	t, err := translate(k, cuda, opts, from, macros, nil)
	if err != nil {
		return nil, err
	}
	t, err = translate(k, cuda, opts, from, macros, t.axisNames())
	if err != nil {
		return nil, err
	}
	knl, err := t.write(file)
	if err != nil {
		return nil, err
	}
	if _, err := counts.ParseKernel(k.name+".knl", knl, nil); err != nil {
		return nil, &Error{Line: k.p.line, Col: k.p.col, Msg: fmt.Sprintf("kernel %s: the .knl it translates to is refused (%v); please report this with the source", k.name, err)}
	}
	return &Result{Kernel: k.name, Knl: knl}, nil
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

// ParseFlags reads import's flags: -D NAME=VALUE (or -DNAME=VALUE),
// --kernel NAME, --local X[,Y[,Z]], --global X[,Y[,Z]],
// --groups X[,Y[,Z]], --array NAME=EXTENT. It reads the comments of the
// convention "// uniperf: FLAGS".
func ParseFlags(args []string) (Options, error) {
	o := Options{Defines: map[string]string{}, Arrays: map[string]string{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		val := func() (string, error) {
			if k := strings.IndexByte(a, '='); k >= 0 && strings.HasPrefix(a, "--") {
				return a[k+1:], nil
			}
			if i+1 == len(args) {
				return "", fmt.Errorf("%s needs a value", a)
			}
			i++
			return args[i], nil
		}
		name := a
		if k := strings.IndexByte(a, '='); k >= 0 && strings.HasPrefix(a, "--") {
			name = a[:k]
		}
		switch {
		case strings.HasPrefix(a, "-D"):
			d := strings.TrimPrefix(a, "-D")
			if d == "" {
				if i+1 == len(args) {
					return o, fmt.Errorf("-D needs NAME=VALUE")
				}
				i++
				d = args[i]
			}
			n, v, err := define(d)
			if err != nil {
				return o, err
			}
			o.Defines[n] = v
		case name == "--kernel":
			v, err := val()
			if err != nil {
				return o, err
			}
			o.Kernel = v
		case name == "--local" || name == "--global" || name == "--groups":
			v, err := val()
			if err != nil {
				return o, err
			}
			list := strings.Split(v, ",")
			if len(list) > 3 || slices.Contains(list, "") {
				return o, fmt.Errorf("%s %s: want one to three comma-separated sizes", name, v)
			}
			switch name {
			case "--local":
				o.Local = list
			case "--global":
				o.Global = list
			default:
				o.Groups = list
			}
		case name == "--array":
			v, err := val()
			if err != nil {
				return o, err
			}
			n, e, ok := strings.Cut(v, "=")
			if !ok || n == "" || e == "" {
				return o, fmt.Errorf("--array %s: want NAME=EXTENT", v)
			}
			o.Arrays[n] = e
		default:
			return o, fmt.Errorf("unknown flag %q (want -D, --kernel, --local, --global, --groups or --array)", a)
		}
	}
	return o, nil
}

// define reads NAME=VALUE of a -D; a bare NAME defines it as 1, as a C
// compiler does.
func define(d string) (string, string, error) {
	n, v, ok := strings.Cut(d, "=")
	if !ok {
		v = "1"
	}
	if n == "" || !isIdentStart(n[0]) || strings.IndexFunc(n, func(r rune) bool { return r > 127 || !isIdentChar(byte(r)) }) >= 0 {
		return "", "", fmt.Errorf("-D %s: want NAME=VALUE with a C name", d)
	}
	return n, v, nil
}
