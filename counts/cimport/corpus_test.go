package cimport

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

var (
	sourceRe = regexp.MustCompile(`((?:OpenCL|Samples)/[^\s,]+\.(?:cl|cu)),\s+kernel\s+(\w+)`)
	constRe  = regexp.MustCompile(`(?m)^const (\w+) = (\d+)`)
	arrayRe  = regexp.MustCompile(`(?m)^array (\w+) \w+ \[([^\]]+)\]`)
)

// handPort parses examples/KNL.knl, the hand port, with consts.
func handPort(t *testing.T, knl string, consts map[string]int64) *counts.Kernel {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", knl+".knl"))
	if err != nil {
		t.Fatal(err)
	}
	k, err := counts.ParseKernel(knl+".knl", src, consts)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// corpusPort reads what a hand port of examples/ says of its original:
// the source and kernel its header cites, the work-group size its
// constants LX and LY (or TILE and ROWS) give, and its global arrays'
// extents, which are the host's; transpose.cu's host refuses a matrix
// whose sides are not multiples of the tile, which --assume says. It
// returns the original's file in testdata and the flags.
func corpusPort(t *testing.T, knl string) (string, []string, bool) {
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", knl+".knl"))
	if err != nil {
		t.Fatal(err)
	}
	var header []string
	for _, l := range strings.Split(string(src), "\n") {
		if !strings.HasPrefix(l, "#") {
			break
		}
		header = append(header, strings.TrimPrefix(l, "#"))
	}
	m := sourceRe.FindStringSubmatch(strings.Join(header, " "))
	if m == nil {
		return "", nil, false
	}
	file := filepath.Join("polybench", filepath.Base(m[1]))
	if strings.HasPrefix(m[1], "Samples") {
		file = filepath.Join("cuda-samples", filepath.Base(m[1]))
	}
	flags := []string{"--kernel", m[2]}
	consts := map[string]string{}
	for _, c := range constRe.FindAllStringSubmatch(string(src), -1) {
		consts[c[1]] = c[2]
	}
	switch {
	case consts["TILE"] != "" && consts["ROWS"] != "" && strings.HasSuffix(file, ".cu"):
		flags = append(flags, "-D", "TILE_DIM="+consts["TILE"], "-D", "BLOCK_ROWS="+consts["ROWS"],
			"--local", "TILE_DIM,BLOCK_ROWS", "--groups", "width/TILE_DIM,height/TILE_DIM",
			"--assume", "width % "+consts["TILE"]+" == 0 && height % "+consts["TILE"]+" == 0")
	case consts["LX"] != "" && consts["LY"] != "":
		flags = append(flags, "--local", consts["LX"]+","+consts["LY"])
	case consts["LX"] != "":
		flags = append(flags, "--local", consts["LX"])
	default:
		return "", nil, false
	}
	for _, a := range arrayRe.FindAllStringSubmatch(string(src), -1) {
		flags = append(flags, "--array", a[1]+"="+strings.ReplaceAll(a[2], ", ", "*"))
	}
	return file, flags, true
}

// portGlobal reads the launch of a hand port whose original has no
// guard around its body (conv3d's else runs on every work-item
// launched, so the import needs the grid): the extents of the inames
// split by LX and LY, 0 <= k < nk in its domain, which the host launches
// rounded up to whole groups, as --global. It returns nil where the port
// does not say them.
func portGlobal(src []byte) []string {
	var global []string
	for _, c := range []string{"LX", "LY"} {
		m := regexp.MustCompile(`(?m)^split (\w+) ` + c + ` `).FindSubmatch(src)
		if m == nil {
			break
		}
		ext := regexp.MustCompile(`\b0 <= ` + string(m[1]) + ` < (\w+)\b`).FindSubmatch(src)
		if ext == nil {
			return nil
		}
		global = append(global, string(ext[1]))
	}
	return global
}

// importAll imports with opts, giving the arrays the port does not
// declare (which the kernel does not use, or the port renamed) an
// extent of 1: extents change no count.
func importAll(file string, src []byte, opts Options) (*Result, error) {
	missing := regexp.MustCompile(`the extent of array (\w+) is not in the source`)
	for {
		r, err := Import(file, src, opts)
		m := missing.FindStringSubmatch(fmt.Sprint(err))
		if m == nil || opts.Arrays[m[1]] != "" {
			return r, err
		}
		opts.Arrays[m[1]] = "1"
	}
}

// importCorpus imports with opts, and again with the hand port's launch
// as --global where the original has no guard to bound the grid
// (conv3d).
func importCorpus(file string, src, handSrc []byte, opts Options) (*Result, error) {
	r, err := importAll(file, src, opts)
	if global := portGlobal(handSrc); err != nil && strings.Contains(err.Error(), "the number of work-groups along axis") && global != nil {
		opts.Global = global
		r, err = importAll(file, src, opts)
	}
	return r, err
}

// corpusEqual are the hand ports whose originals import unedited with
// counts equal to the port's (36 of PolyBench-ACC, 6 of cuda-samples).
// The others the test reads are logged.
var corpusEqual = []string{"adi1", "adi3", "adi4", "adi6", "atax1", "atax2", "conv2d", "conv3d", "correlation2", "correlation3", "correlation4", "covariance1",
	"covariance2", "covariance3", "doitgen1", "doitgen2", "fdtd2d1", "fdtd2d2", "fdtd2d3", "gemver1", "gemver2", "gemver3", "gesummv", "gramschmidt1",
	"gramschmidt2", "gramschmidt3", "jacobi1d1", "jacobi1d2", "lu1", "lu2", "mm2_1", "mm2_2", "mm3_1", "mvt1", "mvt2", "syr2k",
	"transpose_coalesced", "transpose_coarsegrained", "transpose_copy", "transpose_copyshared", "transpose_finegrained",
	"transpose_naive"}

// TestCorpusCountsAsHandPorts imports, unedited, the original of every
// hand port of examples/ whose header cites a PolyBench-ACC OpenCL file
// (or cuda-samples' transpose.cu) and gives the work-group size as LX
// and LY (TILE and ROWS), with the flags the port implies, and checks
// that the counts equal the port's at two sizes for those of
// corpusEqual.
// Floating-point arguments are given values (scalar arguments with a
// value): their values change no count.
func TestCorpusCountsAsHandPorts(t *testing.T) {
	files, _ := filepath.Glob("../../examples/*.knl")
	var same []string
	report := func(knl, format string, args ...any) {
		if slices.Contains(corpusEqual, knl) {
			t.Errorf(knl+": "+format, args...)
		} else {
			t.Logf(knl+": "+format, args...)
		}
	}
	for _, f := range files {
		knl := strings.TrimSuffix(filepath.Base(f), ".knl")
		file, flags, ok := corpusPort(t, knl)
		if !ok {
			continue
		}
		src, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			report(knl, "%v", err)
			continue
		}
		opts, err := ParseFlags(flags)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{"alpha", "beta", "float_n"} {
			opts.Defines[s] = "3.0f"
		}
		handSrc, _ := os.ReadFile(f)
		r, err := importCorpus(file, src, handSrc, opts)
		if err != nil {
			report(knl, "%v", err)
			continue
		}
		got, err := counts.ParseKernel(knl+".knl", r.Knl, nil)
		if err != nil {
			t.Fatal(err)
		}
		hand, err := counts.ParseKernel(f, handSrc, nil)
		if err != nil {
			t.Fatal(err)
		}
		gc, err1 := counts.Count(got)
		hc, err2 := counts.Count(hand)
		if err1 != nil || err2 != nil {
			report(knl, "%v %v", err1, err2)
			continue
		}
		equal := true
		for _, v := range []int64{64, 96} {
			g, err1 := gc.Eval(sizes(got.Params, v))
			h, err2 := hc.Eval(sizes(hand.Params, v))
			if err1 != nil || err2 != nil || !maps.Equal(nonzero(g), nonzero(h)) {
				report(knl, "at %d: %v %v\nimported %v\nhand port %v", v, err1, err2, nonzero(g), nonzero(h))
				equal = false
			}
		}
		if equal {
			same = append(same, knl)
		}
	}
	slices.Sort(same)
	t.Logf("%d equal: %v", len(same), same)
}

// sizes gives every size parameter v, but the index of the row, column
// or plane a kernel works on (k of lu and gramschmidt, r of doitgen, i1
// of adi, i of conv3d), which must lie inside the matrix, and fdtd-2d's
// time step t, below tmax: 1.
func sizes(params []string, v int64) map[string]int64 {
	out := map[string]int64{}
	for _, p := range params {
		out[p] = v
		if p == "k" || p == "r" || p == "i1" || p == "t" || p == "i" {
			out[p] = 1
		}
	}
	return out
}
