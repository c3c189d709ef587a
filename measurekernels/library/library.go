// Package library holds uniperf's kernel library: the measurement kernels
// of seed 001 section 4.1 and the test kernels of section 5, written in
// the .knl kernel format of package counts and embedded in the binary.
// [Names] lists the kernels and [Source] returns one's .knl text.
//
// Work-group sizes are constants that suites override: LX is the number of
// work-items along hardware axis l.0, LY along l.1 (two-dimensional
// kernels only). vector_scale_add also has STRIDE (1, 2 or 3),
// global_copy_strided and global_store_strided have STRIDE (2 or 3),
// sumsq, inv_norm and vector_sum have D, the length of their vectors (2 or
// 3), scaled_sum has K, the length of the vector it sums,
// matvec_t_unrolled has M, the number of rows of its matrix, fan_out
// and fan_in have S, the number of rows each element is stored to or
// summed from, reuse_group has K, the width of the window each
// work-item sums, local_tile has C, the rows of its local tile, and
// PAD, the padding of a row, local_context has S, the cells each
// work-item adds a round, guarded_lanes_f32 has K, the sums each
// work-item keeps, and column_walk has p, the row pitch of
// the matrix whose columns it sums. Of the opt-in kernels of issue 42's
// strided i32 and uniform readonly loads, global_strided_i32 has STRIDE
// (2 or 3), R (loads) and S (stores), vector_sum_i32 has D, and
// scaled_sum_i32, scaled_sum_ldg and scaled_sum_ldg_i32 have K; of its
// strided readonly loads, global_ldg_strided_f32 and
// global_ldg_strided_i32 have STRIDE (2 or 3) and U, the elements of
// each group of STRIDE that a work-item sums (1 to STRIDE), and
// transpose_ldg_f32 and transpose_ldg_i32 (stride n, class >4) only the
// work-group sizes. reuse_group, reread_l2, reread_dram,
// column_walk, accumulate_global, local_tile, local_context, guarded_lanes_f32 and core_fill are the memory-hierarchy
// classes, which only the opt-in hierarchy suite measures. Each file's comment says what the kernel computes and which
// configuration of the seed it is.
//
// Every loop whose trip count is a constant is tagged unr, so that the
// generated code asks the compiler to unroll it (#pragma unroll). A GPU
// compiler unrolls such loops anyway; a CPU OpenCL such as PoCL runs a
// work-item's loops serially and vectorizes across work-items only the
// straight-line code outside them, so that a loop left rolled runs 2 to 10
// times slower there than its counts describe (fan_in with S = 4 took 19.8
// ms at n = 2^24 rolled and 9.4 ms unrolled, as fast as the same sum
// written out by hand). matvec_t, whose loop runs over a parameter, is kept
// for the tables measured with it; the paper suite measures
// matvec_t_unrolled instead.
//
// This package only stores text; it does not depend on the parser.
package library

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

//go:embed *.knl
var files embed.FS

// Names lists the kernels of the library, sorted. A kernel's name is its
// file name without ".knl", and also the name its "kernel" line declares.
func Names() []string {
	entries, err := fs.ReadDir(files, ".")
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".knl"); ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// Source returns the .knl text of the named kernel.
func Source(name string) ([]byte, error) {
	b, err := files.ReadFile(name + ".knl")
	if err != nil {
		return nil, fmt.Errorf("kernel library: no kernel %q", name)
	}
	return b, nil
}

// FileName is the file name of the named kernel, for error messages.
func FileName(name string) string { return name + ".knl" }
