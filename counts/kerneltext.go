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
