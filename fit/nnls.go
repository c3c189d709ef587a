package fit

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// nnls solves min ‖A x − b‖₂ subject to x ≥ 0 by the active-set method of
// Lawson and Hanson (Solving Least Squares Problems, 1974, ch. 23).
//
// The passive set P holds the variables free to move; the others are held
// at zero. Each outer step frees the held variable whose gradient
// w = Aᵀ(b − A x) is largest, solves the unconstrained problem on P, and,
// while that solution has non-positive entries, steps from x towards it as
// far as feasibility allows and returns the variables that hit zero to the
// held set. It stops when no held variable has a positive gradient, which
// with x ≥ 0 and w_P = 0 are the Karush–Kuhn–Tucker conditions.
//
// Subproblems are solved by QR where they are well conditioned, and by
// SVD with the rank tolerance rankTol otherwise, so a rank-deficient
// passive set gets its minimum-norm solution rather than a division by
// zero.
func nnls(a *mat.Dense, b *mat.VecDense, rankTol float64) ([]float64, error) {
	m, n := a.Dims()
	x := make([]float64, n)
	passive := make([]bool, n)
	// skip marks held variables whose freeing failed at the current x;
	// it is cleared whenever x moves.
	skip := make([]bool, n)
	gradTol := 10 * eps * mat.Norm(a, 1) * float64(max(m, n))
	a, b = reduceRows(a, b)
	maxOuter := 5 * (n + 1)
	for outer := 0; ; outer++ {
		w := gradient(a, b, x)
		t, best := -1, gradTol
		for j := range n {
			if !passive[j] && !skip[j] && w[j] > best {
				t, best = j, w[j]
			}
		}
		if t < 0 {
			return x, nil
		}
		if outer == maxOuter {
			return nil, fmt.Errorf("fit: non-negative least squares did not converge in %d steps", maxOuter)
		}
		passive[t] = true
		for inner := 0; ; inner++ {
			z, err := solvePassive(a, b, passive, rankTol)
			if err != nil {
				return nil, err
			}
			// In exact arithmetic w_t > 0 makes z_t > 0 (Lawson and Hanson,
			// lemma 23.17); when rounding says otherwise the step would be
			// empty and the next outer step would pick t again.
			if inner == 0 && z[t] <= 0 {
				passive[t], skip[t] = false, true
				break
			}
			alpha, hit := 1.0, -1
			for j := range n {
				if passive[j] && z[j] <= 0 {
					if r := x[j] / (x[j] - z[j]); r < alpha {
						alpha, hit = r, j
					}
				}
			}
			if hit < 0 {
				copy(x, z)
				clear(skip)
				break
			}
			for j := range n {
				if passive[j] {
					x[j] += alpha * (z[j] - x[j])
				}
			}
			x[hit] = 0
			for j := range n {
				if passive[j] && x[j] <= 0 {
					passive[j], x[j] = false, 0
				}
			}
		}
	}
}

// reduceRows returns R and Qᵀb for the thin QR factorisation A = Q R of a
// matrix with more rows than columns: ‖A x − b‖² = ‖R x − Qᵀb‖² + a
// constant, and Rᵀ(Qᵀb − R x) = Aᵀ(b − A x), so the active-set method
// takes the same steps and stops at the same point on the n × n problem,
// and each of its subproblems factorises n rows rather than m (the fit
// of a measurement table has some thousand rows and forty columns, and
// cross-validation with the grid fill runs thousands of fits). R has A's
// singular values, so the subproblems' rank decisions are A's.
func reduceRows(a *mat.Dense, b *mat.VecDense) (*mat.Dense, *mat.VecDense) {
	m, n := a.Dims()
	if m <= n {
		return a, b
	}
	f := mat.DenseCopyOf(a).RawMatrix()
	tau := make([]float64, n)
	work := make([]float64, 1)
	lapack64.Geqrf(f, tau, work, -1)
	work = make([]float64, max(int(work[0]), m))
	lapack64.Geqrf(f, tau, work, len(work))
	qtb := blas64.General{Rows: m, Cols: 1, Stride: 1, Data: mat.VecDenseCopyOf(b).RawVector().Data}
	lapack64.Ormqr(blas.Left, blas.Trans, f, tau, qtb, work, len(work))
	r := mat.NewDense(n, n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			r.Set(i, j, f.Data[i*f.Stride+j])
		}
	}
	return r, mat.NewVecDense(n, qtb.Data[:n])
}

// gradient returns Aᵀ(b − A x), the negative gradient of ½‖A x − b‖².
func gradient(a *mat.Dense, b *mat.VecDense, x []float64) []float64 {
	_, n := a.Dims()
	var r mat.VecDense
	r.MulVec(a, mat.NewVecDense(n, x))
	r.SubVec(b, &r)
	w := mat.NewVecDense(n, nil)
	w.MulVec(a.T(), &r)
	return w.RawVector().Data
}

// solvePassive solves the unconstrained least-squares problem restricted to
// the passive columns and returns it as a full-length vector, zero outside.
func solvePassive(a *mat.Dense, b *mat.VecDense, passive []bool, rankTol float64) ([]float64, error) {
	m, n := a.Dims()
	var cols []int
	for j := range n {
		if passive[j] {
			cols = append(cols, j)
		}
	}
	sub := mat.NewDense(m, len(cols), nil)
	for k, j := range cols {
		sub.SetCol(k, mat.Col(nil, j, a))
	}
	y := mat.NewVecDense(len(cols), nil)
	if !solveByQR(y, sub, b, rankTol) {
		var svd mat.SVD
		if !svd.Factorize(sub, mat.SVDThin) {
			return nil, fmt.Errorf("fit: non-negative least squares: singular value decomposition did not converge")
		}
		rank := svd.Rank(rankTol)
		if rank == 0 {
			return make([]float64, n), nil
		}
		svd.SolveVecTo(y, b, rank)
	}
	z := make([]float64, n)
	for k, j := range cols {
		z[j] = y.AtVec(k)
		if math.IsNaN(z[j]) {
			return nil, fmt.Errorf("fit: non-negative least squares: subproblem gave NaN")
		}
	}
	return z, nil
}

// qrMargin is how far below 1/rankTol solveByQR wants the estimated
// condition number: the estimate can fall short of the 2-norm condition
// number by the factor k that relates the norms of a k-column matrix and
// by the estimator's own error, which is rarely over ten.
const qrMargin = 1e-3

// solveByQR sets y to the least-squares solution of sub y = b by QR, and
// says whether it did. It declines (leaving the problem to the SVD) when
// sub may be rank-deficient at rankTol: there the SVD's minimum-norm
// solution is the answer, and QR's back substitution would divide by a
// tiny pivot. Where it accepts, sub has full rank by a wide margin, the
// SVD would count every singular value, and both compute the one
// least-squares solution; QR does it several times faster, and the
// active-set method solves thousands of passive sets per fit.
func solveByQR(y *mat.VecDense, sub *mat.Dense, b *mat.VecDense, rankTol float64) bool {
	m, k := sub.Dims()
	if m < k {
		return false
	}
	var qr mat.QR
	qr.Factorize(sub)
	if c := qr.Cond(); !(c*float64(k)*rankTol < qrMargin) {
		return false
	}
	return qr.SolveVecTo(y, false, b) == nil
}
