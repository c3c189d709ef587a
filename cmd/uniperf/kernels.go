package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/library"
	"github.com/uniperf/uniperf/measurekernels/suite"
)

var kernelsCmd = &cobra.Command{
	Use:   "kernels",
	Short: "List the kernel library",
	Long: `kernels inspects uniperf's kernel library: the measurement kernels of seed
001 §4.1 and the test kernels of §5, written in the .knl format and embedded
in the binary.

  uniperf kernels list    one line per kernel: name, class, role (measurement
                          kernels are fitted on, test kernels validate), size
                          parameters, and consts with their default values
                          (work-group sizes LX, LY; suites override them)`,
	Example: `  uniperf kernels list
  uniperf kernels list --json`,
}

var kernelsListJSON bool

var kernelsListCmd = &cobra.Command{
	Use:   "list",
	Short: "List the library's kernels with class, role, parameters and consts",
	Long: `list prints one line per library kernel: its name, its class and role in the
paper suite (measurement or test), its size parameters, and its consts with
their default values. With --json it prints a JSON array of objects with the
fields name, class, role, params and consts.`,
	Example: `  uniperf kernels list`,
	Args:    cobra.NoArgs,
	RunE: func(cmd *cobra.Command, _ []string) error {
		return listKernels(cmd.OutOrStdout(), kernelsListJSON)
	},
}

func init() {
	kernelsListCmd.Flags().BoolVar(&kernelsListJSON, "json", false, "print JSON instead of a table")
	kernelsCmd.AddCommand(kernelsListCmd)
	rootCmd.AddCommand(kernelsCmd)
}

// kernelInfo is one line of `uniperf kernels list`.
type kernelInfo struct {
	Name   string           `json:"name"`
	Class  string           `json:"class"`
	Role   string           `json:"role"`
	Params []string         `json:"params"`
	Consts map[string]int64 `json:"consts"`
}

func libraryKernels() ([]kernelInfo, error) {
	paper, err := suite.Load("paper")
	if err != nil {
		return nil, err
	}
	var out []kernelInfo
	for _, name := range library.Names() {
		src, err := library.Source(name)
		if err != nil {
			return nil, err
		}
		k, err := counts.ParseKernel(library.FileName(name), src, nil)
		if err != nil {
			return nil, err
		}
		info := kernelInfo{Name: name, Class: "-", Role: "-", Params: k.Params, Consts: k.ConstMap()}
		for _, e := range paper.Kernels {
			if e.Kernel == name {
				info.Class, info.Role = e.Class, e.Role
			}
		}
		out = append(out, info)
	}
	return out, nil
}

func listKernels(w io.Writer, asJSON bool) error {
	infos, err := libraryKernels()
	if err != nil {
		return systemFailure(err)
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(infos)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KERNEL\tCLASS\tROLE\tPARAMS\tCONSTS")
	for _, k := range infos {
		consts := make([]string, 0, len(k.Consts))
		for _, c := range slices.Sorted(maps.Keys(k.Consts)) {
			consts = append(consts, fmt.Sprintf("%s=%d", c, k.Consts[c]))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", k.Name, k.Class, k.Role, strings.Join(k.Params, ","), strings.Join(consts, ","))
	}
	return tw.Flush()
}
