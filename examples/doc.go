// Package examples holds the corpus of real kernels ported to the .knl
// format from public suites (PolyBench/GPU, NVIDIA's cuda-samples,
// Rodinia, Kernel Tuner), each naming its source and commit in its first
// comment, and the fixed rule that splits them into development and
// held-out kernels (SplitOf, Files; FS holds the files). Its test checks
// each kernel's counts against the reference interpreter and its
// generated OpenCL C, run on PoCL, against a Go reimplementation of the
// original's result. README.md lists the kernels with their part and
// gives measured and predicted times.
package examples
