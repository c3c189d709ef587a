package counts

// KernelText is a .knl kernel's text split into statements of tokens,
// once, so that a caller parsing it with many bindings of its consts
// (tune ranking a space) does not read the text again for each: lexing
// and splitting were a third of ParseKernel's time for the tiled
// convolution. Parsing substitutes the consts into a copy of each
// statement's tokens, so one KernelText serves any number of bindings,
// concurrently too.
type KernelText struct {
	file       string
	statements [][]token
}

// LexKernel reads the tokens of a .knl kernel's text. Its errors are
// ParseKernel's lexical errors, *Error values naming the file, line and
// column.
func LexKernel(filename string, src []byte) (*KernelText, error) {
	toks, err := lex(filename, src)
	if err != nil {
		return nil, err
	}
	return &KernelText{file: filename, statements: splitStatements(toks)}, nil
}

// splitStatements groups tokens into statements: a newline ends a
// statement unless a bracket is open, so domains and long instructions
// may span lines. Each statement ends with its newline or EOF token.
func splitStatements(toks []token) [][]token {
	var out [][]token
	var cur []token
	depth := 0
	for _, t := range toks {
		switch {
		case t.is("(") || t.is("[") || t.is("{"):
			depth++
		case t.is(")") || t.is("]") || t.is("}"):
			if depth > 0 {
				depth--
			}
		case t.kind == tNewline && depth > 0:
			continue
		case t.kind == tEOF || t.kind == tNewline:
			if len(cur) > 0 {
				out = append(out, append(cur, t))
			}
			cur = nil
			continue
		}
		cur = append(cur, t)
	}
	return out
}
