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
// The kernel function takes the global arrays as pointers, in declaration
// order, then the size parameters as 32-bit integers ([Code].Args). Its
// body computes each parallel iname from the hardware indices, declares
// local arrays as __local (OpenCL) or __shared__ (CUDA), follows the
// schedule's loops (a loop over an unr iname gets #pragma unroll, and
// runs over the constant bounds its domain has where the parameters leave
// its own bounds open, its edge tested in the guards inside), writes
// each barrier where the schedule has it, and guards each instruction by
// the test that its inames lie in their projected domain. Conditions
// evaluate as the kernel language says (&& and || short-circuit, if()
// runs only the branch chosen, select evaluates both values); the // and
// % of the kernel language round towards negative infinity, as counts
// does. Each bound and guard is simplified against what holds wherever
// it is evaluated, a constraint being dropped only when package polyhedra
// proves the others imply it, so the simplified code visits exactly the
// same points: the guard of a tiled matrix multiplication reads
//
//	if ((16*i_out + i_in <= n - 1) && (16*j_out + j_in <= ell - 1))
//
// [Generate] returns an error, never panics, for a backend it does not
// know, a local array whose extent is not a positive constant, a
// subscript with coefficients beyond 32 bits, and a domain polyhedra
// cannot bound. How each part of the source is built, and why, is
// docs/code-generation.md in the repository.
package codegen
