package program

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Program is a parsed program file.
type Program struct {
	Name string
	File string
	// Batch names the let that is the batch size; empty when the file
	// has no batch line.
	Batch           string
	Loading, Update float64 // seconds, (6-4)
	Launches        []Launch

	lets             []let
	exchange         expr // nil without an exchange line
	exchangeLine     int
	hasName, hasExch bool
}

type let struct {
	name string
	e    expr
	line int
}

// Launch is one launch line.
type Launch struct {
	Line   int
	Layer  string
	Phase  Phase
	Kernel string
	params []arg
	consts []arg
}

type arg struct {
	name string
	e    expr
}

// maxLine bounds a line, so that a corrupt file is an error rather than a
// buffer the size of the file.
const maxLine = 1 << 16

// Parse reads a program file; file names it in errors.
func Parse(file string, src []byte) (*Program, error) {
	p := &Program{File: file}
	ps := &parser{p: p, lets: map[string]bool{}}
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	line := 0
	for sc.Scan() {
		line++
		ps.n = line
		text, _, _ := strings.Cut(sc.Text(), "#")
		text = strings.TrimSpace(text)
		if text == "" {
			continue
		}
		if err := ps.line(text); err != nil {
			return nil, &Error{File: file, Line: line, Msg: err.Error()}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &Error{File: file, Line: line + 1, Msg: err.Error()}
	}
	if len(p.Launches) == 0 {
		return nil, &Error{File: file, Line: max(line, 1), Msg: "the program launches no kernel"}
	}
	return p, nil
}

type parser struct {
	p     *Program
	lets  map[string]bool
	layer string
	phase Phase
	n     int // the line being parsed, 1-based
}

func (ps *parser) line(text string) error {
	keyword, rest, _ := strings.Cut(text, " ")
	rest = strings.TrimSpace(rest)
	switch keyword {
	case "program":
		if ps.p.hasName {
			return fmt.Errorf("a second program line")
		}
		if !isName(strings.ReplaceAll(rest, "-", "_")) {
			return fmt.Errorf("program %q: want a name", rest)
		}
		ps.p.Name, ps.p.hasName = rest, true
	case "let":
		return ps.let(rest)
	case "batch":
		if ps.p.Batch != "" {
			return fmt.Errorf("a second batch line")
		}
		if !ps.lets[rest] {
			return fmt.Errorf("batch %s: not a let defined above", rest)
		}
		ps.p.Batch = rest
	case "exchange":
		if ps.p.hasExch {
			return fmt.Errorf("a second exchange line")
		}
		e, err := ps.expr(rest)
		if err != nil {
			return err
		}
		ps.p.exchange, ps.p.exchangeLine, ps.p.hasExch = e, ps.lineNo(), true
	case "loading", "update":
		v, err := strconv.ParseFloat(rest, 64)
		if err != nil || !(v >= 0) || v > 1e300 {
			return fmt.Errorf("%s %q: want a non-negative number of seconds", keyword, rest)
		}
		if keyword == "loading" {
			ps.p.Loading = v
		} else {
			ps.p.Update = v
		}
	case "layer":
		if !isName(strings.ReplaceAll(rest, "-", "_")) {
			return fmt.Errorf("layer %q: want a name", rest)
		}
		ps.layer = rest
	case "phase":
		switch rest {
		case "forward":
			ps.phase = Forward
		case "backward":
			ps.phase = Backward
		default:
			return fmt.Errorf("phase %q: want forward or backward", rest)
		}
	case "launch":
		return ps.launch(rest)
	default:
		return fmt.Errorf("unknown line %q: want program, let, batch, exchange, loading, update, layer, phase or launch", keyword)
	}
	return nil
}

func (ps *parser) lineNo() int { return ps.n }

func (ps *parser) let(rest string) error {
	n, e, ok := strings.Cut(rest, "=")
	n = strings.TrimSpace(n)
	if !ok || !isName(n) {
		return fmt.Errorf("let %q: want let NAME = EXPR", rest)
	}
	if ps.lets[n] {
		return fmt.Errorf("let %s: defined twice", n)
	}
	x, err := ps.expr(e)
	if err != nil {
		return err
	}
	ps.p.lets = append(ps.p.lets, let{name: n, e: x, line: ps.lineNo()})
	ps.lets[n] = true
	return nil
}

// expr parses an expression and checks that it names only lets defined
// above.
func (ps *parser) expr(src string) (expr, error) {
	e, err := parseExpr(strings.TrimSpace(src))
	if err != nil {
		return nil, err
	}
	var unknown []string
	e.names(func(n string) {
		if !ps.lets[n] {
			unknown = append(unknown, n)
		}
	})
	if len(unknown) > 0 {
		return nil, fmt.Errorf("%s is not a let defined above", strings.Join(unknown, ", "))
	}
	return e, nil
}

func (ps *parser) launch(rest string) error {
	if ps.layer == "" {
		return fmt.Errorf("launch before any layer line")
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return fmt.Errorf("launch: no kernel (want launch KERNEL [NAME=EXPR]... [const NAME=EXPR]...)")
	}
	l := Launch{Line: ps.lineNo(), Layer: ps.layer, Phase: ps.phase, Kernel: fields[0]}
	seen := map[string]bool{}
	consts := false
	for _, f := range fields[1:] {
		if f == "const" {
			if consts {
				return fmt.Errorf("launch %s: const given twice", l.Kernel)
			}
			consts = true
			continue
		}
		n, e, ok := strings.Cut(f, "=")
		if !ok || !isName(n) {
			return fmt.Errorf("launch %s: %q: want NAME=EXPR (no spaces in EXPR)", l.Kernel, f)
		}
		if seen[n] {
			return fmt.Errorf("launch %s: %s given twice", l.Kernel, n)
		}
		seen[n] = true
		x, err := ps.expr(e)
		if err != nil {
			return fmt.Errorf("launch %s: %s: %w", l.Kernel, n, err)
		}
		if consts {
			l.consts = append(l.consts, arg{n, x})
		} else {
			l.params = append(l.params, arg{n, x})
		}
	}
	ps.p.Launches = append(ps.p.Launches, l)
	return nil
}

// Bound is a launch with its parameters and consts evaluated.
type Bound struct {
	Launch
	Params, Consts map[string]int64
}

// Bind evaluates the lets in order, the batch let taking the value of
// batch when batch is positive, and then every launch's arguments and the
// exchange volume. Errors name the line.
func (p *Program) Bind(batch int64) ([]Bound, int64, error) {
	vars := map[string]int64{}
	for _, l := range p.lets {
		v, err := l.e.eval(vars)
		if err != nil {
			return nil, 0, &Error{File: p.File, Line: l.line, Msg: fmt.Sprintf("let %s: %v", l.name, err)}
		}
		if l.name == p.Batch && batch > 0 {
			v = batch
		}
		vars[l.name] = v
	}
	if p.Batch != "" && vars[p.Batch] <= 0 {
		return nil, 0, &Error{File: p.File, Line: p.letLine(p.Batch), Msg: fmt.Sprintf("batch %s = %d: want a positive batch", p.Batch, vars[p.Batch])}
	}
	var exchange int64
	if p.hasExch {
		v, err := p.exchange.eval(vars)
		if err != nil || v < 0 {
			msg := fmt.Sprintf("exchange: %v", err)
			if err == nil {
				msg = fmt.Sprintf("exchange %d bytes: must not be negative", v)
			}
			return nil, 0, &Error{File: p.File, Line: p.exchangeLine, Msg: msg}
		}
		exchange = v
	}
	out := make([]Bound, len(p.Launches))
	for i, l := range p.Launches {
		b := Bound{Launch: l, Params: map[string]int64{}, Consts: map[string]int64{}}
		for _, set := range []struct {
			args []arg
			to   map[string]int64
		}{{l.params, b.Params}, {l.consts, b.Consts}} {
			for _, a := range set.args {
				v, err := a.e.eval(vars)
				if err != nil {
					return nil, 0, &Error{File: p.File, Line: l.Line, Msg: fmt.Sprintf("launch %s: %s: %v", l.Kernel, a.name, err)}
				}
				set.to[a.name] = v
			}
		}
		out[i] = b
	}
	return out, exchange, nil
}

func (p *Program) letLine(name string) int {
	for _, l := range p.lets {
		if l.name == name {
			return l.line
		}
	}
	return 0
}

// BatchValue is the batch let's value as the file gives it; 0 without a
// batch line.
func (p *Program) BatchValue() (int64, error) {
	if p.Batch == "" {
		return 0, nil
	}
	vars := map[string]int64{}
	for _, l := range p.lets {
		v, err := l.e.eval(vars)
		if err != nil {
			return 0, &Error{File: p.File, Line: l.line, Msg: fmt.Sprintf("let %s: %v", l.name, err)}
		}
		vars[l.name] = v
		if l.name == p.Batch {
			return v, nil
		}
	}
	return 0, nil
}
