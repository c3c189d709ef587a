package counts

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// tokKind classifies a token of the .knl language. Domain text, instruction
// expressions and declarations share one lexer.
type tokKind uint8

const (
	tEOF tokKind = iota
	tNewline
	tIdent
	tInt
	tFloat
	tPunct
	// tUint is an integer literal with C's u suffix, 7u; the parser
	// makes it of the digits and the adjacent word u (the lexer reads
	// 2i as 2 times i in domains).
	tUint
)

type token struct {
	kind tokKind
	text string
	pos  Pos
}

func (t token) is(punct string) bool { return t.kind == tPunct && t.text == punct }

func (t token) isWord(w string) bool { return t.kind == tIdent && t.text == w }

// describe names a token for error messages ("expected ']', found 'and'").
func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tNewline:
		return "end of line"
	}
	return "'" + t.text + "'"
}

// Multi-character punctuation, longest first.
var puncts = []string{"...", "..", "->", "**", "//", "<=", ">=", "==", "!=", "<<", ">>",
	"[", "]", "{", "}", "(", ")", ",", ":", ";", "=", "<", ">", "+", "-", "*", "/", "%", ".",
	"|", "&", "^", "~", "$"}

// cHints say what to write for C's spellings.
var cHints = map[rune]string{
	'?': ": write a conditional value as if(COND, THEN, ELSE) or THEN if COND else ELSE",
	'!': ": write not",
}

// lex splits src into tokens. Comments run from '#' to the end of the line.
// It reports the first character it cannot read.
func lex(file string, src []byte) ([]token, error) {
	// A NUL byte is no text: refused before the source is copied into
	// a string, which doubled the memory of a 2 GB sparse file.
	if i := bytes.IndexByte(src, 0); i >= 0 {
		line := bytes.Count(src[:i], []byte("\n")) + 1
		col := i - bytes.LastIndexByte(src[:i], '\n')
		return nil, errorf(file, Pos{line, col}, "a NUL byte: a kernel is a text file")
	}
	var toks []token
	line, col := 1, 1
	s := string(src)
	for i := 0; i < len(s); {
		c := s[i]
		pos := Pos{line, col}
		adv := func(n int) {
			i += n
			col += n
		}
		switch {
		case c == '\n':
			toks = append(toks, token{tNewline, "\n", pos})
			i++
			line, col = line+1, 1
		case c == ' ' || c == '\t' || c == '\r':
			adv(1)
		case c == '#':
			for i < len(s) && s[i] != '\n' {
				adv(1)
			}
		case isIdentStart(c):
			j := i
			for j < len(s) && isIdentChar(s[j]) {
				j++
			}
			toks = append(toks, token{tIdent, s[i:j], pos})
			adv(j - i)
		case c >= '0' && c <= '9':
			j, kind := scanNumber(s, i)
			toks = append(toks, token{kind, s[i:j], pos})
			adv(j - i)
		default:
			matched := false
			for _, p := range puncts {
				if strings.HasPrefix(s[i:], p) {
					toks = append(toks, token{tPunct, p, pos})
					adv(len(p))
					matched = true
					break
				}
			}
			if !matched {
				r, _ := utf8.DecodeRuneInString(s[i:])
				return nil, errorf(file, pos, "unexpected character %q%s", r, cHints[r])
			}
		}
	}
	toks = append(toks, token{tEOF, "", Pos{line, col}})
	return toks, nil
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isIdentChar(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// scanNumber reads an integer or a floating-point literal starting at s[i].
// A float has a fraction or an exponent and may end in 'f' (single
// precision). Digits directly followed by letters stay an integer, so that
// "2i" reads as 2 times i in domains.
func scanNumber(s string, i int) (int, tokKind) {
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	kind := tInt
	if j < len(s) && s[j] == '.' && !(j+1 < len(s) && s[j+1] == '.') {
		j++
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		kind = tFloat
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && isDigit(s[k]) {
			for k < len(s) && isDigit(s[k]) {
				k++
			}
			j = k
			kind = tFloat
		}
	}
	if kind == tFloat && j < len(s) && (s[j] == 'f' || s[j] == 'F') && !(j+1 < len(s) && isIdentChar(s[j+1])) {
		j++
	}
	return j, kind
}
