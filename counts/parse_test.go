package counts_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

func mustParse(t testing.TB, src string) *counts.Kernel {
	t.Helper()
	k, err := counts.ParseKernel("test.knl", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func instr(t testing.TB, k *counts.Kernel, id string) *counts.Instruction {
	t.Helper()
	for _, s := range k.Statements {
		if in, ok := s.(*counts.Instruction); ok && in.ID == id {
			return in
		}
	}
	t.Fatalf("no instruction %s", id)
	return nil
}

// TestParseErrors checks that bad kernels are rejected with the file, the
// line and column of the culprit, and what is wrong.
func TestParseErrors(t *testing.T) {
	const head = "kernel k\ndomain [n] -> { [i, j] : 0 <= i, j < n }\narray a f32 [n]\narray m f32 [n, n]\narray o i32 [n]\n"
	cases := []struct {
		name, src, pos, msg string
	}{
		{"empty", "", "", "no 'kernel NAME' statement"},
		{"kernel first", "domain { [i] : 0 <= i < 4 }\n", "1:1", "expected 'kernel NAME' before anything else"},
		{"bad character", "kernel k\n@\n", "2:1", "unexpected character '@'"},
		{"C conditional", head + "a[i] = i > 0 ? 1 : 2\n", "6:14", "unexpected character '?': write a conditional value as if(COND, THEN, ELSE)"},
		{"C not", head + "a[i] = if(!(i > 0), 1, 2)\n", "6:11", "unexpected character '!': write not"},
		{"C and", head + "a[i] = if(i > 0 && i < 3, 1, 2)\n", "6:17", "&& is C's; write and"},
		{"ternary without else", head + "a[i] = 1 if i > 0\n", "6:18", "expected 'else' of the conditional expression"},
		{"second kernel", "kernel k\nkernel l\n", "2:1", "second 'kernel' statement"},
		{"undeclared array", head + "a[i] = b[i]\n", "6:8", "undeclared array b: declare it (array b f32 [n], or local or private), or make it a private temporary where it is first assigned (<> b = ..., <f32> b = ...)"},
		{"non-affine subscript", head + "a[i*j] = 1\n", "6:4", "non-affine subscript"},
		{"iname squared", head + "a[(i + 1)*i] = 1\n", "6:10", "non-affine subscript: (i + 1)*(i) multiplies inames i and i; a subscript may multiply an iname by parameters and constants only; where the original needs it, compute the subscript into an integer temporary first (<i32> t = ..., then a[t])"},
		{"iname product after parameter", head + "m[i, n*j*i] = 1\n", "6:9", "multiplies inames i and j"},
		{"floor-division assignment", head + "o[i] //= 2\n", "6:6", "//= is not an assignment (write =, +=, -=, *= or /=)"},
		{"compound declaration", head + "<> t += 1\n", "6:6", "+= declares t and reads it at once: write <> t = EXPR"},
		{"division by a parameter", head + "a[i // n] = 1\n", "6:5", "non-affine subscript: // by n; subscripts may divide by positive constants only (a literal or a const); where the original needs it, compute the subscript into an integer temporary first"},
		{"cast in a subscript", head + "a[(int)(i*j)] = 1\n", "6:3", "non-affine subscript: subscripts must be affine in inames and parameters; where the original needs it, compute the subscript into an integer temporary first"},
		{"remainder of a product", head + "m[i, (i*n) % 4] = 1\n", "6:12", "the dividend of a floor division or remainder in a subscript must be affine, without products or other divisions: write it as constants times inames and parameters, or compute the subscript into an i32 temporary (<i32> t = ..., then a[t]: an indirect access)"},
		{"float data-dependent subscript", head + "a[a[i]] = 1\n", "6:3", "subscripts are integers; convert it with (int)(...)"},
		{"float subscript", head + "a[1.5] = 1\n", "6:3", "subscripts are integers"},
		{"tag out of range", head + "tag i l.3\n", "6:9", "tag l.3 is out of range"},
		{"group tag out of range", head + "tag i g.5\n", "6:9", "tag g.5 is out of range"},
		{"unknown tag", head + "tag i x.0\n", "6:7", "unknown tag \"x\""},
		{"same tag twice", head + "tag i l.0, j l.0\nm[i, j] = 1\n", "7:1", "inames i and j, which are both tagged l.0: a work-item has one index along an axis, so use one of them here, or tag the other with another axis"},
		{"tag unknown iname", head + "tag q l.0\n", "6:5", "q is not an iname"},
		{"tag split iname", head + "split i 4 io ii\ntag i l.0\n", "7:5", "iname i was split into io and ii"},
		{"tagged twice", head + "tag i l.0\ntag i g.0\n", "7:5", "tagged twice"},
		{"unknown function", head + "a[i] = foo(a[i])\n", "6:8", "unknown function foo (known: exp, log, sqrt, rsqrt, sin, cos, fabs, pow, fmin, fmax, fmod, max, min, if, select; "},
		// C's, CUDA's and OpenCL's spellings name the .knl function to write.
		{"C's sqrtf", head + "a[i] = sqrtf(a[i])\n", "6:8", "sqrtf is a C, CUDA or OpenCL C spelling of .knl's sqrt: write sqrt"},
		{"CUDA's __expf", head + "a[i] = __expf(a[i])\n", "6:8", "__expf is a C, CUDA or OpenCL C spelling of .knl's exp: write exp"},
		{"OpenCL's native_powr", head + "a[i] = native_powr(a[i], 2.0f)\n", "6:8", "native_powr is a C, CUDA or OpenCL C spelling of .knl's pow: write pow"},
		{"C's fmaxf", head + "a[i] = fmaxf(a[i], 0.0f)\n", "6:8", "fmaxf is a C, CUDA or OpenCL C spelling of .knl's fmax: write fmax"},
		{"reduction as call", head + "a[i] = sum(a[i])\n", "6:8", "sum is a reduction: write sum(iname, expr)"},
		{"wrong arity", head + "a[i] = pow(a[i])\n", "6:8", "pow takes 2 argument(s), not 1"},
		{"domain syntax", "kernel k\ndomain [n] -> { [i] : 0 <= i < }\n", "2:32", "expected an affine expression, found '}'"},
		{"domain non-affine", "kernel k\ndomain [n] -> { [i] : 0 <= i and i*i < n }\n", "2:35", "non-affine product (i)*(i): one factor must be a constant: make it a const, or give the product a parameter of its own (i < nm with nm passed as n*m)"},
		{"domain division", "kernel k\ndomain [n] -> { [i] : 0 <= i and 2*i/n < 1 }\n", "2:37", "division by n: divisors must be constants: multiply the constraint out (2*i/n < 1 is 2*i < n for n > 0)"},
		{"domain float", "kernel k\ndomain { [i] : 0 <= i < 2.5 }\n", "2:25", "domain constraints need integers, not 2.5: round the bound (i < 2.5 is i <= 2) or scale the constraint (2*i < 5)"},
		{"domain division by zero", "kernel k\ndomain [n] -> { [i] : 0 <= i and i/0 < n }\n", "2:35", "division by zero"},
		{"rational extent", "kernel k\narray a f32 [n/2]\n", "2:14", "array a: the extent (n)/2 divides a parameter, and a shape is affine in the parameters: declare a parameter for the extent and tie it to the others with an assumption (array a f32 [nh] with assume 2*nh <= n <= 2*nh + 1 for n // 2, or assume n = 2*nh where n is even)"},
		{"floor division in an extent", "kernel k\narray a f32 [n // 2]\n", "2:16", "array a: an extent divides as domains do, with floor(e/d) (floor(H/2) for H // 2 of a const H); where it divides a parameter, declare a parameter for the extent and tie it to the others with an assumption (array a f32 [nh] with assume 2*nh <= n <= 2*nh + 1 for n // 2, or assume n = 2*nh where n is even)"},
		{"floor of a parameter in an extent", "kernel k\narray a f32 [floor(n/2)]\n", "2:14", "array a: the extent floor((n)/2) takes floor, ceil or mod of a parameter, and a shape is affine in the parameters: declare a parameter for the extent and tie it to the others with an assumption (array a f32 [nh] with assume 2*nh <= n <= 2*nh + 1 for n // 2, or assume n = 2*nh where n is even)"},
		// A data-bounded loop's max, as an extent, is affine: what
		// divides a parameter is refused with the advice that
		// TestDataLoopMaxAdvice follows.
		{"data loop max divides a parameter", dataLoopMax + "n/2\no[t] = i\nend\nend\n", "7:21", "the max (n)/2 divides a parameter or an iname, and a loop's max is affine in them: where it divides a parameter, declare a parameter for the bound and tie it to the others with an assumption (max nh with assume 2*nh <= n <= 2*nh + 1 for n // 2, or assume n = 2*nh where n is even)"},
		{"data loop max floor of a parameter", dataLoopMax + "floor(n/2)\no[t] = i\nend\nend\n", "7:1", "the loop over i: its max floor((n)/2) takes floor, ceil or mod of a parameter or an iname, and a loop's max is affine in them: where it divides a parameter, declare a parameter for the bound"},
		{"data loop max of consts", dataLoopMax + "7/2\no[t] = i\nend\nend\n", "7:21", "(7)/2 is not an integer: write floor(e/d) or ceil(e/d)"},
		{"rational extent of consts", "kernel k\nconst H = 7\narray a f32 [H/2]\n", "3:14", "array a: the extent (7)/2 is not an integer: write floor(e/d) or ceil(e/d)"},
		{"domain exists", "kernel k\ndomain { [i] : exists q : i = 2q }\n", "2:16", "exists is not supported in kernel domains: write its condition with mod or floor (exists k: i = 2k is i mod 2 = 0)"},
		{"domain min", "kernel k\ndomain [n, m] -> { [i] : 0 <= i < min(n, m) }\n", "2:35", `"min" is not supported in kernel domains: write a constraint per argument (i < min(n, m) is i < n and i < m`},
		{"domain union", "kernel k\ndomain { [i] : 0 <= i < 4; [i] : 8 <= i < 9 }\n", "2:26", "unions written with ';'"},
		{"iname twice", "kernel k\ndomain { [i] : 0 <= i < 4 }\ndomain { [i] : 0 <= i < 4 }\n", "3:11", "iname i is declared twice"},
		{"split unknown", head + "split q 4\n", "6:7", "split: q is not an iname"},
		{"split factor", head + "split i 0\n", "6:9", "split factor must be positive"},
		{"split name clash", head + "split i 4 j k\n", "6:7", "name j is already in use"},
		{"dep later", head + "a[i] = 1 {dep=b}\na[i] = 2 {id=b}\n", "6:1", "does not come earlier"},
		{"dep unknown", head + "a[i] = 1 {dep=zz}\n", "6:1", "no statement has that id"},
		{"duplicate id", head + "a[i] = 1 {id=x}\na[i] = 2 {id=x}\n", "7:14", "id x is used twice"},
		{"unknown annotation", head + "a[i] = 1 {nosync=x}\n", "6:11", "unknown annotation \"nosync\""},
		{"int division", head + "o[i] = i / 2\n", "6:10", "write // for floor division"},
		{"float floor division", head + "a[i] = a[i] // 2\n", "6:13", "needs integer operands"},
		{"int power", head + "o[i] = i ** 2\n", "6:10", "'**' needs a floating-point operand"},
		{"int function", head + "a[i] = exp(i)\n", "6:8", "exp needs floating-point arguments, not i32"},
		{"parallel reduction", head + "tag j l.0\na[i] = sum(j, m[i, j])\n", "7:8", "reduction over parallel iname j (l.0) is not supported: work-items reduce through local memory, as C does; store each one's value into a local array, then add halves after barriers (if j < 32: s[j] += s[j + 32]"},
		{"reduced and used", head + "m[i, j] = sum(j, m[i, j])\n", "6:11", "iname j is reduced over but also used outside the reduction, where it has no value: reduce over an iname of its own (domain { [j2] : ... }, then sum(j2, ...)), or move the use into the reduction"},
		{"nested reductions", head + "a[i] = sum(j, sum(j, m[i, j]))\n", "6:15", "nested reductions over the same iname j: reduce the inner one over an iname of its own (domain { [j2] : ... }, then sum(j2, ...))"},
		{"reduced and annotated", head + "a[i] = sum(j, m[i, j]) {inames=j}\n", "6:8", "iname j is reduced over but is also an iname of the instruction (inames= or a for block)"},
		{"reduced in a for block", head + "for j\na[i] = sum(j, m[i, j])\nend\n", "7:8", "iname j is reduced over but is also an iname of the instruction (inames= or a for block)"},
		{"parallel barrier", head + "tag i l.0\nbarrier {inames=i}\n", "7:1", "barrier inside parallel iname i (l.0): every work-item must reach a barrier, so it may only be inside sequential loops; end the for block over i before the barrier and open it again after it (or drop i from its inames=)"},
		{"temporary past registers", "kernel k\ndomain { [q] : 0 <= q < 70000 }\n<f32> t[q] = 1\n", "3:9", "temporary t would have more than 65536 elements, too many for a work-item's registers: declare it 'local' (one copy per work-group) or 'array' (global memory) with its extent"},
		{"f32 literal out of range", head + "a[i] = 1e39f\n", "6:8", "literal 1e39f is out of range for f32: where it meets an f64 value, write it without its f (an unsuffixed literal is a double)"},
		{"double literal past f32", head + "a[i] = 1e39\n", "6:8", "literal 1e+39 is out of range for f32, the type it is used as here: give what takes it type f64 (array x f64 [n], <f64> t = ...)"},
		{"global barrier", head + "... gbarrier\n", "6:5", "only local barriers are supported"},
		{"subscript count", head + "m[i] = 1\n", "6:1", "m has 2 dimension(s) but is used with 1 subscript(s)"},
		{"assign to iname", head + "i = 1\n", "6:1", "i is an iname, not an array"},
		{"literal range", head + "o[i] = 3000000000\n", "6:8", "literal 3000000000 is out of range for i32: declare what takes it with a type that holds it (i32, or i64 past i32's range: array x i64 [n], <i64> t = ...), or cast the other operand ((i64)x)"},
		{"literal too big", head + "o[i] = 99999999999999999999\n", "6:8", "does not fit in 64 bits"},
		{"keyword array", "kernel k\narray tag f32 [4]\n", "2:7", "reserved"},
		{"shape with iname", head + "array z f32 [i]\n", "6:14", "shape depends on iname i; shapes may use parameters only: declare the extent the host allocates in parameters and constants (array z f32 [n]), and bound i in its domain"},
		{"local parametric", head + "local z f32 [n]\n", "6:14", "local array z: shape must be constant, not n: local memory is sized when the kernel is compiled, so give the extent with a const (const LX = 256, then local z f32 [LX])"},
		{"split by a parameter", head + "split i n\n", "6:9", "split factor n is not a constant: a split's factor is an integer or a const (const LX = 256, then split i LX)"},
		{"integer power", head + "o[i] = o[i] ** 2\n", "6:13", "integer powers are not supported: write the product (x*x), or convert an operand, ((float)x) ** 2"},
		{"reduced twice", head + "a[i] = sum(j, m[i, j]) + sum(j, m[j, i])\n", "6:26", "iname j is reduced over twice in one instruction: compute each reduction into a temporary of its own (<> s1 = sum(j, ...)) and combine those"},
		{"temporary twice", head + "<> t = 1\n<> t = 2\n", "7:4", "t is already declared; '<>' declares a new temporary: assign the one declared with t = ..., or give the new one another name"},
		{"temporary over a parameter", head + "<> n = 1\n", "6:4", "n is already declared, as a size parameter; '<>' declares a new temporary: give it another name"},
		{"temporary over an array", head + "<> a = 1\n", "6:4", "a is already declared, as an array; '<>' declares a new temporary: give it another name"},
		{"temporary over an iname", head + "<> j = 1\n", "6:4", "j is already declared, as an iname; '<>' declares a new temporary: give it another name"},
		{"C's semicolon", head + "a[i] = 1; a[i] = 2\n", "6:9", "expected end of statement, found ';': a statement ends with its line, so drop the ';'"},
		{"array twice", head + "array a f32 [n]\n", "6:7", "a is declared twice"},
		{"const after use", "kernel k\ndomain { [i] : 0 <= i < TS }\nconst TS = 4\n", "3:7", "constant TS is declared after its first use at 2:25"},
		{"const twice", "kernel k\nconst A = 1\nconst A = 2\n", "3:7", "constant A declared twice"},
		{"assume iname", head + "assume i >= 0\n", "6:8", "assumptions mention iname i; they may constrain parameters only: bound i in its domain instead"},
		{"declared temp array", head + "domain { [q] : 0 <= q <= i }\n<> t[q] = 1\n", "7:6", "the bounds of iname q are neither constants nor a constant lower bound and one upper bound in the parameters alone (0 <= q < n), so the shape of t does not follow from them"},
		{"missing bracket", head + "a[i = 1\n", "6:5", "expected ']'"},
		{"trailing tokens", head + "a[i] = 1 2\n", "6:10", "expected end of statement, found '2'"},
		// Conditions, bitwise operators and loopy's spellings.
		{"end alone", head + "end\n", "6:1", "end without a for or if block to close"},
		{"unclosed for", head + "for i\na[i] = 1\n", "6:1", "the for block opened here is not closed: add 'end'"},
		{"unclosed if", head + "if i > 2\na[i] = 1\n", "6:1", "the if block opened here is not closed"},
		{"else alone", head + "else\n", "6:1", "else without an if block"},
		{"else in for", head + "for i\nelse\nend\n", "7:1", "else without an if block"},
		{"elif after else", head + "if i > 1\nelse\nelif i > 2\nend\n", "8:1", "elif after the else of the if block opened at 6:1"},
		{"for without inames", head + "for\nend\n", "6:1", "for needs the inames"},
		{"for unknown iname", head + "for q\na[i] = 1\nend\n", "6:5", "q is not an iname"},
		{"declaration in block", head + "for i\narray z f32 [n]\nend\n", "7:1", "'array' inside the for block opened at 6:1: declarations go outside for and if blocks; declare it above the block"},
		{"declaration in compile-time if", "kernel k\nconst PAD = 1\nif PAD == 1\nlocal t f32 [17]\nend\n", "4:1", "'local' inside the if block opened at 3:1: declarations go outside for and if blocks; declare it above the block (where a compile-time if would choose between two declarations, declare one whose extent computes the choice from the constants: local t f32 [LX + PAD])"},
		{"barrier in if", head + "if i > 2\nbarrier\nend\n", "7:1", "a barrier inside an if block"},
		// A condition that names anything but consts and literals is a
		// run-time one (staticCond), so the compile-time evaluator's own
		// refusal of other names is never reached.
		{"barrier in an if on a parameter", "kernel k\nconst A = 2\ndomain [n] -> { [i] : 0 <= i < n }\nif A < n\nbarrier\nend\n", "5:1", "a barrier inside an if block on a run-time condition: every work-item must reach a barrier, so it cannot be conditional. End the if block before the barrier and open it again after it, or, for a tunable, make it a compile-time if, whose condition names only constants (if BS > 16)"},
		{"barrier in an if on a call of consts", "kernel k\nconst A = 2\nif max(A, 3) > 2\nbarrier\nend\n", "4:1", "a barrier inside an if block on a run-time condition"},
		{"store to readonly", head + "array r f32 [n] readonly\nr[i] = 1\n", "7:1", "array r is declared readonly and cannot be stored to: drop readonly from its declaration at 6:7, or store into another array"},
		{"update of readonly", head + "array r f32 [n] readonly\nr[i] += 1\n", "7:1", "array r is declared readonly and cannot be stored to"},
		{"readonly local", head + "local r f32 [4] readonly\n", "6:17", "readonly marks global arrays that are read through the read-only cache; a local array is not: drop readonly"},
		{"unknown array attribute", head + "array r f32 [n] const\n", "6:17", "unknown array attribute \"const\" (want order=F, order=C or readonly)"},
		{"barrier in run-time if", head + "if i > 2\nbarrier\nend\n", "7:1", "End the if block before the barrier and open it again after it, or, for a tunable, make it a compile-time if, whose condition names only constants (if BS > 16)"},
		{"barrier after run-time if", head + "if i > 2: barrier\n", "6:11", "Only a compile-time condition, which names constants alone (if BS > 16: barrier), may stand before one; for a run-time condition, put it on the instructions around the barrier"},
		{"run-time if in compile-time if", head + "if 3 > 1\nif n > 2\nbarrier\nend\nend\n", "8:1", "a barrier inside an if block on a run-time condition"},
		{"run-time elif", head + "if 3 > 1\na[i] = 1\nelif n > 2\na[i] = 2\nend\n", "8:8", "elif of the compile-time if at 6:1 names more than constants: a compile-time if's branches are chosen when the kernel is read, so every condition names only constants; for a run-time condition, nest an if block inside the else branch"},
		{"float compile-time condition", head + "if 1.5 > 1\na[i] = 1\nend\n", "6:4", "a compile-time condition is integer arithmetic over constants, and 1.5 is not an integer"},
		{"division in compile-time condition", head + "if 3 / 2 > 1\na[i] = 1\nend\n", "6:6", "compile-time condition: '/' on integers: write // for floor division"},
		{"division by zero in compile-time condition", head + "if 3 // (2 - 2) > 1\na[i] = 1\nend\n", "6:6", "compile-time condition: integer division by zero (3 // 0)"},
		{"syntax error in branch not taken", head + "if 0\na[i] = = 1\nend\n", "7:8", "expected"},
		{"predicated barrier", head + "if i > 2: barrier\n", "6:11", "a barrier cannot be conditional"},
		{"barrier if annotation", head + "barrier {if=n > 2}\n", "6:13", "a barrier cannot be conditional (if=): every work-item must reach it. Drop if=; for a tunable, make it a compile-time if, whose condition names only constants (if BS > 16: barrier)"},
		{"if without colon", head + "if i > 2 a[i] = 1\n", "6:10", "expected ':' and an instruction"},
		{"loopy with", head + "with {id=x}\n", "6:1", "loopy's with blocks are not supported"},
		{"condition as number", head + "a[i] = (i < 3)*2\n", "6:11", "a condition is not a number: write if((i < 3), 1, 0)"},
		{"condition assigned", head + "o[i] = i < 3\n", "6:10", "a condition is not a number"},
		{"chained comparison", head + "a[i] = if(0 < i < 3, 1, 2)\n", "6:17", "comparisons do not chain: write (a < b) and (b < c)"},
		{"float bitwise", head + "a[i] = a[i] | 1\n", "6:13", "operator | needs integer operands, but a[i] is f32"},
		{"float complement", head + "a[i] = ~a[i]\n", "6:8", "operator ~ needs an integer operand"},
		{"float shift", head + "o[i] = o[i] << 1.5\n", "6:13", "operator << needs integer operands"},
		{"shift count", head + "o[i] = o[i] << 40\n", "6:13", "shift count 40 is out of range for i32 (0 to 31)"},
		{"if arity", head + "a[i] = if(i > 0, 1)\n", "6:8", "if takes 3 arguments, not 2: write if(COND, THEN, ELSE)"},
		{"select arity", head + "a[i] = select(1, i > 0)\n", "6:8", "select takes 3 arguments, not 2: write select(ELSE, THEN, COND), OpenCL's order"},
		{"integer quotient in condition", head + "a[i] = if(i/2 == n, 1, 2)\n", "6:12", "in a comparison, multiply out: k/2 == n is k == 2*n"},
		{"tag on iname", head + "a[i] = i$x\n", "6:10", "i$x: only arrays and temporaries carry tags"},
		{"tag with space", head + "a[i] = a $x[i]\n", "6:10", "a tag is written name$tag, without spaces"},
		{"dep pattern", head + "a[i] = 1 {dep=zz*}\n", "6:15", "dep=zz*: no earlier statement's id matches"},
		{"dep pattern later", head + "a[i] = 1 {dep=insn_*}\na[i] = 2\n", "6:15", "dep=insn_*: no earlier statement's id matches"},
		{"auto tag parametric", head + "tag i l.auto\n", "6:5", "tag i l.auto: the extent of i depends on the parameters, so no work-group size follows from it; split it and tag the parts: split i 64 i_out i_in"},
		{"auto tag no axis", "kernel k\ndomain { [p, q, r, s] : 0 <= p, q, r, s < 4 }\ntag p l.0, q l.1, r l.2, s l.auto\n", "3:26", "local axes 0, 1 and 2 are all taken"},
		{"ilp variant", head + "tag i ilp.foo\n", "6:11", "unknown tag ilp.foo"},
		{"declared array subscript", "kernel k\ndomain { [p] : 0 <= p < 4 }\n<> t[p + 1] = 1\n", "3:8", "the subscripts of a declared temporary array are inames"},
		{"declared array negative", "kernel k\ndomain { [p] : -2 <= p < 4 }\n<> t[p] = 1\n", "3:6", "iname p takes negative values (from -2)"},
		{"declared array split", "kernel k\ndomain { [p] : 0 <= p < 4 }\nsplit p 2\n<> t[p] = 1\n", "4:6", "iname p was split into p_outer and p_inner"},
		{"keyword temporary", "kernel k\n<> select = 1\n", "2:4", "\"select\" is reserved"},
		{"keyword as array", "kernel k\narray for f32 [4]\n", "2:7", "reserved"},
		{"unknown annotation with if", head + "a[i] = 1 {priority=2}\n", "6:11", "unknown annotation \"priority\" (want id, dep, inames, if or tags)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := counts.ParseKernel("test.knl", []byte(c.src), nil)
			if err == nil {
				t.Fatalf("no error")
			}
			var ke *counts.Error
			if !errors.As(err, &ke) {
				t.Fatalf("error %v is a %T, not *counts.Error", err, err)
			}
			want := "test.knl:"
			if c.pos != "" {
				want += c.pos + ":"
			}
			if !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("error %q, want prefix %q and %q", err, want, c.msg)
			}
		})
	}
}

func TestConstOverride(t *testing.T) {
	src := "kernel k\nconst TS = 16\ndomain [n] -> { [i] : 0 <= i < n }\nsplit i TS\ntag i_inner l.0, i_outer g.0\n"
	k, err := counts.ParseKernel("k.knl", []byte(src), map[string]int64{"TS": 8})
	if err != nil {
		t.Fatal(err)
	}
	if got := k.Domains[0].String(); got != "[n] -> { [i_outer, i_inner] : i_inner >= 0 and i_inner <= 7 and 8*i_outer + i_inner >= 0 and 8*i_outer + i_inner <= n - 1 }" {
		t.Errorf("domain %s", got)
	}
	if got := k.ConstMap()["TS"]; got != 8 {
		t.Errorf("TS = %d", got)
	}
	_, err = counts.ParseKernel("k.knl", []byte(src), map[string]int64{"TX": 8})
	if err == nil || !strings.Contains(err.Error(), "constant TX is overridden but not declared (the kernel declares TS)") {
		t.Errorf("error %v", err)
	}
}

// TestDomainSyntax checks the isl constructs a loopy domain string may use,
// against constraints written out by hand.
func TestDomainSyntax(t *testing.T) {
	cases := []struct{ domain, want string }{
		{"{ [i, j] : 0 <= i, j < n }", "[n] -> { [i, j] : i >= 0 and j >= 0 and i <= n - 1 and j <= n - 1 }"},
		{"[n, m] -> { [i] : 2i + 1 < 3(n - m) }", "[n, m] -> { [i] : 3*m + 2*i <= 3*n - 2 }"},
		{"{ [i] : i mod 4 = 1 and 0 <= i < 9 }", "[] -> { [i] : 4*floor((i)/4) = i - 1 and i >= 0 and i <= 8 }"},
		{"{ [i] : 0 <= floor(i/2) <= ceil(7/2) }", "[] -> { [i] : floor((i)/2) >= 0 and floor((i)/2) <= 4 }"},
		{"{ [i] : (0 <= i < 2 or 5 <= i < 7) }", "[] -> { [i] : (i >= 0 and i <= 1) or (i >= 5 and i <= 6) }"},
		{"{ [i] : 0 <= i < 9 and i != 3 }", "[] -> { [i] : (i >= 0 and i <= 8 and i >= 4) or (i >= 0 and i <= 8 and i <= 2) }"},
		{"{ S[i] : (i + 1) * 2 <= 8 and i >= -3 }", "[] -> { [i] : 2*i <= 6 and i >= -3 }"},
		// isl's rational expressions, multiplied out.
		{"{ [i] : 0 <= i <= n/16 }", "[n] -> { [i] : i >= 0 and 16*i <= n }"},
		{"{ [i] : i/2 + 1/3 < n/6 - 1 }", "[n] -> { [i] : 3*i <= n - 9 }"},
		{"{ [i] : 0 <= i < (n + 1)/(-2/3) + 2n }", "[n] -> { [i] : i >= 0 and 2*i <= n - 4 }"},
		{"{ [i] : 0 <= i <= floor(n/4) + ceil((n + 1)/3/2) }", "[n] -> { [i] : i >= 0 and i + floor((-n - 1)/6) <= floor((n)/4) }"},
	}
	for _, c := range cases {
		k := mustParse(t, "kernel k\ndomain "+c.domain+"\n")
		if got := k.Domains[0].String(); got != c.want {
			t.Errorf("domain %s\n got %s\nwant %s", c.domain, got, c.want)
		}
	}
}

// TestRationalDomains counts the points of a domain with isl's rational
// constraints, each multiplied out by hand, against enumeration.
func TestRationalDomains(t *testing.T) {
	k := mustParse(t, `kernel k
domain [n] -> { [i, j] : 0 <= i <= n/4 and 0 <= 3*j < n + 1/2 and 2*i + j/2 <= n }
array a f32 [n, n]
a[i, j] = 1
`)
	c, err := counts.Count(k)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int64{1, 2, 3, 7, 8, 30, 31} {
		want := int64(0)
		for i := range n {
			for j := range n {
				if 4*i <= n && 6*j < 2*n+1 && 4*i+j <= 2*n {
					want++
				}
			}
		}
		got, err := c.Eval(map[string]int64{"n": n})
		if err != nil {
			t.Fatal(err)
		}
		if got["global.store.f32.stride=0"] != want {
			t.Errorf("n = %d: %d points, want %d", n, got["global.store.f32.stride=0"], want)
		}
	}
}

func TestStatementsSpanLinesAndComments(t *testing.T) {
	k := mustParse(t, `# a comment
kernel k   # trailing comment
domain [n] -> {
   [i] : 0 <= i < n   # inside a domain
}
array a f32 [n]
a[i] = exp(
   a[i])   # continued
`)
	if len(k.Statements) != 1 || instr(t, k, "insn_0").String() != "a[i] = exp(a[i])" {
		t.Errorf("statements %v", k.Statements)
	}
}

// TestTyping checks the typing rules of the package documentation on
// expressions whose types are worked out by hand.
func TestTyping(t *testing.T) {
	const head = "kernel k\ndomain [n] -> { [i, j] : 0 <= i, j < n }\narray a f32 [n]\narray d f64 [n]\narray o i32 [n]\narray q i64 [n]\n"
	cases := []struct{ insn, want string }{
		{"a[i] = 2*a[i]", "a[i] = (2.0f * a[i])"},
		{"a[i] = a[i]/3.0f + a[i]", "a[i] = ((a[i] / 3.0f) + a[i])"},
		// C's double promotion: an unsuffixed float literal is a double.
		{"a[i] = a[i]/3.0 + a[i]", "a[i] = f32(((f64(a[i]) / 3.0) + f64(a[i])))"},
		{"a[i] = 0.5*a[i]", "a[i] = f32((0.5 * f64(a[i])))"},
		{"a[i] = a[i]**2.5", "a[i] = f32((f64(a[i]) ** 2.5))"},
		{"a[i] = a[i] + 2", "a[i] = (a[i] + 2.0f)"},
		{"a[i] = 0.5 + 0.25", "a[i] = 0.75f"},
		{"d[i] = 2.5*i", "d[i] = (2.5 * f64(i))"},
		{"a[i] = 0.5f*a[i]", "a[i] = (0.5f * a[i])"},
		{"d[i] = 0.5f*d[i]", "d[i] = (0.5 * d[i])"},
		{"d[i] = a[i] + d[i]", "d[i] = (f64(a[i]) + d[i])"},
		{"a[i] = a[i] + i", "a[i] = (a[i] + f32(i))"},
		{"d[i] = i*2.5", "d[i] = (f64(i) * 2.5)"},
		{"a[i] = i*2.5", "a[i] = f32((f64(i) * 2.5))"},
		{"a[i] = i*2.5f", "a[i] = (f32(i) * 2.5f)"},
		{"o[i] = 2*i + 1", "o[i] = ((2 * i) + 1)"},
		{"q[i] = o[i] + i", "q[i] = i64((o[i] + i))"},
		{"q[i] = q[i] + o[i]", "q[i] = (q[i] + i64(o[i]))"},
		{"a[i] = 1 + 2", "a[i] = 3.0f"},
		{"o[i] = 1.5", "o[i] = 1"},
		{"d[i] = exp(1)", "d[i] = 2.718281828459045"},
		{"a[i] = pow(a[i], 2)", "a[i] = pow(a[i], 2.0f)"},
		{"a[i] = a[i]**2", "a[i] = (a[i] ** 2.0f)"},
		{"a[i] = -a[i] + -1", "a[i] = (-a[i] + -1.0f)"},
		{"o[i] = (i + n) // 2 % 3", "o[i] = (((i + n) // 2) % 3)"},
		{"a[i] = fmax(a[i], d[i])", "a[i] = f32(fmax(f64(a[i]), d[i]))"},
		{"o[i] = sum(j, 1)", "o[i] = sum(j, 1)"},
		{"a[i] = sum(j, 1)", "a[i] = sum(j, 1.0f)"},
	}
	for _, c := range cases {
		k := mustParse(t, head+c.insn+"\n")
		if got := instr(t, k, "insn_0").String(); got != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.insn, got, c.want)
		}
	}
	k := mustParse(t, head+"<> t = 1.5\n<f32> u = 1\n<> w = i\n")
	for name, want := range map[string]counts.DType{"t": counts.F64, "u": counts.F32, "w": counts.I32} {
		if a := k.Array(name); a == nil || a.DType != want || a.Space != counts.Private {
			t.Errorf("temporary %s: %+v, want private %s", name, a, want)
		}
	}
}

// TestConditionsAndBlocks checks the statements that conditions, blocks
// and loopy's spellings produce, against forms written out by hand.
func TestConditionsAndBlocks(t *testing.T) {
	k := mustParse(t, `kernel k
domain [n] -> { [i, j] : 0 <= i, j < n }
domain { [p] : 0 <= p < 4 }
array a f32 [n]
array o i32 [n]
tag p l.auto
tag j l.0
for i
  o[i] = i & 3 | i << 1 ^ ~i {id=bits, tags=x:y}
  barrier
  if i > 2
    a$t[i] = a[i] % 2.5f {id=mod}
  elif i == 1
    o[i] = 7
  else
    a[i] = if(i > 0 or a[i], 1, 2.5f) {id=cond, if=a[i]:n > 3}
  end
end
if j != 0: a[j] = select(0, a[j], a[j] > 0) {id=sel, dep=*}
a[j] = 1 if j > 2 else 2 if j > 1 else a[j] {id=ternary}
<> t[p] = p {id=decl, dep=b*:mod}
`)
	want := map[string]string{
		"bits":    "o[i] = ((i & 3) | ((i << 1) ^ ~i))",
		"mod":     "if (i > 2): a$t[i] = (a[i] % 2.5f)",
		"cond":    "if (((not (i > 2) and not (i == 1)) and (a[i] != 0.0f)) and (n > 3)): a[i] = if(((i > 0) or (a[i] != 0.0f)), 1.0f, 2.5f)",
		"sel":     "if (j != 0): a[j] = select(0.0f, a[j], (a[j] > 0.0f))",
		"decl":    "t[p] = p",
		"ternary": "a[j] = if((j > 2), 1.0f, if((j > 1), 2.0f, a[j]))",
	}
	for id, w := range want {
		if got := instr(t, k, id).String(); got != w {
			t.Errorf("%s\n got %s\nwant %s", id, got, w)
		}
	}
	if in := instr(t, k, "bits"); strings.Join(in.Within, " ") != "i j" || strings.Join(in.Tags, ":") != "x:y" {
		t.Errorf("bits: within %v, tags %v", in.Within, in.Tags)
	}
	if b, ok := k.Statements[1].(*counts.Barrier); !ok || strings.Join(b.Inames, " ") != "i" {
		t.Errorf("barrier in the for block: %#v", k.Statements[1])
	}
	if d := instr(t, k, "sel").Deps; d != nil {
		t.Errorf("dep=* gives deps %v", d)
	}
	if d := instr(t, k, "decl").Deps; strings.Join(d, " ") != "bits barrier_1 mod" {
		t.Errorf("dep=b*:mod gives deps %v", d)
	}
	if tg := k.Iname("p").Tag; tg != (counts.Tag{Kind: counts.LocalID, Axis: 0}) {
		t.Errorf("p l.auto: tag %s, want l.0 (j, on l.0, is in no instruction of p's)", tg)
	}
	if a := k.Array("t"); a == nil || a.Space != counts.Private || len(a.Shape) != 1 || a.Shape[0].Const != 4 || a.DType != counts.I32 {
		t.Errorf("<> t[p]: %+v", a)
	}
}

// TestWithin checks which inames instructions run in: those they mention
// outside reductions, those annotated, and the parallel inames of their
// domain on hardware axes they do not use.
func TestWithin(t *testing.T) {
	k := mustParse(t, `kernel k
domain [n] -> { [i, j, k] : 0 <= i, j, k < n }
domain { [p] : 0 <= p < 4 and 4*k_out + p < n }
array a f32 [n, n]
array b f32 [n]
local l f32 [4]
private s f32
split i 4 io ii
split k 4 k_out k_in
tag ii l.0, io g.0, p l.0
s = 0 {id=z}
l[p] = b[4*k_out + p] {id=f}
s = s + sum(k_in, a[j, 4*k_out + k_in]) {id=r, inames=j:k_out}
b[j] = s {id=u}
`)
	want := map[string]string{"z": "", "f": "io k_out p", "r": "io ii j k_out", "u": "io ii j"}
	for id, w := range want {
		if got := strings.Join(instr(t, k, id).Within, " "); got != w {
			t.Errorf("%s: within %q, want %q", id, got, w)
		}
	}
	_, err := counts.ParseKernel("amb.knl", []byte(`kernel k
domain [n] -> { [i, p, q] : 0 <= i, q < n and 0 <= p < 4 }
array b f32 [n]
tag i l.0, p l.0
b[q] = 1
`), nil)
	if err == nil || !strings.Contains(err.Error(), "amb.knl:5:1: instruction uses no iname tagged l.0, and its domain has two (i and p)") {
		t.Errorf("ambiguous axis: %v", err)
	}
}

// TestSchedule checks the loop structure built from textual order and
// domain order.
func TestSchedule(t *testing.T) {
	k := mustParse(t, `kernel k
domain [n] -> { [i, j, k] : 0 <= i, j, k < n }
array a f32 [n, n, n]
array b f32 [n]
local l f32 [4]
tag k l.0
b[i] = 0 {id=s0}
a[i, j, 0] = b[i] {id=s1}
a[i, j, 1] = 1 {id=s2, inames=k}
barrier {id=bar, inames=i}
b[j] = sum(i, a[i, j, 2]) {id=s3}
l[k] = 1 {id=s4}
`)
	want := `for i
  s0: b[i] = 0.0f
  for j
    s1: a[i, j, 0] = b[i]
    s2: a[i, j, 1] = 1.0f
  end
  bar: barrier
end
for j
  s3: b[j] = sum(i, a[i, j, 2])
end
s4: l[k] = 1.0f
`
	if got := counts.FormatSchedule(k.Schedule); got != want {
		t.Errorf("schedule\n%s\nwant\n%s", got, want)
	}
}

// TestMultipleDomains checks that a domain may use inames of another as
// parameters, including inames created by splits.
func TestMultipleDomains(t *testing.T) {
	k := mustParse(t, `kernel k
domain [n] -> { [i] : 0 <= i < n }
domain { [j] : 0 <= j <= i_out }
array a f32 [n]
split i 4 i_out i_in
a[i] = sum(j, 1)
`)
	if got, want := k.Domains[1].String(), "[i_out] -> { [j] : j >= 0 and j <= i_out }"; got != want {
		t.Errorf("domain %s, want %s", got, want)
	}
	if got := strings.Join(k.Params, " "); got != "n" {
		t.Errorf("params %s", got)
	}
}

func TestProjectedDomain(t *testing.T) {
	k := mustParse(t, `kernel k
domain [n, m] -> { [i, j] : 0 <= i < n and 0 <= j <= i }
domain { [p] : 0 <= p < j }
assume n >= 1
array a f32 [n]
a[i] = sum(p, 1)
`)
	cases := map[string]string{
		"i":     "[n, m] -> { [i] : exists (j : n >= 1 and i >= 0 and i <= n - 1 and j >= 0 and j <= i) }",
		"i j":   "[n, m] -> { [i, j] : n >= 1 and i >= 0 and i <= n - 1 and j >= 0 and j <= i }",
		"p":     "[n, m] -> { [p] : exists (i, j : n >= 1 and i >= 0 and i <= n - 1 and j >= 0 and j <= i and p >= 0 and p <= j - 1) }",
		"i j p": "[n, m] -> { [i, j, p] : n >= 1 and i >= 0 and i <= n - 1 and j >= 0 and j <= i and p >= 0 and p <= j - 1 }",
		"":      "[n, m] -> { [] : n >= 1 }",
	}
	for in, want := range cases {
		if got := k.ProjectedDomain(strings.Fields(in)); got != want {
			t.Errorf("ProjectedDomain(%s)\n got %s\nwant %s", in, got, want)
		}
	}
}
