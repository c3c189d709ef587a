// Package codegen turns a counts kernel (its IR and schedule) into OpenCL C
// or CUDA C source, together with the order of the kernel's arguments:
// [Generate] writes the code that uniperf compiles, checks against the
// reference interpreter and times.
//
// The generated kernel does exactly what counts.Run does, and nothing
// else; every loop bound and guard comes from the kernel's projected
// domains (counts.Kernel.ProjectedDomain), turned into C by package
// polyhedra.
//
// # Structure
//
// The kernel function takes the global arrays as pointers, in declaration
// order, then the size parameters as 32-bit integers (Code.Args). Its
// body:
//
//   - computes each parallel iname from the hardware indices:
//     x = first + get_group_id(a) for g.a, first + get_local_id(a) for l.a
//     (blockIdx and threadIdx in CUDA), where first is x's least value in
//     its projected domain, the value counts.Kernel.IndexBases gives. It
//     is the largest lower bound of x or, where the bounds carry filters
//     (strides, or bounds that hold only for some residues), the first
//     value from there that satisfies them: where the bounds are
//     constants (a split's inner iname), a conditional expression picks
//     among the values that can be first, each test on the parameters
//     simplified where the earlier ones fail (jacobi-2d's 32-wide j_in
//     starts at (n >= 34) ? 0 : 1: below 34 the interior misses column
//     0), so that no work-item runs a loop (a loop there keeps a CPU
//     OpenCL from vectorizing the work-items' loop around the body), and
//     elsewhere a short loop finds it;
//   - declares local arrays as __local (OpenCL) or __shared__ (CUDA)
//     arrays, private arrays and scalars as C variables of each
//     work-item;
//   - follows the schedule: a loop over each sequential iname x inside
//     loops O runs through the values of the domain projected onto O and
//     x, from the largest lower bound to the smallest upper bound, with a
//     test for any filters. Bounds in several pieces become one loop from
//     the least first value to the greatest last value of the pieces that
//     hold, testing membership in the pieces. A loop over an iname tagged
//     unr gets #pragma unroll (OpenCL C and CUDA C both take it): on a CPU
//     OpenCL that unrolls it, so that the work-items' loop around the
//     straight-line code vectorizes across work-items as a GPU would run
//     them, where a loop left rolled runs serially in each work-item.
//     Where no barrier stands inside a loop and the domain bounds it by
//     an affine function of parallel inames that every instruction inside
//     runs in, O includes those inames: covariance's for j2 = j1 + 1 runs
//     from j1 + 1 in each work-item, as the user wrote it, not from 1
//     with a mask;
//   - writes each barrier where the schedule has it. The bounds of a loop
//     around a barrier depend on the parameters and sequential inames
//     only, so every work-item of a group reaches the same barriers;
//   - guards each instruction by the test that its inames (Within) lie in
//     their projected domain: that is where a split does not divide, where
//     a prefetch iname is narrower than its hardware axis, and where a
//     domain excludes points (j != i). Consecutive instructions with the
//     same guard share one if block. A reduction becomes loops over its
//     inames, inside the guard, that accumulate into a temporary;
//   - tests a predicated instruction's predicate inside the guard, and
//     evaluates its right-hand side and stores only where it holds.
//
// Conditions are C ints, 1 where they hold: comparisons, && and || (which
// evaluate their second operand only where the first does not decide, as
// the kernel language's and and or do) and !. if(c, a, b) becomes
// c ? a : b, or an if statement where a branch holds a reduction, so
// that exactly the branch chosen runs; select(b, a, c) evaluates b and a
// into temporaries first, as OpenCL's select does, and then picks one.
// The bitwise operators and shifts are C's; % on floating-point values is
// fmod (fmodf in CUDA for f32).
//
// Subscripts of global arrays are flattened row-major (or column-major
// for order=F arrays) in 32-bit arithmetic, as a person writes them: one
// sum where the extents are constants (x[768*i_out + 3*i_in + 2]), terms
// gathered by their parameter pitch where they are not
// (a[(8*i_out + i_in + 1)*n + 32*j_out + j_in]); bounds use 64-bit helpers
// floordiv, imin and imax, and the // and % of the kernel language use
// helpers (floordiv_i32, floormod_i32 and their 64-bit forms) that round
// towards negative infinity as counts does.
//
// # Simplification
//
// Each bound and guard is simplified against facts that hold wherever it
// is evaluated: the assumptions (counts refuses to run a kernel that
// violates them), the enclosing loops' values lying in their projected
// domain, an instruction's inames lying in theirs inside its guard, and
// what the launch grid guarantees about the parallel inames (see
// polyDomain). A constraint is dropped only when package polyhedra proves
// the others imply it there, and the last lower or upper bound of a loop
// is always kept, so the simplified code visits exactly the same points.
// A guard such as 0 <= i_in <= 15 thus disappears on a 16-wide axis, and
// the guard of a tiled matrix multiplication reads
//
//	if ((16*i_out + i_in < n) && (16*j_out + j_in < ell))
//
// # Errors
//
// Generate returns an error, never panics, for a backend it does not
// know, a local array whose extent is not a positive constant, a
// subscript with coefficients beyond 32 bits, and a domain polyhedra
// cannot bound.
package codegen
