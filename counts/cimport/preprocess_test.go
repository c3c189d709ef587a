package cimport

import (
	"strings"
	"testing"
)

// TestPreprocess checks the preprocessor on what kernels use: object
// and function-like macros, arguments expanded before substitution, #
// and ##, #if with defined, #elif and #else, and a -D that wins over
// the source's #define.
func TestPreprocess(t *testing.T) {
	for _, c := range []struct {
		src  string
		defs map[string]string
		want string
	}{
		{"#define N 16\nN*2", nil, "16 * 2"},
		{"#define N 16\nN", map[string]string{"N": "32"}, "32"},
		{"#define SQ(x) ((x)*(x))\n#define N 3\nSQ(N+1)", nil, "( ( 3 + 1 ) * ( 3 + 1 ) )"},
		{"#define X(a) a a\nX(X(1))", nil, "1 1 1 1"},
		{"#define CAT(a, b) a ## b\n#define ab1 7\nCAT(ab, 1)", nil, "7"},
		{"#define S(a) #a\nS(x + 1)", nil, `"x + 1"`},
		{"#define A B\n#define B A\nA", nil, "A"},
		{"#if defined(N) && N > 8\nbig\n#elif defined N\nsmall\n#else\nnone\n#endif", map[string]string{"N": "4"}, "small"},
		{"#ifndef N\n#define N 2\n#endif\n#if N == 2\ntwo\n#endif", nil, "two"},
		{"#if 0\n#error no\n#endif\nok", nil, "ok"},
		{"#define F(x, ...) x __VA_ARGS__\nF(1, 2, 3)", nil, "1 2 , 3"},
		{"#define UMUL(a, b) a\nUMAD(1, 2, UMUL(3, 4))", map[string]string{"UMUL(a,b)": "((a)*(b))", "UMAD(a, b,c)": "(UMUL((a),(b))+(c))"}, "( ( ( ( 1 ) ) * ( ( 2 ) ) ) + ( ( ( 3 ) * ( 4 ) ) ) )"},
	} {
		l, err := lex(c.src)
		if err != nil {
			t.Fatal(err)
		}
		toks, _, _, err := preprocess(l, c.defs, nil, nil)
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
			continue
		}
		if got := spell(toks[:len(toks)-1]); got != c.want {
			t.Errorf("%q: %q, want %q", c.src, got, c.want)
		}
	}
}

// TestPreprocessBounds: recursive and exponential macros, and broken
// directives, end in errors at their place.
func TestPreprocessBounds(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"#define X(a) a a\n#define Y X(X(X(X(X(X(X(X(1))))))))\n#define Z X(X(X(X(X(X(X(X(X(X(X(Y)))))))))))\nZ", "4:1: macros expand to more than 262144 tokens"},
		{"#if 1\nx", "1:1: #if is not closed by #endif"},
		{"#endif", "1:1: #endif without #if"},
		{"#define F(x) x\nF(1", "2:1: macro F: its arguments are not closed"},
		{"#define F(x) x\nF(1, 2)", "2:1: macro F takes 1 arguments, not 2"},
		{"#error stop here", "1:1: #error stop here"},
		{"#foo", "1:1: unknown directive #foo"},
	} {
		l, err := lex(c.src)
		if err != nil {
			t.Fatal(err)
		}
		_, _, _, err = preprocess(l, nil, nil, nil)
		if err == nil || !strings.HasPrefix(err.Error(), ":"+c.want) {
			t.Errorf("%q: %v, want %s", c.src, err, c.want)
		}
	}
}

// TestDefineFlags checks -D's forms: NAME, NAME=VALUE and a
// function-like NAME(A,B)=BODY, and refuses others.
func TestDefineFlags(t *testing.T) {
	o, err := ParseFlags([]string{"-D", "N", "-DM=3", "-D", "UMAD(a, b,c)=a*b+c", "-D", "F()=1"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"N": "1", "M": "3", "UMAD(a, b,c)": "a*b+c", "F()": "1"}
	for n, v := range want {
		if o.Defines[n] != v {
			t.Errorf("%s = %q, want %q", n, o.Defines[n], v)
		}
	}
	for _, bad := range []string{"F(a=1", "F(a,)=1", "F(1)=1", "(a)=1", "2N=1"} {
		if _, err := ParseFlags([]string{"-D", bad}); err == nil || !strings.Contains(err.Error(), "want NAME=VALUE or NAME(A,B)=VALUE") {
			t.Errorf("-D %s: %v", bad, err)
		}
	}
}
