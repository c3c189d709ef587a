package models

import "errors"

// errNoWork marks a launch a model cannot price because the model sees no
// work in it (the empty kernel): calibration leaves such rows out.
var errNoWork = errors.New("the model sees no work in this kernel")
