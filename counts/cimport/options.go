package cimport

import (
	"fmt"
	"slices"
	"strings"
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
	Groups  []string          // the work-groups along each axis (gridDim), where Global is not given, in C's arithmetic: a division truncates
	Arrays  map[string]string // NAME=EXTENT: a global array's number of elements
	Trips   map[string]string // VAR=BOUND: the most iterations of the loop over VAR, whose bounds are data
	Assume  []string          // conditions on the integer arguments that the host guarantees, in C

	bound    map[string]string // the floating-point arguments a -D gives a value
	tunables map[string]int64  // the -D macros that are consts, by value
	baked    map[string]string // the -D integers that are literals, and why
	splits   map[int]split     // the axes whose work-item index is split into lanes, by axis
}

// ParseFlags reads import's flags: -D NAME=VALUE (or -DNAME=VALUE),
// --kernel NAME, --local X[,Y[,Z]], --global X[,Y[,Z]],
// --groups X[,Y[,Z]], --array NAME=EXTENT, --trips VAR=BOUND, --assume COND. It reads the comments of the
// convention "// uniperf: FLAGS".
func ParseFlags(args []string) (Options, error) {
	o := Options{Defines: map[string]string{}, Arrays: map[string]string{}, Trips: map[string]string{}}
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
		case name == "--array" || name == "--trips":
			v, err := val()
			if err != nil {
				return o, err
			}
			n, e, ok := strings.Cut(v, "=")
			if !ok || n == "" || e == "" {
				return o, fmt.Errorf("%s %s: want NAME=%s", name, v, map[string]string{"--array": "EXTENT", "--trips": "BOUND"}[name])
			}
			if name == "--array" {
				o.Arrays[n] = e
			} else {
				o.Trips[n] = e
			}
		case name == "--assume":
			v, err := val()
			if err != nil {
				return o, err
			}
			o.Assume = append(o.Assume, v)
		default:
			return o, fmt.Errorf("unknown flag %q (want -D, --kernel, --local, --global, --groups, --array, --trips or --assume)", a)
		}
	}
	return o, nil
}

// define reads NAME=VALUE of a -D; a bare NAME defines it as 1, as a C
// compiler does. NAME(PARAMS)=BODY defines a function-like macro (the
// header's UMAD(a,b,c)=((a)*(b)+(c))), whose key keeps its parameters.
func define(d string) (string, string, error) {
	n, v, ok := strings.Cut(d, "=")
	if !ok {
		v = "1"
	}
	bad := fmt.Errorf("-D %s: want NAME=VALUE or NAME(A,B)=VALUE with C names", d)
	name, params, fn := strings.Cut(n, "(")
	if fn {
		list, closed := strings.CutSuffix(params, ")")
		if !closed {
			return "", "", bad
		}
		for _, a := range strings.Split(list, ",") {
			if a = strings.TrimSpace(a); !isCName(a) && !(a == "" && strings.TrimSpace(list) == "") {
				return "", "", bad
			}
		}
	}
	if !isCName(name) {
		return "", "", bad
	}
	return n, v, nil
}

func isCName(n string) bool {
	return n != "" && isIdentStart(n[0]) && strings.IndexFunc(n, func(r rune) bool { return r > 127 || !isIdentChar(byte(r)) }) < 0
}

// split is the divisor by which an axis's work-item index is split, and
// where the translation first divided it.
type split struct {
	c int64
	p pos
	// what C wrote there: & 31, % 32 or / 32
	what string
}
