// Package linear runs seed 001's unified, hardware-fitted model end to end
// on measurement tables: it counts the library kernel of every measured row
// at the row's parameters (package counts), fits one weight per property over
// the measurement rows (package fit), and predicts and validates run times
// as dot products of weights and counts.
//
// A Counter counts kernels symbolically, once per kernel and binding of its
// consts (work-group and tile sizes), and evaluates the counts exactly for
// each row. Train fits the weights of one device; Validate predicts rows and
// pairs each prediction with its measurement; CrossValidate leaves out one
// kernel class at a time, fits on the others, and predicts the rows left
// out that the others determine (seed 001 fits on measurement kernels and
// validates on test kernels; leaving classes out asks the same question of
// the measurement set itself); Coverage reports how well the measurement
// rows determine the weights and predictions of the test rows.
//
// Which properties enter the fit follows seed 001 §2: integer operations are
// counted but left out (Train's Options.Integer puts them in), because the
// paper's model does not price them and compilers remove most of them.
package linear
