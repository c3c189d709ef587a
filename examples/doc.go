// Package examples holds real kernels ported to the .knl format from
// public sources (PolyBench/GPU, NVIDIA's cuda-samples, Rodinia), each
// naming its source in a comment: gemm, atax (both kernels), bicg,
// jacobi-2d, syrk, transpose, reduction and pathfinder. The package has
// no code; its test checks each kernel's counts against the reference
// interpreter and its generated OpenCL C, run on PoCL, against a Go
// reimplementation of the original's result. README.md gives measured
// and predicted times on PoCL.
package examples
