package polyhedra

import (
	"fmt"
	"slices"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// SyntaxError is a malformed set: Line and Col (1-based, Col counts
// characters) point at the offending token, Msg says what was expected.
type SyntaxError struct {
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tPunct // operators and brackets; text holds the spelling
)

// token is kept small: a set's text runs to hundreds of them.
type token struct {
	text      string
	val       int64
	line, col int32
	kind      tokKind
}

func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tInt:
		return fmt.Sprintf("%q", t.text)
	}
	return fmt.Sprintf("%q", t.text)
}

// punctuation: the seven of two characters first, so that "<=" wins
// over "<".
var puncts = []string{"->", "<=", ">=", "==", "!=", "&&", "||", "[", "]", "{", "}", "(", ")",
	",", ":", ";", "+", "-", "*", "/", "%", "<", ">", "=", "&", "|", "!"}

// lex appends the tokens of src to toks.
func lex(src string, toks []token) ([]token, error) {
	// Sets that programs write run to a token every two to four
	// characters; growing the slice from nothing was a tenth of all the
	// allocation of counting a kernel, and growing it from a third of the
	// length a third of the time of lexing.
	if n := len(src)/2 + 1; cap(toks)-len(toks) < n {
		toks = slices.Grow(toks, n)
	}
	line, col := 1, 1
	i := 0
	for i < len(src) {
		if c := src[i]; c == ' ' || c == '\t' {
			i++
			col++
			continue
		}
		r, size := rune(src[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(src[i:])
		}
		switch {
		case r == utf8.RuneError && size == 1:
			return nil, &SyntaxError{line, col, "invalid UTF-8 encoding"}
		case r == '\n':
			i++
			line, col = line+1, 1
			continue
		case unicode.IsSpace(r):
			i += size
			col++
			continue
		case r == '#': // comment to the end of the line
			for i < len(src) && src[i] != '\n' {
				_, size := utf8.DecodeRuneInString(src[i:])
				i += size
				col++
			}
			continue
		}
		start := token{line: int32(line), col: int32(col)}
		j := i // the token is src[i:j], on one line
		switch {
		case isIdentStart(r):
			for j < len(src) {
				if c := src[j]; c < utf8.RuneSelf {
					if c == '_' || c == '\'' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
						j++
						continue
					}
					break
				}
				r, size := utf8.DecodeRuneInString(src[j:])
				if !isIdentStart(r) && !unicode.IsDigit(r) && r != '\'' {
					break
				}
				j += size
			}
			start.kind, start.text = tIdent, src[i:j]
		case r >= '0' && r <= '9':
			for j < len(src) && src[j] >= '0' && src[j] <= '9' {
				j++
			}
			v, err := strconv.ParseInt(src[i:j], 10, 64)
			if err != nil {
				return nil, &SyntaxError{line, col, fmt.Sprintf("integer %s does not fit in 64 bits", src[i:j])}
			}
			start.kind, start.text, start.val = tInt, src[i:j], v
		default:
			p := matchPunct(src[i:])
			if p == "" {
				return nil, &SyntaxError{line, col, fmt.Sprintf("unexpected character %q", r)}
			}
			start.kind, start.text = tPunct, p
			j += len(p)
		}
		col += utf8.RuneCountInString(src[i:j])
		i = j
		toks = append(toks, start)
	}
	return append(toks, token{kind: tEOF, line: int32(line), col: int32(col)}), nil
}

func isIdentStart(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r)
}

// matchPunct returns the punctuation s starts with, the longest where
// one is the start of another ("<=" before "<"), or "".
func matchPunct(s string) string {
	if len(s) >= 2 {
		switch s[1] {
		case '>', '=', '&', '|':
			if p := s[:2]; slices.Contains(puncts[:7], p) {
				return p
			}
		}
	}
	for _, p := range puncts[7:] {
		if s[0] == p[0] {
			return p
		}
	}
	return ""
}
