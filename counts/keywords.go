package counts

import "slices"

// The language's reserved words, which the statement parser and the
// resolver both refuse as names.

// declarationKeywords start the statements that declare rather than
// execute; they may not stand inside a for or if block.
var declarationKeywords = []string{"kernel", "const", "domain", "assume", "array", "local", "private", "scalar", "split", "tag"}

// statementKeywords start statements.
var statementKeywords = append(slices.Clip(declarationKeywords), "barrier", "for", "if", "elif", "else", "end", "with")

// reservedName reports whether a word of the language's syntax cannot
// name an array or temporary.
func reservedName(name string) bool {
	return name != "end" && slices.Contains(statementKeywords, name) || slices.Contains(exprKeywords, name) ||
		reduceNames[name] != 0 || funcArity[name] != 0
}

// funcArity lists the special functions and their number of arguments.
var funcArity = map[string]int{
	"exp": 1, "log": 1, "sqrt": 1, "rsqrt": 1, "sin": 1, "cos": 1, "fabs": 1,
	"pow": 2, "fmin": 2, "fmax": 2, "fmod": 2,
}

// nameEnd reports whether the statement at c starts with end used as a
// name (C's int end, CSR's row end): an end that closes a block stands
// alone on its line, and end followed by anything else is an
// instruction's left-hand side.
func nameEnd(c *cursor) bool {
	if !c.peek().isWord("end") {
		return false
	}
	t := c.peekAt(1)
	return t.kind != tNewline && t.kind != tEOF
}
