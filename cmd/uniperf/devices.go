package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/measurekernels/devices"
	"github.com/uniperf/uniperf/measurekernels/gpu"
)

var devicesJSON bool

var devicesCmd = &cobra.Command{
	Use:   "devices",
	Short: "List the OpenCL and CUDA devices present",
	Long: `devices loads the OpenCL runtime (libOpenCL.so.1, e.g. PoCL on a CPU) and the
CUDA driver (libcuda.so.1) at run time and lists every device they report:
the ID to pass to --device, the name, driver version, compute units (CUDA
multiprocessors), maximum clock, global and local memory, largest buffer,
largest work-group, and double-precision support.

A runtime that is missing or has no device is one line saying why. The exit
status is 0 when at least one runtime answered with a device, 1 when none did.
With --json the listing is a JSON array with one object per runtime:
{"backend", "version", "error" (why the runtime is missing), "devices":
[{"id", "name", "vendor", "platform", "driver", "compute_units",
"clock_mhz", "global_mem_bytes", "local_mem_bytes", "max_alloc_bytes",
"max_group_size", "max_group_dims", "float64"}]}.`,
	Example: `  uniperf devices
  uniperf devices --json`,
	Args: cobra.NoArgs,
	RunE: func(cmd *cobra.Command, _ []string) error {
		return listDevices(cmd.OutOrStdout(), devices.Discover(), devicesJSON)
	},
}

func init() {
	devicesCmd.Flags().BoolVar(&devicesJSON, "json", false, "print JSON instead of a table")
	rootCmd.AddCommand(devicesCmd)
}

// runtimeJSON is one runtime in `uniperf devices --json`.
type runtimeJSON struct {
	Backend string       `json:"backend"`
	Version string       `json:"version,omitempty"`
	Error   string       `json:"error,omitempty"`
	Devices []deviceJSON `json:"devices,omitempty"`
}

type deviceJSON struct {
	ID             string   `json:"id"`
	Name           string   `json:"name"`
	Vendor         string   `json:"vendor"`
	Platform       string   `json:"platform"`
	Driver         string   `json:"driver"`
	ComputeUnits   int      `json:"compute_units"`
	ClockMHz       int      `json:"clock_mhz"`
	GlobalMemBytes int64    `json:"global_mem_bytes"`
	LocalMemBytes  int64    `json:"local_mem_bytes"`
	MaxAllocBytes  int64    `json:"max_alloc_bytes"`
	MaxGroupSize   int64    `json:"max_group_size"`
	MaxGroupDims   [3]int64 `json:"max_group_dims"`
	Float64        bool     `json:"float64"`
}

// listDevices prints the runtimes' devices, and fails (exit 1) when no
// runtime answered.
func listDevices(w io.Writer, runtimes []devices.Runtime, asJSON bool) error {
	found := 0
	var out []runtimeJSON
	for _, r := range runtimes {
		rj := runtimeJSON{Backend: string(r.Backend)}
		if r.Err != nil {
			rj.Error = r.Err.Error()
		} else {
			rj.Version = r.Runtime.Version()
			for _, d := range r.Runtime.Devices() {
				rj.Devices = append(rj.Devices, deviceToJSON(d))
			}
			found += len(rj.Devices)
		}
		out = append(out, rj)
	}
	var err error
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		err = enc.Encode(out)
	} else {
		err = printDeviceTable(w, out)
	}
	if err != nil {
		return systemFailure(err)
	}
	if found == 0 {
		return systemFailure(devices.ErrNoRuntime)
	}
	return nil
}

func deviceToJSON(d gpu.Info) deviceJSON {
	return deviceJSON{
		ID: d.ID(), Name: d.Name, Vendor: d.Vendor, Platform: d.Platform, Driver: d.Driver,
		ComputeUnits: d.ComputeUnits, ClockMHz: d.ClockMHz,
		GlobalMemBytes: d.GlobalMemBytes, LocalMemBytes: d.LocalMemBytes,
		MaxAllocBytes: d.MaxAllocBytes, MaxGroupSize: d.MaxGroupSize,
		MaxGroupDims: d.MaxGroupDims, Float64: d.Float64,
	}
}

func printDeviceTable(w io.Writer, runtimes []runtimeJSON) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tDRIVER\tUNITS\tCLOCK\tGLOBAL MEM\tLOCAL MEM\tMAX ALLOC\tMAX GROUP\tF64")
	for _, r := range runtimes {
		for _, d := range r.Devices {
			f64 := "no"
			if d.Float64 {
				f64 = "yes"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d MHz\t%s\t%s\t%s\t%d\t%s\n", d.ID, d.Name, d.Driver, d.ComputeUnits,
				d.ClockMHz, byteSize(d.GlobalMemBytes), byteSize(d.LocalMemBytes), byteSize(d.MaxAllocBytes), d.MaxGroupSize, f64)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range runtimes {
		if r.Error != "" {
			fmt.Fprintln(w, r.Error)
		}
	}
	return nil
}

// byteSize renders a memory size in binary units.
func byteSize(b int64) string {
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%d B", b)
	}
	v, i := float64(b), -1
	for v >= unit && i < 3 {
		v /= unit
		i++
	}
	return fmt.Sprintf("%.1f %ciB", v, "KMGT"[i])
}
