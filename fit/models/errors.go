package models

import "errors"

// Errors of the models, each wrapped with the model's name as prefix
// ("resios: not calibrated"), as the seeds' packages prefix theirs with
// their own names, so that a caller may test for them with errors.Is.
var (
	// ErrNotCalibrated is a prediction asked of a model that was not
	// calibrated or read from a calibration file.
	ErrNotCalibrated = errors.New("not calibrated")
	// ErrNoDeviceFile is a model that needs the device's parameter file
	// (package gpus) given none.
	ErrNoDeviceFile = errors.New("no device file")
)

// ErrNoWork marks a launch a model cannot price because the model sees no
// work in it (the empty kernel): calibration leaves such rows out.
var ErrNoWork = errors.New("the model sees no work in this kernel")
