// Package counts reads GPU kernels written in the .knl format, builds
// their typed intermediate representation and schedule, runs them with a
// reference interpreter, and counts their performance-relevant properties
// symbolically: the kernel properties of Stevens and Klöckner's unified,
// hardware-fitted performance model (seed 001), each a sum of products of
// numbers of points of integer sets, which package polyhedra counts as
// piecewise quasi-polynomials in the size parameters.
//
// [ParseKernel] reads a kernel, [Kernel.Launch] computes its launch grid,
// [Run] interprets it and [Count] (or [CountWith]) counts it. A [Counted]
// evaluates its properties ([Counted.Eval], [Counted.PropertiesAt]),
// splits them by instruction or array ([Counted.Breakdown]), counts the
// footprints and memory-hierarchy counts of its global arrays
// ([Counted.Footprints], [Counted.Hierarchy]; not properties of the
// fitted model; exactly at given sizes where they have no symbolic form:
// [Counted.FootprintsAt], [Counted.HierarchyAt]), counts the local loads
// a compiler keeps in registers across unrolled loops
// ([Counted.RegisterLoadsAt]), checks that given sizes
// keep every access in bounds ([Counted.CheckBounds]) and compiles chosen
// counts for fast evaluation ([Counted.Compile]).
//
// The main types are [Kernel] (domains, inames, arrays, statements and
// Schedule), the expression nodes of [Expr], the schedule nodes of [Node]
// ([Loop], [Instruction], [Barrier]), [Tally] (what the interpreter did),
// [Counted], [Evaluator] (chosen counts compiled) and [Weighted] (a
// linear prediction compiled); [Options] sets what [CountWith] counts.
//
// The C a kernel is ported from is written as C writes it: scalar
// arguments passed by value (scalar alpha f32 = 0.5: no load), constants
// derived from others (const S = BS - 2*PH, which follows an override of
// PH), C's casts, integer max and min, unsuffixed floating-point literals
// as doubles (0.5*x is an f64 multiplication), and counts that follow what
// a C compiler emits: literal arithmetic folded into one literal, // and %
// by a power of two counted as a shift and an AND (ExampleCount_cFeatures).
//
// Beside loops (upwards, downwards for an iname tagged down, or over data
// bounds, "for j = start .. end max N", whose trips count as the upper
// bound N), barriers and local memory, the format has compile-time ifs on
// constants (C's #if on a tunable: only the taken branch counts,
// and it may hold barriers; ExampleCount_compileTimeIf), readonly global arrays (read through the
// read-only path; their loads count as global.ldg.T.stride=C), u32, C's
// unsigned int (arithmetic modulo 2^32, unsigned comparisons, division
// and shifts, i32 operands converted to it, 7u literals; counted as i32,
// ExampleRun_unsigned), the 8- and
// 16-bit storage integers i8, u8, i16 and u16 (loads and stores count by
// width, global.load.b8.stride=1; arithmetic promotes them to i32),
// half precision f16 as storage in global and local arrays (a load gives
// f32, a store rounds to the nearest half; global.load.f16.stride=1,
// ExampleRun_half),
// indirect accesses, whose subscripts read data (global.load.indirect.f32
// for x[col[j]]; a gather from a readonly array counts as indirect; a
// private i32 or i64 temporary assigned once by an affine expression,
// <i32> ind = i*n + t, reads no data: val[ind] counts as val[i*n + t],
// a condition comparing it is affine, and only its own operations count
// where it is assigned, as before; ExampleCount_affineTemporary), and
// atomic_add(TARGET, VALUE) on global or local f32, i32 and u32 elements
// (global.atomic.i32.add). Which cells an indirect access touches is
// data: the footprints refuse such an array; the memory-hierarchy counts
// and cache lines at given sizes ([Counted.HierarchyAt],
// [Counted.LinesAt]) count every other array exactly and bound it, its
// distinct cells at a place (the launch, a work-group, a work-item) at
// most the executions of its indirect accesses plus the cells of its
// affine references there, and at most its extent, its repeated loads at
// least those of its affine loads, each such count marked Approximate
// ([Counted.IndirectArrays] lists those arrays). A histogram:
//
//	kernel hist
//	domain [n] -> { [i] : 0 <= i < n }
//	array a f32 [n] readonly
//	array hist i32 [64]
//	split i 256 i_out i_in
//	tag i_out g.0, i_in l.0
//	<i32> b = (int)(a[i]*64.0f)
//	if b >= 0 and b < 64: atomic_add(hist[b], 1) {inames=i}
//
// An instruction runs in the inames it names (and those of its inames=
// annotation or enclosing for block): one that names no index of the
// launch runs, and counts, on every work-item launched, as loopy's does
// (the bin test above would run on 256*ceil(n/256) without {inames=i};
// ExampleCount_launchIndex). An if block tests its condition once, where
// it starts, as C does, computing one that costs something into a
// temporary ifcond_LINE_COL (ExampleCount_ifTestsOnce).
//
// A subscript may be flattened as C writes it, a[i*n + j] of an array
// [n*n]: where the extent is the product of the pitches (the rows of
// in[(y + 1)*(w + 2) + x + 1] of an array [(h + 2)*(w + 2)]: w + 2, an
// affine pitch such as Rodinia's hid + 1), the subscript splits into one
// index per dimension, and its strides, footprints and bounds count as
// those of the array written with a dimension per pitch
// (ExampleCount_flattened). One that does not split (an inner index that
// runs past its pitch, a pitch the extent does not declare) is refused
// where a symbolic footprint is needed, with that form to write instead.
//
// A local access counts its bank-conflict degree warp by warp (32
// consecutive work-items of the group), over the lanes its conditions
// leave active: a transposed read of a 16 x 16 tile is 8-way where a
// whole warp reads it and conflict-free under tx == 0
// (ExampleCount_bankConflictsPerWarp). Where a condition on a lane names
// a parameter, every lane is taken as active and the count is marked an
// upper bound.
//
// A global array's extent is what the host allocates, not the logical
// image: a tiled kernel whose edge block loads its whole tile and halo
// unguarded, guarding only its store, as tuned kernels do, reads past
// the image into padding, which C allows, and those loads are real,
// counted, run by the interpreter and by the generated code. Declare
// the allocation (a 16-wide tile with a halo of 2 over n elements: array
// in f32 [n + 18]); [Counted.CheckBounds] refuses only a reference past
// it, naming the elements past the end and the extent to declare
// (ExampleCounted_CheckBounds_edgeBlock; uniperf import takes it as
// --array in=n+18).
//
// The format's reference (statements, semantics, types, what each
// operation counts, a tiled matmul) is docs/kernel-language.md in the
// repository; the properties, their stride and bank-conflict classes,
// footprints and how the symbolic counts are made are docs/counting.md.
package counts
