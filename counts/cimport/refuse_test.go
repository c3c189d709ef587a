package cimport

import (
	"fmt"
	"strings"
	"testing"
)

// head is the start of the kernels of TestRefusals: a CUDA kernel over
// n elements of a, with its flags as a comment.
const head = "// uniperf: --local 64 --groups n --array a=n --array b=n\n__global__ void k(float *a, float *b, int n, float alpha)\n{\n    int i = blockIdx.x*blockDim.x + threadIdx.x;\n"

// fns are device functions that the kernels of TestRefusals call, which
// are not inlined; they stand on the kernel's first line.
const fns = "__device__ float f(float x) { return f(x - 1.0f); } __device__ float g(float x) { for (int k = 0; k < 2; k++) return x; return x; } __device__ float h(float *p) { return p[0]; } __device__ float r(float x) { return; } "

// deep is device functions d1 to d17 that call each other in turn, one
// more than the importer inlines; they follow fns on the first line.
var deep = func() string {
	s := "__device__ float d17(float x) { return x; } "
	for k := 16; k >= 1; k-- {
		s += fmt.Sprintf("__device__ float d%d(float x) { return d%d(x); } ", k, k+1)
	}
	return s
}()

// TestRefusals checks that what is not affine, or not C that .knl can
// say, is refused at its line and column with what to write instead.
func TestRefusals(t *testing.T) {
	for _, c := range []struct {
		body string
		want string // line:col: and a part of the message
	}{
		{"    while (a[i] > 0) a[i] -= 1;\n", "5:5: a while loop whose body does not end by updating a variable; write it as a for loop"},
		{"    int s = 4;\n    while (i > 0) { b[i] += a[i]; s--; }\n", "6:5: a while loop whose condition does not test s, which its body's last statement updates"},
		{"    int s = 4;\n    while (s > 0) { s--; b[i] += a[i]; s--; }\n", "6:5: a while loop whose body updates s before its last statement"},
		{"    int bar = 64;\n    while (bar > 0) { int h = bar/2; b[i] += 1.0f; bar = h; }\n", "6:58: the last statement of this while loop, read as the loop's step, reads h, which its body declares: declare h before the loop"},
		{"    int s = (int)a[i];\n    while (s > 0) { b[i] += 1.0f; s >>= 1; }\n", "6:5: a while loop over s, which holds data: its trip count is data; write it as a for loop with affine bounds"},
		{"    do { b[i] = 0.0f; } while (i < 0);\n", "5:5: a do loop"},
		{"    b[a[i]] = 1.0f;\n", "5:7: the subscript of b is not an integer; convert it with (int)"},
		{"    float p[4];\n    p[(int)a[i]] = 1.0f;\n", "6:7: the subscript of p reads data (an indirect access), and p is a private array"},
		{"    int q = (int)a[i];\n    b[i] = q % 3;\n", "6:14: integer % of data"},
		{"    for (int k = (int)a[i]; k < n; k++) b[k] = 0.0f;\n", "5:18: the loop over k starts at a value read from data; write its bounds affine, or give the most iterations it runs, --trips k=BOUND"},
		{"    // uniperf: --trips k=8\n    for (int k = (int)a[i]; k > 0; k++) b[k] = 0.0f;\n", "6:5: the condition of the loop over k (--trips k=8) must be comparisons of k"},
		{"    // uniperf: --trips k=8\n    b[i] = 0.0f;\n", "5:5: --trips k=8: the kernel has no for loop over k"},
		{"    // uniperf: --trips k=8\n    int e = (int)b[i];\n    for (int k = (int)a[i]; k < e; k++) { b[i] += a[k]; __syncthreads(); }\n", "7:57: a barrier inside the loop at line 7, whose bounds are data: work-items run it different numbers of times"},
		{"    b[i*i] = a[i];\n", "5:8: * is not affine in the indices: a product of two indices"},
		{"    alpha *= 2.0f;\n", "5:5: alpha is a scalar argument, which .knl reads only; copy it into a local variable"},
		{"    int j = i;\n    for (int k = 0; k < n; k++) j += 1;\n    b[j] = 0.0f;\n", "7:7: j is changed by the loop at line 6; after it its value is not known here"},
		{"    int j = i;\n    for (int k = 0; k < n; k++) { if (k < 3) j += 1; }\n", "6:48: j is assigned inside a loop or an if but declared outside"},
		// Under an affine if, an affine value stays refused (kmeans'
		// index = i is a private only under an if that reads data).
		{"    int j = 0;\n    for (int k = 0; k < n; k++) { if (k < 3) j = k; }\n    b[i] = j;\n", "6:48: j is assigned inside a loop or an if but declared outside"},
		// return; ends the kernel only as its last statement.
		{"    b[i] = 0.0f;\n    return;\n    b[i] = 1.0f;\n", "6:5: a return at the top level is dead code after it"},
		{"    int j = i;\n    if (i < 10) j = 0;\n    b[j] = 0.0f;\n", "7:7: j is assigned in the if at line 6, so after it its value depends on the branch taken"},
		{"    for (int k = 0; k < n; k++) { if (a[k] > 0) break; }\n", "5:23: the loop over k has a break, so it is unrolled at import, and its bounds must be constants (a -D can fix an integer argument"},
		{"    for (int k = 0; k < 4; k++) { if (a[k] > 0) break; }\n", "5:35: a break whose condition is not known at import (it depends on the indices or on data)"},
		{"    for (int k = 0; k < 4; k++) { if (k > i) break; }\n", "5:35: a break whose condition is not known at import"},
		{"    for (int k = 0; k < 4; k++) { if (k > 1) { b[i] = 0.0f; break; } }\n", "5:61: break: only a break at the top of a loop's body (break; or if (C) break;)"},
		{"    bool f;\n    if (i < 10) f = true;\n    if (f) b[i] = 0.0f;\n", "7:9: f is assigned in the if at line 6"},
		{"    for (int k = 0, m = 0; k < n; k++, m *= 2) b[i] += a[k];\n", "5:42: the step of a loop over several variables must add a constant or a size to each"},
		{"    for (int k = 0, m = 0; k < n; k++) b[i] += a[k];\n", "5:5: the loop's variable m is not stepped"},
		{"    if (i < 3) b += 1;\n", "5:18: b: a pointer may only be moved by += or -= at the kernel's top level"},
		{"    b = a;\n", "5:7: b: a pointer may only be moved by += or -="},
		{"    b[i] = f(a[i]);\n", "1:38: f calls itself: recursion"},
		{"    b[i] = g(a[i]);\n", "1:70: g returns inside a loop or before statements that follow"},
		{"    b[i] = h(&alpha);\n", "5:14: argument p of h: pass an array (an argument of the kernel or a __shared__ array), or a pointer into one"},
		{"    b[i] = h(a + a[i]);\n", "5:16: the offset of a pointer into a is not an integer"},
		{"    atomicMax(&b[0], a[i]);\n", "5:5: atomicMax: only atomic additions are in .knl"},
		{"    float o = atomicAdd(&b[0], a[i]);\n", "5:15: atomicAdd: its result, the old value, is used"},
		{"    atomicInc((unsigned int *)&b[0], 5);\n", "5:5: atomicInc: CUDA's atomicInc and atomicDec wrap"},
		{"    b[i] = foo(a[i]);\n", "5:12: a call to foo: a device function"},
		{"    float *p;\n", "5:12: p: a pointer variable other than one into an array (p = a + i*n, or &a[i*n]), set where it is declared"},
		{"    __shared__ float s[4][4];\n    float *p = &s[0][0] + i;\n", "6:12: p: a pointer variable other than one into an array"},
		{"    int j = i / 3;\n", "5:15: / is not affine in the indices: an integer division that does not divide every coefficient"},
		{"    int j = i % 3;\n    b[j] = 0.0f;\n", "5:15: % is not affine in the indices: % 3 of an index is quasi-affine, which .knl takes in conditions (x % 3 == 0) but not as a value"},
		{"    int j = (i + 1) & 7;\n    b[j] = 0.0f;\n", "5:21: & is not affine in the indices: & 7 is a remainder modulo 8"},
		{"    int j = threadIdx.x & 127;\n    b[j] = 0.0f;\n", "5:25: & is not affine in the indices: & 127 of the work-item index, whose lanes and runs of 128 are no indices of a work-group of 64 along axis 0, which 128 does not divide; launch work-groups whose size along the axis 128 divides"},
		{"    int j = i / n;\n", "5:15: / is not affine in the indices: / by n, which is no constant; give it a value with -D (-D n=VALUE fixes an integer argument)"},
		{"    if (i < n) { __syncthreads(); }\n", "5:18: a barrier inside an if"},
		{"    for (int k = 0; k < n*i; k++) b[i] += a[k];\n", "5:23: the bound of the loop over k multiplies an index by a size parameter, and a domain needs constant coefficients: give its most trips with --trips k=BOUND to count it as an upper bound, or bound it by sizes and constants alone"},
		{"    int s = i < n ? n : 0;\n    for (int k = 0; k < s; k++) b[i] += a[k];\n", "6:23: the condition of the loop over k is not a conjunction of affine comparisons"},
		{"    b[i] = a[i] \n", "6:1: expected \";\", found \"}\""},
		{"    #if\n", "5:5: #if: "},
		{"    b[i] = \"x\";\n", "5:12: a string in a kernel is not understood: .knl has no strings; remove what uses it"},
		// Session 17 (issue 42): the importer's refusals say what to write.
		{"    printf(\"%d\", i);\n", "5:5: a call to printf: .knl kernels print nothing; remove the call (or put it under an #ifdef that is not defined)"},
		{"    b[i] = a[i] + threadIdx;\n", "5:19: threadIdx is a vector: take its axis, threadIdx.x (or .y, .z)"},
		{"    b[i] = a[i] + std::numbers::pi;\n", "5:19: std::numbers::pi is a C++ scoped name, which is not understood: write the value it stands for, or a C name given with -D NAME=VALUE"},
		{"    b[i] = std::max(a[i], 0.0f);\n", "5:12: a call to std::max, a C++ scoped name: call the C function (std::max of floats is fmaxf, of ints max; std::sqrt is sqrtf)"},
		{"    b[i] = a[i] % 2.0f;\n", "5:17: % on floating-point values is not C: write fmodf(x, y) (fmod for doubles)"},
		{"    b[i] = (float)((int)a[i] << 2.0f);\n", "5:30: << on floating-point values is not C: convert the operand to an integer first ((int)x << ...)"},
		{"    b[i] %= 2.0f;\n", "5:10: %= on a floating-point value is not C: write fmodf(x, y) (fmod for doubles)"},
		{"    unsigned int q = (unsigned int)a[i];\n    q %= a[i];\n    b[i] = q;\n", "6:7: %= on floating-point values is not C: write fmodf(x, y) (fmod for doubles)"},
		{"    b[i] = threadIdx.w;\n", "5:21: threadIdx.w is not understood: the launch's vectors have the axes x, y and z"},
		{"    b[i] = (a[i]).x;\n", "5:18: a field of a structure is not understood here: copy the value into a variable of its type first (float2 v = p[i]; then v.x)"},
		{"    int q = (int)a[i];\n    b[i] = q / 3;\n", "6:14: integer / of data: .knl's // and % round towards minus infinity, C's towards zero, so they differ where the dividend may be negative; not translated (of an unsigned char or short by a positive constant it is): declare the operands unsigned int where they cannot be negative, whose / and % translate, or compute in floating point (floorf(x/d), fmodf(x, d))"},
		{"    int q = (int)a[i];\n    q %= 3;\n    b[i] = q;\n", "6:7: integer %= of data: .knl's // and % round towards minus infinity, C's towards zero, so they differ where the dividend may be negative; not translated (of an unsigned char or short by a positive constant it is): declare the operands unsigned int where they cannot be negative, whose / and % translate, or compute in floating point (floorf(x/d), fmodf(x, d))"},
		{"    int q = (int)a[i];\n    q /= 3;\n    b[i] = q;\n", "6:7: integer /= of data: .knl's // and % round towards minus infinity, C's towards zero, so they differ where the dividend may be negative; not translated (of an unsigned char or short by a positive constant it is): declare the operands unsigned int where they cannot be negative, whose / and % translate, or compute in floating point (floorf(x/d), fmodf(x, d))"},
		{"    for (int k = 0; ; k++) b[i] += a[k];\n", "5:5: a loop without a condition: its trip count is not bounded; give it one, for (k = LOW; k < HIGH; k += STEP), or, where data ends it, its most trips with --trips"},
		{"    for (int k = 0; k > n; k++) b[i] += a[k];\n", "5:23: the condition of the loop over k does not bound it in the direction of its step: a loop that counts up tests k < HIGH (or <=), one that counts down k > LOW (or >=)"},
		{"    for (float k = 0; k < n; k++) b[i] += a[k];\n", "5:16: the loop variable k must be an integer: declare it int (for (int k = 0; ...)) and compute a float from it in the body (float x = k)"},
		{"    for (int k = 0, m = (int)a[i]; k < n; k++, m++) b[i] += a[k];\n", "5:25: m: a loop's second variable must start at an affine value (of the indices, sizes and constants): where its start is data, read it into a variable before the loop and add the first variable's steps to it in the body (int m0 = ...; then m0 + k)"},
		{"    int j = 0;\n    if (a[i] > 0) { j = (int)a[i]; }\n    b[j] = 1.0f;\n", "6:23: j: an integer variable set from data; counts need its value to be an affine function of the indices and sizes: set it from data only where it is declared (int j = (int)a[i];, inside the if or loop that sets it), which makes it a private of its own, whose use as a subscript is an indirect access"},
		{"    float z;\n    for (z = 0; z < n; z++) b[i] += a[i];\n", "6:12: the loop variable z must be a declared integer: declare it int (for (int z = 0; ...)) and compute a float from it in the body"},
		{"    for (int k = 0; k < n; ) b[i] += a[k];\n", "5:5: a loop without a condition or a step: its trip count is not bounded; give it both, for (k = LOW; k < HIGH; k += STEP)"},
		{"    b[i] = 0x1p3f;\n", "5:12: 0x1p3f is not a number .knl can write: write it in decimal (0x1p3f is 8.0f)"},
		{"    b[i] = (*f)(a[i]);\n", "5:13: this call is not understood: call a device function by its name (f(x)); a call through a pointer has no .knl form"},
		{"    b[i] = __half2float(a[i]);\n", "5:12: __half2float reads a half, an element of a __half (half) array: pass it one (__half2float(h[i])), or, of a float, drop the conversion"},
		{"    b[i] = c[i];\n", "5:12: c is not an argument or a variable of the kernel (a __constant__"},
		{"    float *p = a + i;\n    if (p != 0) b[i] = 1.0f;\n", "6:9: p is a pointer, which has no value in .knl: read an element it points to (p[j] or *p)"},
		{"    cg::thread_block g = cg::this_thread_block();\n    b[i] = g;\n", "6:12: g is a cooperative group, which has no value in .knl: only its sync() is understood (g.sync(), a barrier)"},
		{"    cg::thread_block g = cg::this_thread_block();\n    g = cg::this_thread_block();\n", "6:5: g is a cooperative group, which is set only where it is declared (thread_block g = this_thread_block();); remove this assignment"},
		{"    b[i] = alpha.x;\n", "5:17: alpha.x: only the launch's vectors (threadIdx, blockIdx, blockDim, gridDim), vector types (float2 ...) and structs the file defines have fields, and alpha is none; drop .x, or declare alpha of such a type"},
		{"    x = 3;\n", "5:5: x is not declared in the kernel (a __device__ variable declared outside it?): declare it there (float x = ...;), or pass the kernel an array to store into"},
		{"    __shared__ float s[4][4];\n    s[i] = 0.0f;\n", "6:5: s has 2 dimensions, indexed with 1 subscripts: give one subscript for each dimension (s[i][j] for two)"},
		{"    b[i] = h(a + 0.5f);\n", "5:16: the offset of a pointer into a is not an integer; convert it with (int)(...), which truncates"},
		{"    for (int k = 1; k < 8; k = k * n) b[i] += a[k];\n", "5:30: the step of the loop over k, which is unrolled at import, does not give a constant: step it by constants alone (k *= 2, k >>= 1), giving a size a value with -D (-D n=VALUE fixes an integer argument)"},
		{"    for (int k = 0; k < n; k += 0) b[i] += a[k];\n", "5:5: a loop over k with step 0 never ends; step it by a nonzero constant (k++, k += STEP)"},
		{"    for (int k = 0, m; k < n; k++, m++) b[i] += a[k];\n", "5:21: m: a loop's second variable must be an integer with a start: declare it so, for (int k = 0, m = START; ...)"},
		{"    // uniperf: --trips k=8\n    for (int k = a[i]; k < n; k++) b[i] += a[k];\n", "6:18: the start of the loop over k is not an integer; convert it with (int)(...), which truncates"},
		{"    b[i] = d1(a[i]);\n", "1:302: calls of device functions nested more than 16 deep; inline the innermost by hand (or write them as macros)"},
		{"    b[i] = r(a[i]);\n", "1:209: r: a return that does not match its return type: return a value (return x;) from a function that has a type, and none from a void one"},
	} {
		src := fns + deep + head + c.body + "}\n"
		_, err := Import("k.cu", []byte(src), Options{})
		if err == nil {
			t.Errorf("%q: imported", c.body)
			continue
		}
		if !strings.HasPrefix(err.Error(), "k.cu:"+c.want) {
			t.Errorf("%q:\n%v\nwant k.cu:%s", c.body, err, c.want)
		}
	}
}

// TestAggregatesRefused checks that what the translation of vector
// types and structs does not cover is refused where it stands, with what
// to write instead.
func TestAggregatesRefused(t *testing.T) {
	const head = "// uniperf: --local 64 --global n --array p=n --array b=n\n"
	for _, c := range []struct{ params, body, want string }{
		{"float2 *p, float *b", "b[i] = p[i].x + p[i].xy;", "5:38: float2 has no field xy (its fields: x, y); a swizzle"},
		{"float2 *p, float *b", "b[i] = p[i];", "5:25: p, a float2, used whole"},
		{"float4 *p, float *b", "float4 v = p[i]; v = v + p[i]; b[i] = v.x;", "5:41: a float4 value that is no variable, element or make_float4(...)"},
		{"float2 *p, float *b", "float2 v = p[i]; v += p[i]; b[i] = v.x;", "5:37: += on a whole float2: write it for each field"},
		{"float2 *p, float *b", "float2 v = make_float2(1.0f); b[i] = v.x;", "5:29: make_float2 with 1 arguments for 2 fields"},
		{"float2 p, float *b", "b[i] = p.x;", "3:26: parameter p: an aggregate (2 fields) passed by value"},
		{"M *p, float *b", "b[i] = p[i].a;", "3:19: M: a struct of fields of different types (float and int)"},
		{"float &p, float *b", "b[i] = p;", "3:26: kernel k: p is a reference (&)"},
		{"float2 *p, float *b", "float v_x = 1.0f; float2 v = p[i]; b[i] = v.x + v_x;", "5:43: v: its field x would be the variable v_x"},
		{"struct N *p, float *b", "b[i] = p[i].a;", "3:19: struct N: a struct with a pointer, array or vector field"},
	} {
		src := head + "typedef struct { float a; int c; } M; struct N { float a[2]; };\n__global__ void k(" + c.params + ", int n)\n{ int i = blockIdx.x*blockDim.x + threadIdx.x;\n    if (i < n) { " + c.body + " }\n}\n"
		_, err := Import("k.cu", []byte(src), Options{})
		if err == nil || !strings.HasPrefix(err.Error(), "k.cu:"+c.want) {
			t.Errorf("%s: %v\nwant k.cu:%s", c.body, err, c.want)
		}
	}
}

// TestTrailingLoopRefused checks what a loop stepped by k = j++ must
// be: a test of j against a bound, and a body that changes neither.
func TestTrailingLoopRefused(t *testing.T) {
	const head = "// uniperf: --local 64 --global n --array b=n\n__global__ void k(float *b, int n)\n{ int i = blockIdx.x*blockDim.x + threadIdx.x;\n"
	for _, c := range []struct{ body, want string }{
		{"int k = 9; for (int j = 0; j != 10; k = j++) b[i] += k;", "4:29: a loop stepped by k = j++ must test j < BOUND"},
		{"int k = 9; for (int j = 0; j < 10; k = j++) { k = 3; b[i] += k; }", "4:29: a loop stepped by k = j++ whose body changes k or j"},
	} {
		src := head + "    if (i < n) { " + c.body + " }\n}\n"
		_, err := Import("k.cu", []byte(src), Options{})
		if err == nil || !strings.HasPrefix(err.Error(), "k.cu:"+c.want) {
			t.Errorf("%s: %v\nwant k.cu:%s", c.body, err, c.want)
		}
	}
}

// TestExtentNotPositive checks that an array extent below 1, from
// --array or a __constant__ declaration, is refused as the flag's or the
// source's fault (FuzzImport found --array x=0 reported as the
// importer's: the .knl it wrote refused the array).
func TestExtentNotPositive(t *testing.T) {
	const kernel = "__constant__ float w[W];\n__global__ void k(float *a, int n)\n{\n    int i = blockIdx.x*blockDim.x + threadIdx.x;\n    if (i < n) a[i] = w[0];\n}\n"
	for _, c := range []struct{ flags, want string }{
		{"--array a=0 -D W=4", "k.cu: --array a=0: an extent must be positive (the number of elements the host allocates), not 0"},
		{"--array a=n-n -D W=4", "k.cu: --array a=n-n: an extent must be positive (the number of elements the host allocates), not 0"},
		{"--array a=n -D W=4 --array w=-3", "k.cu: --array w=-3: an extent must be positive (the number of elements the host allocates), not -3"},
		{"--array a=n -D W=0", "k.cu:1:22: w: its size must be a positive constant"},
		{"--array a=n -D W=n", "k.cu:1:22: w: its size must be a positive constant"},
	} {
		opts, err := ParseFlags(append([]string{"--local", "64"}, strings.Fields(c.flags)...))
		if err != nil {
			t.Fatal(err)
		}
		_, err = Import("k.cu", []byte(kernel), opts)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: %v\nwant %s", c.flags, err, c.want)
		}
	}
	// Given in a comment, a flag's refusal takes the comment's place.
	_, err := Import("k.cu", []byte("#define W 4\n  // uniperf: --local 64 --array a=0\n"+kernel), Options{})
	const want = "k.cu:2:3: --array a=0: an extent must be positive (the number of elements the host allocates), not 0"
	if err == nil || err.Error() != want {
		t.Errorf("%v\nwant %s", err, want)
	}
	// An empty --assume in a comment too (FuzzImport found it placed
	// nowhere).
	_, err = Import("k.cu", []byte("#define W 4\n// uniperf: --local 64 --array a=n --assume=\n"+kernel), Options{})
	const empty = "k.cu:2:1: --assume: expected an expression, found the end of the file"
	if err == nil || err.Error() != empty {
		t.Errorf("%v\nwant %s", err, empty)
	}
}

// TestNamesReservedInC checks that a C name the generated C cannot use
// (FuzzImport found an argument _A0, which C reserves to the
// implementation, written as the .knl's scalar and refused there as the
// importer's fault) is renamed where the .knl's name is the import's
// own (arrays, scalars, privates, loop indices), and refused where it is
// the user's (a size, which count and predict take by name).
func TestNamesReservedInC(t *testing.T) {
	const src = "// uniperf: --local 64 --groups un/64 --array pipe=un\n__global__ void k(float *pipe, float _Scale, int un, int hf) {\n" +
		"  int i = blockIdx.x*blockDim.x + threadIdx.x;\n  float quad = 0;\n  for (int _J = 0; _J < hf; _J++) quad += pipe[_J];\n" +
		"  if (i < un) pipe[i] = quad * _Scale;\n}\n"
	r, err := Import("k.cu", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\nscalar Scale_k f32\n", "\narray pipe_k f32 [un]\n", "\nprivate quad_k f32\n", "\nfor J_k\n", "pipe_k[64*bx + tx] = quad_k * Scale_k\n"} {
		if !strings.Contains(string(r.Knl), want) {
			t.Errorf("no %q in\n%s", want, r.Knl)
		}
	}
	_, err = Import("k.cu", []byte(strings.ReplaceAll(src, "un", "uniform")), Options{})
	const refused = "k.cu:2:50: argument uniform is a word of .knl or of the C generated from it (or a name C reserves); rename it"
	if err == nil || err.Error() != refused {
		t.Errorf("%v\nwant %s", err, refused)
	}
}

// TestKernelNamedByAWord checks that a kernel CUDA allows but .knl or the
// generated C does not (kernel, pipe, _Kern) takes another name in the
// .knl, says so in its header, and counts (found in review: it was
// refused as the importer's fault).
func TestKernelNamedByAWord(t *testing.T) {
	for name, want := range map[string]string{"kernel": "kernel_k", "pipe": "pipe_k", "_Kern": "Kern_k"} {
		src := "// uniperf: --local 64 --groups (n+63)/64 --array a=n\n__global__ void " + name + "(float *a, int n) {\n" +
			"  int i = blockIdx.x*blockDim.x + threadIdx.x;\n  if (i < n) a[i] *= 2.0f;\n}\n"
		r, err := Import("k.cu", []byte(src), Options{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if r.Kernel != name || !strings.Contains(string(r.Knl), "\nkernel "+want+"\n") || !strings.Contains(string(r.Knl), "# kernel "+name+": named "+want) {
			t.Errorf("%s: result kernel %s, .knl\n%s\nwant the C name kept and the .knl's kernel %s", name, r.Kernel, r.Knl, want)
		}
	}
}
