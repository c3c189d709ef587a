package fit

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// bruteNNLS solves min ‖A x − b‖ subject to x ≥ 0 by trying every support
// set S: the optimum is the unconstrained least-squares solution on some S
// that is strictly positive on S (or x = 0). It returns the smallest
// residual over the feasible candidates.
func bruteNNLS(a *mat.Dense, b []float64) (best float64, bestX []float64) {
	m, n := a.Dims()
	bv := mat.NewVecDense(m, b)
	best = mat.Norm(bv, 2)
	bestX = make([]float64, n)
	for set := 1; set < 1<<n; set++ {
		var cols []int
		for j := range n {
			if set&(1<<j) != 0 {
				cols = append(cols, j)
			}
		}
		sub := mat.NewDense(m, len(cols), nil)
		for k, j := range cols {
			sub.SetCol(k, mat.Col(nil, j, a))
		}
		var y mat.VecDense
		if err := y.SolveVec(sub, bv); err != nil {
			continue
		}
		x := make([]float64, n)
		feasible := true
		for k, j := range cols {
			x[j] = y.AtVec(k)
			if x[j] <= 0 {
				feasible = false
			}
		}
		if !feasible {
			continue
		}
		var r mat.VecDense
		r.MulVec(a, mat.NewVecDense(n, x))
		r.SubVec(bv, &r)
		if res := mat.Norm(&r, 2); res < best {
			best, bestX = res, x
		}
	}
	return best, bestX
}

func TestNonNegativeMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	names := []string{"p0", "p1", "p2", "p3", "p4", "p5"}
	binding := 0
	for trial := range 40 {
		// Times from weights of mixed sign plus 20% noise, so that the
		// free fit has negative weights and the constraint binds.
		w := make([]float64, len(names))
		for j := range w {
			w[j] = rng.Float64()*2 - 0.7
		}
		samples := make([]Sample, 15)
		for i := range samples {
			c := make([]float64, len(names))
			var t float64
			for j := range c {
				c[j] = math.Floor(rng.Float64() * 100)
				t += w[j] * c[j]
			}
			samples[i] = Sample{Counts: c, Time: math.Abs(t)*(1+0.2*rng.Float64()) + 1}
		}
		got, err := Fit(names, samples, Options{NonNegative: true})
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		wantRes, wantX := bruteNNLS(relMatrix(samples), ones(len(samples)))
		if d := got.Diagnostics.Residual - wantRes; math.Abs(d) > 1e-9*wantRes {
			t.Errorf("trial %d: residual %.12g, brute force %.12g", trial, got.Diagnostics.Residual, wantRes)
		}
		for j, x := range got.Values {
			if x < 0 {
				t.Errorf("trial %d: %s = %g < 0", trial, names[j], x)
			}
			if math.Abs(x-wantX[j]) > 1e-7*(math.Abs(wantX[j])+1e-3) {
				t.Errorf("trial %d: %s = %g, brute force %g", trial, names[j], x, wantX[j])
			}
		}
		var atZero int
		for _, x := range wantX {
			if x == 0 {
				atZero++
			}
		}
		if len(got.Diagnostics.AtZero) != atZero {
			t.Errorf("trial %d: at zero %v, brute force has %d zeros", trial, got.Diagnostics.AtZero, atZero)
		}
		if atZero > 0 {
			binding++
		}
	}
	if binding < 20 {
		t.Errorf("the constraint binds in only %d of 40 trials", binding)
	}
}

// On a problem too large for brute force, check the Karush–Kuhn–Tucker
// conditions: x ≥ 0, gradient g = Aᵀ(b − A x) ≤ 0 where x = 0 and g = 0
// where x > 0 (in column-scaled coordinates, up to rounding).
func TestNonNegativeKKT(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	w := []float64{8e-12, -6e-12, 1e-12, 7e-13, -5e-13, 4e-11, 3e-9, 1e-4}
	samples := synthetic(rng, 120, trueWeights, 0.3)
	for i := range samples {
		var t float64
		for j, c := range samples[i].Counts {
			t += w[j] * c
		}
		samples[i].Time = math.Abs(t) + 1e-4
	}
	fw, err := Fit(trueNames, samples, Options{NonNegative: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(fw.Diagnostics.AtZero) == 0 {
		t.Fatal("constraint never binds; the test proves nothing")
	}
	a := relMatrix(samples)
	m, n := a.Dims()
	var r mat.VecDense
	r.MulVec(a, mat.NewVecDense(n, fw.Values))
	r.SubVec(mat.NewVecDense(m, ones(m)), &r)
	for j := range n {
		col := a.ColView(j)
		g := mat.Dot(col, &r) / mat.Norm(col, 2) // scaled-coordinate gradient
		x := fw.Values[j]
		switch {
		case x < 0:
			t.Errorf("%s = %g < 0", trueNames[j], x)
		case x == 0 && g > 1e-9:
			t.Errorf("%s held at zero with gradient %g > 0", trueNames[j], g)
		case x > 0 && math.Abs(g) > 1e-9:
			t.Errorf("%s = %g free with gradient %g ≠ 0", trueNames[j], x, g)
		}
	}
}

// TestSolvePassiveQRAndSVD checks both ways of solving a passive set
// against the normal equations of two columns, solved by hand: QR on the
// well-conditioned [c1 c2], and the SVD's minimum-norm solution on
// [c1 c2 c2], which splits c2's weight evenly between its two copies.
func TestSolvePassiveQRAndSVD(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	const m = 9
	c1, c2, b := make([]float64, m), make([]float64, m), make([]float64, m)
	for i := range m {
		c1[i], c2[i], b[i] = rng.Float64(), rng.Float64(), rng.Float64()
	}
	// [g11 g12; g12 g22] y = [h1; h2], the normal equations of [c1 c2].
	g11, g12, g22 := dot(c1, c1), dot(c1, c2), dot(c2, c2)
	h1, h2 := dot(c1, b), dot(c2, b)
	det := g11*g22 - g12*g12
	y1, y2 := (g22*h1-g12*h2)/det, (g11*h2-g12*h1)/det

	bv := mat.NewVecDense(m, b)
	two := mat.NewDense(m, 2, nil)
	two.SetCol(0, c1)
	two.SetCol(1, c2)
	zero := mat.NewDense(m, 1, nil)
	if !solveByQR(mat.NewVecDense(2, nil), two, bv, 1e-13) || solveByQR(mat.NewVecDense(1, nil), zero, bv, 1e-13) {
		t.Fatal("QR should take the well-conditioned [c1 c2] and leave the zero column to the SVD")
	}
	three := mat.NewDense(m, 3, nil)
	three.SetCol(0, c1)
	three.SetCol(1, c2)
	three.SetCol(2, c2)
	for _, tc := range []struct {
		a    *mat.Dense
		want []float64
	}{
		{two, []float64{y1, y2}},
		{three, []float64{y1, y2 / 2, y2 / 2}},
	} {
		_, n := tc.a.Dims()
		passive := make([]bool, n)
		for j := range passive {
			passive[j] = true
		}
		got, err := solvePassive(tc.a, bv, passive, 1e-13)
		if err != nil {
			t.Fatal(err)
		}
		for j := range got {
			if math.Abs(got[j]-tc.want[j]) > 1e-10*(1+math.Abs(tc.want[j])) {
				t.Errorf("%d columns: x = %v, want %v", n, got, tc.want)
				break
			}
		}
	}
}
