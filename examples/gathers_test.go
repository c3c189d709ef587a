package examples_test

import "maps"

// Kernels with gathers and atomics (issue 42), reimplemented from their
// originals: SHOC's scalar CSR and ELLPACK-R SpMV.
func init() {
	maps.Copy(kernels, gathers)
	fixInputs["spmv_csr_scalar"] = csrInputs
	fixInputs["spmv_ellpackr"] = ellInputs
}

// ellInputs makes spmv_ellpackr's inputs an ELLPACK-R matrix of dim rows
// of 0 to maxrl entries, column-major, with columns scattered over
// 0..dim-1.
func ellInputs(p map[string]int64, in map[string][]float32) {
	dim, maxrl := p["dim"], p["maxrl"]
	for t := range dim {
		in["rowLengths"][t] = float32(t * 7 % (maxrl + 1))
	}
	for j := range in["cols"] {
		in["cols"][j] = float32((int64(j)*7919 + 13) % dim)
	}
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
	"spmv_ellpackr": {map[string]int64{"dim": 301, "maxrl": 7}, func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		dim := p["dim"]
		rl, cols, val, vec := in["rowLengths"], in["cols"], in["val"], in["vec"]
		out := make([]float32, dim)
		for t := range dim {
			var result float32
			for i := range int64(rl[t]) {
				ind := i*dim + t
				result += val[ind] * vec[int64(cols[ind])]
			}
			out[t] = result
		}
		return map[string][]float32{"out": out}
	}},
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
