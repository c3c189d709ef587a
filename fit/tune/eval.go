package tune

import (
	"math"
	"math/bits"
)

// maxListLen bounds the lists an expression may build (range(10**12)
// would otherwise exhaust memory).
const maxListLen = 1 << 20

// Eval evaluates the expression with the free names bound by env, with
// Python's semantics: / divides to a float, // and % floor, and and or
// return an operand. Integer overflow, division by zero, an unbound
// name and an operation on the wrong types are errors at line:col.
func (e *Expr) Eval(env func(name string) (Value, bool)) (Value, error) {
	ev := &evaluator{src: e.src, left: maxListLen}
	return ev.eval(e.root, env)
}

// evaluator evaluates one expression once, within a budget of list
// elements, so that nested comprehensions cannot exhaust memory.
type evaluator struct {
	src  string
	left int
}

// take spends n list elements of the budget.
func (e *evaluator) take(n *node, count int) error {
	if count > e.left {
		return e.fail(n, "the lists of the expression hold more than %d values", maxListLen)
	}
	e.left -= count
	return nil
}

// Holds evaluates the expression as a restriction: its truth.
func (e *Expr) Holds(env func(name string) (Value, bool)) (bool, error) {
	v, err := e.Eval(env)
	return v.truth(), err
}

func (e *evaluator) fail(n *node, format string, args ...any) error {
	return posError(e.src, n.pos, format, args...)
}

func (e *evaluator) eval(n *node, env func(string) (Value, bool)) (Value, error) {
	switch n.op {
	case "lit":
		return n.val, nil
	case "name":
		v, ok := env(n.name)
		if !ok {
			return Value{}, e.fail(n, "unknown name %s: not a tunable of the space", n.name)
		}
		return v, nil
	case "list":
		if err := e.take(n, len(n.kids)); err != nil {
			return Value{}, err
		}
		l := make([]Value, len(n.kids))
		for i, k := range n.kids {
			v, err := e.eval(k, env)
			if err != nil {
				return Value{}, err
			}
			l[i] = v
		}
		return Value{Kind: List, L: l}, nil
	case "comp":
		return e.comprehension(n, env)
	case "call":
		return e.call(n, env)
	case "not":
		v, err := e.eval(n.kids[0], env)
		return boolValue(!v.truth()), err
	case "neg", "pos":
		v, err := e.eval(n.kids[0], env)
		if err != nil {
			return v, err
		}
		switch {
		case n.op == "pos" && v.Kind != List && v.Kind != String:
			return v, nil
		case v.Kind == Float:
			return Value{Kind: Float, F: -v.F}, nil
		case v.Kind == Int || v.Kind == Bool:
			if v.I == math.MinInt64 {
				return Value{}, e.fail(n, "integer overflow")
			}
			return IntValue(-v.I), nil
		}
		return Value{}, e.fail(n, "unary %s of %s", n.op, v)
	case "and", "or":
		l, err := e.eval(n.kids[0], env)
		if err != nil || l.truth() == (n.op == "or") {
			return l, err
		}
		return e.eval(n.kids[1], env)
	case "ifelse":
		c, err := e.eval(n.kids[1], env)
		if err != nil {
			return c, err
		}
		if c.truth() {
			return e.eval(n.kids[0], env)
		}
		return e.eval(n.kids[2], env)
	case "cmp":
		return e.compareChain(n, env)
	}
	l, err := e.eval(n.kids[0], env)
	if err != nil {
		return l, err
	}
	r, err := e.eval(n.kids[1], env)
	if err != nil {
		return r, err
	}
	return e.arith(n, l, r)
}

func (e *evaluator) compareChain(n *node, env func(string) (Value, bool)) (Value, error) {
	l, err := e.eval(n.kids[0], env)
	if err != nil {
		return l, err
	}
	for i, op := range n.ops {
		r, err := e.eval(n.kids[i+1], env)
		if err != nil {
			return r, err
		}
		ok, err := e.compare(n.kids[i+1], op, l, r)
		if err != nil || !ok {
			return boolValue(false), err
		}
		l = r
	}
	return boolValue(true), nil
}

func (e *evaluator) compare(n *node, op string, l, r Value) (bool, error) {
	switch op {
	case "==":
		return equal(l, r), nil
	case "!=":
		return !equal(l, r), nil
	case "in", "not in":
		if r.Kind != List {
			return false, e.fail(n, "'%s' needs a list or tuple on its right, not %s", op, r)
		}
		found := false
		for _, x := range r.L {
			if equal(l, x) {
				found = true
				break
			}
		}
		return found == (op == "in"), nil
	}
	var c int
	switch {
	case l.Kind == String && r.Kind == String:
		c = compareStrings(l.S, r.S)
	case (l.Kind == Int || l.Kind == Bool) && (r.Kind == Int || r.Kind == Bool):
		c = compareInts(l.I, r.I)
	default:
		x, ok1 := l.number()
		y, ok2 := r.number()
		if !ok1 || !ok2 {
			return false, e.fail(n, "cannot order %s and %s", l, r)
		}
		switch {
		case x < y:
			c = -1
		case x > y:
			c = 1
		}
	}
	switch op {
	case "<":
		return c < 0, nil
	case "<=":
		return c <= 0, nil
	case ">":
		return c > 0, nil
	}
	return c >= 0, nil
}

func compareInts(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (e *evaluator) arith(n *node, l, r Value) (Value, error) {
	if (l.Kind == Int || l.Kind == Bool) && (r.Kind == Int || r.Kind == Bool) {
		return e.intArith(n, l.I, r.I)
	}
	if n.op == "+" && l.Kind == List && r.Kind == List {
		if err := e.take(n, len(l.L)+len(r.L)); err != nil {
			return Value{}, err
		}
		return Value{Kind: List, L: append(append([]Value{}, l.L...), r.L...)}, nil
	}
	x, ok1 := l.number()
	y, ok2 := r.number()
	if !ok1 || !ok2 {
		return Value{}, e.fail(n, "%s %s %s: needs numbers", l, n.op, r)
	}
	var z float64
	switch n.op {
	case "+":
		z = x + y
	case "-":
		z = x - y
	case "*":
		z = x * y
	case "/", "//", "%":
		if y == 0 {
			return Value{}, e.fail(n, "division by zero")
		}
		switch n.op {
		case "/":
			z = x / y
		case "//":
			z = math.Floor(x / y)
		default:
			z = x - y*math.Floor(x/y)
		}
	case "**":
		z = math.Pow(x, y)
	}
	if math.IsInf(z, 0) || math.IsNaN(z) {
		return Value{}, e.fail(n, "%s %s %s is not a finite number", l, n.op, r)
	}
	return Value{Kind: Float, F: z}, nil
}

func (e *evaluator) intArith(n *node, a, b int64) (Value, error) {
	overflow := func() (Value, error) { return Value{}, e.fail(n, "integer overflow in %d %s %d", a, n.op, b) }
	switch n.op {
	case "+":
		s := a + b
		if (s > a) != (b > 0) {
			return overflow()
		}
		return IntValue(s), nil
	case "-":
		s := a - b
		if (s < a) != (b > 0) {
			return overflow()
		}
		return IntValue(s), nil
	case "*":
		p, ok := mul(a, b)
		if !ok {
			return overflow()
		}
		return IntValue(p), nil
	case "/":
		if b == 0 {
			return Value{}, e.fail(n, "division by zero")
		}
		return Value{Kind: Float, F: float64(a) / float64(b)}, nil
	case "//", "%":
		if b == 0 {
			return Value{}, e.fail(n, "division by zero")
		}
		if a == math.MinInt64 && b == -1 {
			return overflow()
		}
		q, m := a/b, a%b
		if m != 0 && (m < 0) != (b < 0) {
			q--
			m += b
		}
		if n.op == "//" {
			return IntValue(q), nil
		}
		return IntValue(m), nil
	}
	// **
	if b < 0 {
		if a == 0 {
			return Value{}, e.fail(n, "0 to a negative power")
		}
		return Value{Kind: Float, F: math.Pow(float64(a), float64(b))}, nil
	}
	p := int64(1)
	for range b {
		var ok bool
		if p, ok = mul(p, a); !ok {
			return overflow()
		}
		if p == 0 || p == 1 {
			break
		}
	}
	return IntValue(p), nil
}

// mul multiplies exactly, reporting overflow.
func mul(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	neg := (a < 0) != (b < 0)
	ua, ub := uint64(a), uint64(b)
	if a < 0 {
		ua = -ua
	}
	if b < 0 {
		ub = -ub
	}
	hi, lo := bits.Mul64(ua, ub)
	if hi != 0 || !neg && lo > math.MaxInt64 || neg && lo > 1<<63 {
		return 0, false
	}
	if neg {
		return int64(-lo), true
	}
	return int64(lo), true
}

func (e *evaluator) iterate(n *node, v Value) ([]Value, error) {
	if v.Kind != List {
		return nil, e.fail(n, "%s is not a list, tuple or range", v)
	}
	return v.L, nil
}

func (e *evaluator) comprehension(n *node, env func(string) (Value, bool)) (Value, error) {
	it, err := e.eval(n.kids[1], env)
	if err != nil {
		return it, err
	}
	items, err := e.iterate(n.kids[1], it)
	if err != nil {
		return Value{}, err
	}
	if err := e.take(n, len(items)); err != nil {
		return Value{}, err
	}
	out := make([]Value, len(items))
	for i, x := range items {
		inner := func(name string) (Value, bool) {
			if name == n.name {
				return x, true
			}
			return env(name)
		}
		if out[i], err = e.eval(n.kids[0], inner); err != nil {
			return Value{}, err
		}
	}
	return Value{Kind: List, L: out}, nil
}

func (e *evaluator) call(n *node, env func(string) (Value, bool)) (Value, error) {
	args := make([]Value, len(n.kids))
	for i, k := range n.kids {
		v, err := e.eval(k, env)
		if err != nil {
			return v, err
		}
		args[i] = v
	}
	switch n.name {
	case "range":
		var b [3]int64
		b[2] = 1
		for i, a := range args {
			v, ok := a.Integer()
			if !ok || a.Kind == Float {
				return Value{}, e.fail(n, "range takes integers, not %s", a)
			}
			b[i] = v
		}
		start, stop, step := b[0], b[1], b[2]
		if len(args) == 1 {
			start, stop = 0, b[0]
		}
		if step == 0 {
			return Value{}, e.fail(n, "range with step 0")
		}
		var l []Value
		for v := start; step > 0 && v < stop || step < 0 && v > stop; v += step {
			if err := e.take(n, 1); err != nil {
				return Value{}, err
			}
			l = append(l, IntValue(v))
			if step > 0 && v > math.MaxInt64-step || step < 0 && v < math.MinInt64-step {
				break
			}
		}
		return Value{Kind: List, L: l}, nil
	case "list":
		items, err := e.iterate(n.kids[0], args[0])
		return Value{Kind: List, L: items}, err
	case "abs":
		return e.arithAbs(n, args[0])
	}
	items := args
	if len(args) == 1 {
		var err error
		if items, err = e.iterate(n.kids[0], args[0]); err != nil {
			return Value{}, err
		}
	}
	if len(items) == 0 {
		return Value{}, e.fail(n, "%s of nothing", n.name)
	}
	best := items[0]
	for _, x := range items[1:] {
		less, err := e.compare(n, "<", x, best)
		if err != nil {
			return Value{}, err
		}
		if less == (n.name == "min") && !equal(x, best) {
			best = x
		}
	}
	return best, nil
}

func (e *evaluator) arithAbs(n *node, v Value) (Value, error) {
	switch v.Kind {
	case Float:
		return Value{Kind: Float, F: math.Abs(v.F)}, nil
	case Int, Bool:
		if v.I == math.MinInt64 {
			return Value{}, e.fail(n, "integer overflow")
		}
		if v.I < 0 {
			return IntValue(-v.I), nil
		}
		return IntValue(v.I), nil
	}
	return Value{}, e.fail(n, "abs of %s", v)
}
