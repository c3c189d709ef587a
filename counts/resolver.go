package counts

// resolver carries the state of finish.
type resolver struct {
	b         *builder
	k         *Kernel
	expand    map[string]Affine    // split-away iname -> affine in current inames
	splitInto map[string][2]string // split-away iname -> its outer and inner parts
	inamePos  map[string]Pos
	isParam   map[string]bool
	// held maps the temporary of an if block's condition to the
	// condition it holds (ifonce.go).
	held map[*Array]Expr
	// affineTemps are the temporaries that hold affine values, cur the
	// statement being resolved, and inCond whether a condition is
	// (affinetemp.go).
	affineTemps map[string]*affineTemp
	cur         *rawStatement
	inCond      bool
}

func (r *resolver) errf(pos Pos, format string, args ...any) error {
	return errorf(r.b.file, pos, format, args...)
}

// resolveBailout aborts the resolution of a statement with an error.
type resolveBailout struct{ err error }

func (r *resolver) fail(pos Pos, format string, args ...any) {
	panic(resolveBailout{r.errf(pos, format, args...)})
}

// unknownIname explains why name is not an iname.
func (r *resolver) unknownIname(pos Pos, name, context string) error {
	if parts, ok := r.splitInto[name]; ok {
		return r.errf(pos, "%s: iname %s was split into %s and %s; use those", context, name, parts[0], parts[1])
	}
	return r.errf(pos, "%s: %s is not an iname", context, name)
}

// affineTemp is what the resolver keeps of a temporary that holds an
// affine value.
type affineTemp struct {
	value  rexpr    // the right-hand side, resolved again at each use
	inames []string // the inames the value names
	loops  []token  // the for-block inames around the declaration
	preds  []rexpr  // the conditions around the declaration
	t      DType
}
