package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/fit/gpus"
)

// warnOtherDevice warns on stderr when what priced a kernel ("the weights
// were fitted on", "the device file describes") names another device than
// the one that timed it. Two CPUs under PoCL differ in their caches, clock
// and cores, so a comparison across them measures the difference of the
// machines as much as the model's error.
func warnOtherDevice(what, priced, timed string) {
	if sameDevice(priced, timed) {
		return
	}
	fmt.Fprintf(stderr, "warning: %s %q, the kernel was timed on %q: the differences include those of the two devices (price it with weights or a device file of %q to compare like with like)\n",
		what, priced, timed, timed)
}

// sameDevice compares device names as the tables and runtimes report
// them, ignoring case and surrounding space, as the registry does.
func sameDevice(a, b string) bool {
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}

// describes says whether device file d names the device a table or a
// runtime calls device, by its name or an alias.
func describes(d *gpus.Device, device string) bool {
	return slices.ContainsFunc(append([]string{d.Name}, d.Aliases...), func(n string) bool { return sameDevice(n, device) })
}

// otherDeviceFile is the note for a device file given for a device it does
// not name: its numbers (clock, compute units, caches, l2_ways) are another
// device's, which the models would price this one's rows with.
func otherDeviceFile(d *gpus.Device, device string) string {
	return fmt.Sprintf("the device file %s describes %q, not %q, and its clock, compute units and caches price this device's rows: "+
		"pass a file of this device with --device-file (docs/device-files.md; where yours is, add %q to its aliases)",
		d.File, d.Name, device, device)
}

// warnDeviceFile warns on stderr where a calibration of device is applied
// with a device file of another (otherDeviceFile).
func warnDeviceFile(d *gpus.Device, device string) {
	if !describes(d, device) {
		fmt.Fprintf(stderr, "warning: %s\n", otherDeviceFile(d, device))
	}
}

// warnFileTimed warns on stderr where device file d, which priced a
// kernel, is not the file of the device that timed it.
func warnFileTimed(d *gpus.Device, timed string) {
	if !describes(d, timed) {
		warnOtherDevice("the device file "+d.File+" describes", d.Name, timed)
	}
}
