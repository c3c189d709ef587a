package fit

import "math"

// eps is the spacing of float64 values at 1, from which the rank and
// collinearity thresholds of the solvers are scaled.
const eps = 0x1p-52

// nearCollinear is the singular-value ratio σ_k/σ_1 below which a
// direction is reported as nearly collinear even when the matrix has full
// rank: below √ε half the digits of the weights along it are noise.
var nearCollinear = math.Sqrt(eps)
