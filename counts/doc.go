// Package counts reads GPU kernels written in the .knl format, builds
// their typed intermediate representation and schedule, executes them
// with a reference interpreter, and counts their performance-relevant
// properties symbolically: the kernel properties of Stevens and
// Klöckner's unified, hardware-fitted performance model (seed 001).
// Each property is a sum of products of numbers of points of integer
// sets, which package polyhedra counts as piecewise quasi-polynomials in
// the size parameters (an exact enumerator and the interpreter check them).
//
// [ParseKernel] reads a kernel, [Kernel.Launch] computes its launch grid,
// [Run] interprets it, [Count] (or [CountWith]) counts it; a [Counted]
// evaluates its properties ([Counted.Eval], [Counted.PropertiesAt]),
// splits them by instruction or array ([Counted.Breakdown]), counts the
// footprints of its global arrays ([Counted.Footprints]) and their
// memory-hierarchy counts, the distinct bytes the launch and each
// work-group touch and the loads a work-item repeats
// ([Counted.Hierarchy]; not properties of the fitted model), checks that
// given sizes keep every access inside its array ([Counted.CheckBounds])
// and compiles chosen counts for fast evaluation ([Counted.Compile]).
//
// The main types are [Kernel] (the parsed kernel: domains, inames,
// arrays, statements and Schedule), the expression nodes of [Expr], the
// schedule nodes of [Node] ([Loop], [Instruction], [Barrier]), [Tally]
// (what the interpreter did), [Counted] (the symbolic counts of a
// kernel), [Evaluator] (chosen counts compiled for fast evaluation) and
// [Weighted] (a weighted sum of the counts compiled for fast evaluation:
// a linear prediction). [Options] sets what [CountWith] counts:
// subscript arithmetic, and the local-memory bank layout (32 banks of 4
// bytes by default).
//
// A tiled matrix multiplication in the .knl format:
//
//	kernel matmul
//	const T = 16
//	domain [n, m, ell] -> { [i, j, k] : 0 <= i < n and 0 <= j < ell and 0 <= k < m }
//	domain { [pa] : 0 <= pa < T and T*k_out + pa < m }
//	domain { [pb] : 0 <= pb < T and T*k_out + pb < m }
//	array a f32 [n, m]
//	array b f32 [m, ell]
//	array c f32 [n, ell]
//	local ta f32 [T, T]
//	local tb f32 [T, T]
//	private acc f32
//	split i T i_out i_in
//	split j T j_out j_in
//	split k T k_out k_in
//	tag i_out g.1, i_in l.1, j_out g.0, j_in l.0, pa l.0, pb l.1
//	acc = 0
//	barrier {inames=k_out}
//	ta[i_in, pa] = a[i, T*k_out + pa]
//	tb[pb, j_in] = b[T*k_out + pb, j]
//	barrier {inames=k_out}
//	acc = acc + sum(k_in, ta[i_in, k_in]*tb[k_in, j_in]) {inames=k_out}
//	c[i, j] = acc
//
// A subscript that reads data makes an indirect access, counted in
// properties of its own (global.load.indirect.f32 for x[col[j]]), and
// atomic_add(TARGET, VALUE) adds to a global or local f32 or i32 element
// atomically (global.atomic.i32.add), as in a histogram:
//
//	<i32> b = (int)(a[i]*64.0f)
//	if b >= 0 and b < 64: atomic_add(hist[b], 1) {inames=i}
//
// The format's reference (statements, execution semantics, types, and
// what each operation counts) is docs/kernel-language.md in the
// repository; the properties, their stride and bank-conflict classes,
// footprints and how the symbolic counts are made are docs/counting.md.
package counts
