// Package cimport translates a GPU kernel written in CUDA C or OpenCL C
// into the .knl language of package counts, so that its properties can
// be counted, and its run time predicted, from the source its author
// wrote, with no porting by hand.
//
// [Import] reads a source file, runs the preprocessor (#define, #if,
// #ifdef, -D), finds the kernel function (__global__ in CUDA, __kernel
// in OpenCL C) and translates its body by evaluating it symbolically:
//
//   - the work-item and group indices (threadIdx, blockIdx, blockDim,
//     get_global_id, get_local_id, get_group_id, get_local_size) become
//     inames tagged l.N and g.N; a variable that holds an axis's global
//     index (int i = blockIdx.x*blockDim.x + threadIdx.x, or
//     get_global_id(0)) names it, and the .knl splits it as a hand port
//     would (split i 256 i_out i_in); where no guard bounds the grid (an
//     if ... else that every launched work-item runs), only
//     get_global_id, which C computes nothing for, names it, over the
//     launched grid rounded to whole groups (i < 32*ceil(n/32));
//   - integer variables are affine expressions of the inames and of the
//     kernel's integer arguments (the size parameters), with
//     coefficients that may be products of parameters, so that flat
//     subscripts a[i*n + j] stay as written;
//   - a for loop with an affine start, a conjunction of affine
//     comparisons as its condition and a constant step becomes an iname
//     and a domain (one counting down by one, m--, an iname of m's own
//     values tagged down, so that tx <= m costs nothing as in C); a loop
//     with constant bounds and another step (s >>= 1, s *= 2), or one
//     that runs once at every size (a tile loop at tile size 1), is
//     unrolled at import, its variable a constant;
//   - an affine if that encloses the whole body (the guard i < n of
//     most kernels, or the early "if (i >= n) return;") becomes part of
//     the launch's domain, as the hand ports write it; other ifs become
//     the .knl's if blocks, exact where affine and upper bounds where
//     they read data;
//   - __shared__ and __local arrays become local arrays (dynamic shared
//     memory, extern __shared__ or SharedMemory<T>(), with its size from
//     --array), arrays declared in the body private ones, floating-point
//     scalars private temporaries; __syncthreads(), barrier(), cg::sync(g)
//     and g.sync() barriers; compound assignments stay compound; mad and
//     fma a multiplication and an addition;
//   - atomic additions (atomicAdd, atomic_add, atomic_inc, ...) become
//     atomic_add, subscripts computed from data gathers and scatters,
//     pointer arguments that are const and restrict, or read with
//     __ldg, and never stored readonly arrays, char and short (signed or
//     not) i8, u8, i16 and u16, unsigned int (unsigned, uint, uint32_t)
//     u32, and __half (OpenCL C's half) f16, loaded
//     through __half2float or vload_half and stored through
//     __float2half_rn or vstore_half, with the arithmetic in float (half
//     arithmetic is refused);
//   - a call of a __device__ function (or, in OpenCL C, of a function of
//     the file that is not a kernel) is inlined; x >> k of an index that
//     2^k does not divide is x // 2^k, data; gridDim is known where
//     --groups gives it without a division; an integer set to a constant
//     and accumulated from data in a loop, or set under an if that reads
//     data, is a private variable;
//   - a loop whose bounds are data, given its most iterations (--trips
//     j=maxrl), is the language's data-bounded loop, for j = start ..
//     end max maxrl, generated as C's loop; where that loop cannot say
//     it (a step other than 1, a condition other than j < END with END
//     a variable, a size or a literal, an affine start that is no
//     literal), it runs over an iname below the bound with its body
//     under the loop's condition, and the header says why; either
//     counts as an upper bound;
//   - a loop with a break at the top of its body (break; or if (C)
//     break; with C known at import) is unrolled, and ends there; its
//     bounds must be constants (-D iteration=1 fixes an integer
//     argument);
//   - a work-item index used through its lane and its run, t & 31 (or
//     t % 32) and t / 32 with 32 dividing the work-group's size along
//     its axis (a warp a row), is split into inames of their own (split
//     l0 32 l0_run l0_lane), the lane on the axis and the run on the
//     lowest hardware axis left free, so that both are affine; the AND
//     and the shift C executes are counted where it does (lanes);
//   - a barrier inside an if that is not the guard is accepted where the
//     launch's bounds and --assume make the if's condition hold at every
//     work-item launched (barrierif): the if's statements before it stay
//     under the if, the rest follow it, and the header says so;
//   - a bool flag set under an if is the if's condition, and a
//     comparison with a min or max of affine values (a clamp) is affine
//     (see clamp), so that Rodinia's hotspot and pathfinder count
//     exactly.
//
// What C does not state comes from [Options] (uniperf import's flags),
// or from a comment of the source, "// uniperf: FLAGS", in the same
// syntax ([ParseFlags]): the work-group size (--local), the launch
// grid (--global, the work-items as the host's global work size, or
// --groups, gridDim, in C's arithmetic: the host's (n + 255)/256 as it
// stands, a division truncated; without either, the guard bounds it;
// [Result] warns where a launch may leave out work-items the guard
// admits), the extents
// of the global arrays (--array), what the host guarantees of the
// integer arguments (--assume, the .knl's assume lines, which counts
// need where a flattened subscript's row must stay inside the array's
// row), and, where wanted, the values of
// floating-point arguments, which are .knl scalar arguments (a -D
// naming one gives its value); the .knl's header says where each came
// from. A -D of a positive integer stays a name, the .knl's const,
// unless the translation needs its value (see importer). Casts become
// the .knl's casts, integer min and max (and a ?: that is one) its.
//
// What is not affine is refused with the source's line and column and
// what to write instead: integer variables changed in a loop, while
// loops other than those whose body ends by updating the variable their
// condition tests (read as the for loop they are), other breaks, loop bounds read from data without --trips, products of
// two indices, integer divisions that do not divide exactly, bounds
// computed by min, max or casts, atomics other than additions, pointer
// arithmetic other than a[i], *(a + i) and a pointer set where it is
// declared to an array plus an integer (p = s + off, or a device
// function's pointer parameter given one: p[i] is s[off + i]),
// recursion, barriers inside ifs that do not hold at every work-item
// launched, and of vector types and structs what aggregates does not
// lower.
//
// Vector types (float2, int4) and structs of scalar fields of one type
// are lowered before the translation (aggregates, lowerAggregates), as
// the hand ports write them: an array of N-field elements is a scalar
// array of N times its length, field f of element i at N*i + f, and a
// private one is one scalar a field. The same pass peels the first
// iteration of a loop stepped by k = j++ (trailing). A device
// function's reference parameter (float &x) is the caller's variable.
//
// # The front end
//
// The lexer, preprocessor and parser of the kernels' C subset are written
// here, in Go, without cgo. The maintained pure-Go C parser,
// modernc.org/cc/v4, does not serve: it parses C11 and needs a host
// configuration (predefined macros, include paths, an ABI), while kernels
// are CUDA C++ (templates, namespaces such as cg::, references) and
// OpenCL C (address-space qualifiers, vector types), which it accepts only
// after macros rewrite the source, and those would erase what the
// translation reads (__shared__, __local). A kernel's own subset is
// small (declarations, for, if, blocks and expressions), host code around
// it is skipped by matching braces, and headers are not read: what a
// kernel uses of CUDA and OpenCL (indices, math functions, barriers) is
// built in. Every input is bounded in size, nesting depth and macro
// expansions, so that a hostile source ends in an error, not a crash
// (FuzzImport).
package cimport
