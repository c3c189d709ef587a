package examples_test

import "maps"

// Kernels with gathers and atomics (issue 42), reimplemented from their
// originals: SHOC's scalar CSR SpMV.
func init() {
	maps.Copy(kernels, gathers)
	fixInputs["spmv_csr_scalar"] = csrInputs
}

// csrInputs makes spmv_csr_scalar's inputs a CSR matrix of nnz entries in
// dim rows, none longer than maxrl: rows of nnz/dim entries, give or take
// one in pairs, the remainder spread over rows, and columns scattered
// over 0..dim-1.
func csrInputs(p map[string]int64, in map[string][]float32) {
	dim, nnz := p["dim"], p["nnz"]
	base, extra := nnz/dim, nnz%dim
	rows, cols := in["rowDelimiters"], in["cols"]
	rows[0] = 0
	for i := range dim {
		n := base
		if i*37%dim < extra {
			n++
		}
		if base > 0 && i+1 < dim && i%2 == 0 && (i+1)*37%dim >= extra {
			n-- // and the next row one more
		} else if base > 0 && i%2 == 1 && i*37%dim >= extra {
			n++
		}
		rows[i+1] = rows[i] + float32(n)
	}
	for j := range cols {
		cols[j] = float32((int64(j)*7919 + 13) % dim)
	}
}

var gathers = map[string]example{
	"spmv_csr_scalar": {map[string]int64{"dim": 301, "nnz": 1500, "maxrl": 7}, func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		dim := p["dim"]
		rows, cols, val, vec := in["rowDelimiters"], in["cols"], in["val"], in["vec"]
		out := make([]float32, dim)
		for i := range dim {
			var t float32
			for j := int64(rows[i]); j < int64(rows[i+1]); j++ {
				t += val[j] * vec[int64(cols[j])]
			}
			out[i] = t
		}
		return map[string][]float32{"out": out}
	}},
}
