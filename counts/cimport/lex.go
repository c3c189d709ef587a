package cimport

import (
	"strings"
)

// tokKind is the lexical class of a token.
type tokKind int

const (
	tIdent tokKind = iota
	tNumber
	tString // string and character literals, which kernels do not use
	tPunct
	tEOF
)

// token is one C token. bol marks the first token of a logical line
// (backslash-newlines joined), which is where directives start.
type token struct {
	kind  tokKind
	text  string
	p     pos
	bol   bool
	line  int    // logical line number, for directives
	macro string // the command-line macro it was expanded from, if any
	hide  []string
}

// punctuators, longest first so that the lexer takes the longest match.
var punctuators = []string{
	"<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
	"+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=", "::", "##",
	"[", "]", "(", ")", "{", "}", ".", "&", "*", "+", "-", "~", "!", "/", "%", "<", ">",
	"^", "|", "?", ":", ";", "=", ",", "#",
}

// lexed is a source split into tokens, with the uniperf comments
// (the comment convention for sizes) it holds.
type lexed struct {
	toks     []token
	comments []comment
}

// comment is the text after "uniperf:" in a // or /* */ comment.
type comment struct {
	text string
	p    pos
}

// lex splits src into tokens. It fails on an unterminated comment or
// literal and on a character that is no C token.
func lex(src string) (*lexed, error) {
	out := &lexed{}
	line, col, lline := 1, 1, 1
	bol := true
	i := 0
	adv := func(n int) {
		for k := 0; k < n && i < len(src); k++ {
			if src[i] == '\n' {
				line++
				col = 1
			} else {
				col++
			}
			i++
		}
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\\' && i+1 < len(src) && (src[i+1] == '\n' || src[i+1] == '\r' && i+2 < len(src) && src[i+2] == '\n'):
			if src[i+1] == '\r' {
				adv(1)
			}
			adv(2)
			continue
		case c == '\n':
			adv(1)
			lline++
			bol = true
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			adv(1)
			continue
		case strings.HasPrefix(src[i:], "//"):
			start := pos{line, col}
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				j = len(src) - i
			}
			out.note(src[i+2:i+j], start)
			adv(j)
			continue
		case strings.HasPrefix(src[i:], "/*"):
			start := pos{line, col}
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				return nil, errorAt(start, "a comment /* is not closed")
			}
			text := src[i+2 : i+2+j]
			out.note(text, start)
			lline += strings.Count(text, "\n")
			adv(j + 4)
			continue
		}
		p := pos{line, col}
		t := token{p: p, bol: bol, line: lline}
		bol = false
		switch {
		case isIdentStart(c):
			j := i
			for j < len(src) && isIdentChar(src[j]) {
				j++
			}
			t.kind, t.text = tIdent, src[i:j]
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
			j := i
			for j < len(src) && (isIdentChar(src[j]) || src[j] == '.' ||
				(src[j] == '+' || src[j] == '-') && (src[j-1] == 'e' || src[j-1] == 'E' || src[j-1] == 'p' || src[j-1] == 'P') && !strings.HasPrefix(strings.ToLower(src[i:j]), "0x")) {
				j++
			}
			t.kind, t.text = tNumber, src[i:j]
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(src) && src[j] != c && src[j] != '\n' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(src) || src[j] != c {
				return nil, errorAt(p, "a literal %c is not closed on its line", c)
			}
			t.kind, t.text = tString, src[i:j+1]
		default:
			for _, s := range punctuators {
				if strings.HasPrefix(src[i:], s) {
					t.kind, t.text = tPunct, s
					break
				}
			}
			if t.text == "" {
				return nil, errorAt(p, "unexpected character %q", c)
			}
		}
		adv(len(t.text))
		out.toks = append(out.toks, t)
	}
	out.toks = append(out.toks, token{kind: tEOF, p: pos{line, col}, bol: true, line: lline + 1})
	return out, nil
}

// note keeps a comment of the convention "uniperf: FLAGS".
func (l *lexed) note(text string, p pos) {
	t := strings.TrimSpace(text)
	if rest, ok := strings.CutPrefix(t, "uniperf:"); ok {
		l.comments = append(l.comments, comment{strings.TrimSpace(rest), p})
	}
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isIdentChar(c byte) bool  { return isIdentStart(c) || isDigit(c) }
func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
