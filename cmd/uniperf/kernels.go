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
	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/library"
	"github.com/uniperf/uniperf/measurekernels/suite"
)

var kernelsCmd = &cobra.Command{
	Use:   "kernels",
	Short: "List the kernel library and show generated sources",
	Long: `kernels inspects uniperf's kernel library: the measurement kernels of seed
001 §4.1 and the test kernels of §5, written in the .knl format and embedded
in the binary.

  uniperf kernels list    one line per kernel: name, class, role (measurement
                          kernels are fitted on, test kernels validate), size
                          parameters, and consts with their default values
                          (work-group sizes LX, LY; suites override them)
  uniperf kernels show    the OpenCL C or CUDA C source generated for a library
                          kernel or a .knl file of your own`,
	Example: `  uniperf kernels list
  uniperf kernels list --json
  uniperf kernels show matmul_tiled --lang cuda --const LX=32 --const LY=8
  uniperf kernels show ./mykernel.knl`,
}

var kernelsListJSON bool

var kernelsListCmd = &cobra.Command{
	Use:   "list",
	Short: "List the library's kernels with class, role, parameters and consts",
	Long: `list prints one line per library kernel: its name, its class and role in the
paper suite (measurement or test; for the memory-hierarchy classes, in the
opt-in hierarchy suite), its size parameters, and its consts with
their default values. With --json it prints a JSON array of objects with the
fields name, class, role, params and consts.`,
	Example: `  uniperf kernels list`,
	Args:    cobra.NoArgs,
	RunE: func(cmd *cobra.Command, _ []string) error {
		return listKernels(cmd.OutOrStdout(), kernelsListJSON)
	},
}

var (
	kernelsShowLang   string
	kernelsShowConsts []string
)

var kernelsShowCmd = &cobra.Command{
	Use:   "show KERNEL",
	Short: "Print the OpenCL C or CUDA C source generated for a kernel",
	Long: `show prints the source that uniperf generates, and measures, for KERNEL:
the name of a library kernel, or a .knl file of your own (a path ending in
.knl or containing a slash). OpenCL C by default, CUDA C with --lang cuda,
and with --lang knl the kernel itself, its consts at the values it is
generated with.
--const NAME=VALUE overrides one of the kernel's consts (work-group sizes
LX, LY, and STRIDE for vector_scale_add; see uniperf kernels list), as
suites do.

Exit status 2 for an unknown kernel, language or const, and for a kernel
file with errors (named by file, line and column).`,
	Example: `  uniperf kernels show global_copy
  uniperf kernels show finite_diff --lang cuda --const LX=32 --const LY=8
  uniperf kernels show ./mykernel.knl --const LX=64`,
	Args: cobra.ExactArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		return showKernel(cmd.OutOrStdout(), args[0], kernelsShowLang, kernelsShowConsts)
	},
}

func init() {
	kernelsListCmd.Flags().BoolVar(&kernelsListJSON, "json", false, "print JSON instead of a table")
	kernelsShowCmd.Flags().StringVar(&kernelsShowLang, "lang", "opencl", "language of the source: opencl, cuda, or knl for the kernel itself")
	kernelsShowCmd.Flags().StringArrayVar(&kernelsShowConsts, "const", nil, "const value NAME=VALUE (repeatable)")
	kernelsCmd.AddCommand(kernelsListCmd, kernelsShowCmd)
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
	// The opt-in hierarchy suite gives the classes the paper suite lacks.
	var entries []*suite.Kernel
	for _, name := range []string{"paper", "hierarchy"} {
		s, err := suite.Load(name)
		if err != nil {
			return nil, err
		}
		entries = append(entries, s.Kernels...)
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
		for _, e := range entries {
			if e.Kernel == name && info.Class == "-" {
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

// showKernel writes the source generated for kernel name (a library
// kernel or a .knl file) in language lang, with the const overrides given
// as NAME=VALUE.
func showKernel(w io.Writer, name, lang string, constFlags []string) error {
	var backend gpu.Backend
	switch lang {
	case "opencl":
		backend = gpu.OpenCL
	case "cuda":
		backend = gpu.CUDA
	case "knl":
	default:
		return fmt.Errorf("--lang %q: unknown language; want opencl, cuda or knl", lang)
	}
	consts, err := parseConsts(constFlags)
	if err != nil {
		return err
	}
	file, src, err := tableKernels(name)
	if err != nil {
		return fmt.Errorf("KERNEL %s: %w", name, err)
	}
	k, err := counts.ParseKernel(file, src, consts)
	if err != nil {
		return err
	}
	if lang == "knl" {
		_, err = io.WriteString(w, withConsts(string(src), literalConsts(k)))
		return err
	}
	code, err := codegen.Generate(k, backend)
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, code.Source)
	return err
}

// literalConsts maps the constants that name no other constant to their
// values: a derived one (const S = BS - 2*PH) keeps its expression, which
// follows the others.
func literalConsts(k *counts.Kernel) map[string]int64 {
	m := map[string]int64{}
	for _, c := range k.Consts {
		if c.Expr == "" {
			m[c.Name] = c.Value
		}
	}
	return m
}

// withConsts returns a kernel's text with each const declaration given
// the value the kernel was parsed with (its default, or an override).
func withConsts(src string, consts map[string]int64) string {
	lines := strings.SplitAfter(src, "\n")
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) >= 4 && f[0] == "const" && f[2] == "=" {
			if v, ok := consts[f[1]]; ok {
				lines[i] = fmt.Sprintf("const %s = %d\n", f[1], v)
			}
		}
	}
	return strings.Join(lines, "")
}
