package cimport

import (
	"maps"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// An imported tile load whose edge blocks read past the image, into the
// (h + 16) x (w + 16) floats its comment says the host allocates, is
// counted whole and runs: by hand, at h = 37, w = 21 there are 3 x 2
// groups of 256 work-items, each loading one element (1536 loads and
// local stores) and h*w = 777 of them storing one; the interpreter
// reads the NaN padding and stores twice the image, as Go computes.
// Its loads, rows w + 16 apart, split into rows symbolically for the
// memory-hierarchy counts: each group's 16 x 16 tile is its own 1024
// bytes of in, the stores h*w floats of out, none loaded twice.
func TestEdgeTileImports(t *testing.T) {
	k := importOwn(t, "edgetile.cu")
	c, err := counts.Count(k)
	if err != nil {
		t.Fatal(err)
	}
	const h, w = 37, 21
	params := map[string]int64{"h": h, "w": w}
	if err := c.CheckBounds(params); err != nil {
		t.Fatal(err)
	}
	got, err := c.Eval(params)
	if err != nil {
		t.Fatal(err)
	}
	for prop, want := range map[string]int64{
		"global.load.f32.stride=1": 1536, "local.store.f32": 1536, "sync.barrier": 1536,
		"global.store.f32.stride=1": h * w, "local.load.f32": h * w, "flop.f32.mul": h * w, "launch.groups": 6,
	} {
		if got[prop] != want {
			t.Errorf("%s = %d, want %d", prop, got[prop], want)
		}
	}
	if _, err := c.Hierarchy(); err != nil {
		t.Fatalf("no symbolic hierarchy counts: %v", err)
	}
	hier, _, err := hierarchyAt(t, k, params)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]int64{
		"global.footprint.launch.bytes in": 6 * 1024, "global.footprint.group.bytes in": 6 * 1024, "global.load.reuse.workitem in": 0,
		"global.footprint.launch.bytes out": 4 * h * w, "global.footprint.group.bytes out": 4 * h * w,
		"global.footprint.launch.bytes": 6*1024 + 4*h*w, "global.footprint.group.bytes": 6*1024 + 4*h*w, "global.load.reuse.workitem": 0,
	}; !maps.Equal(hier, want) {
		t.Errorf("memory hierarchy %v, want %v", hier, want)
	}
	in := make([]float32, (h+16)*(w+16))
	for i := range in {
		in[i] = float32(math.NaN())
		if y, x := i/(w+16), i%(w+16); y < h && x < w {
			in[i] = float32(y*7+x%5) - 3.5
		}
	}
	out := make([]float32, h*w)
	if _, err := counts.Run(k, params, map[string]any{"in": in, "out": out}, nil); err != nil {
		t.Fatal(err)
	}
	for y := range h {
		for x := range w {
			if want := 2 * in[y*(w+16)+x]; out[y*w+x] != want {
				t.Errorf("out[%d, %d] = %v, want %v", y, x, out[y*w+x], want)
			}
		}
	}
}

// Where the comment declares only the image with its pitch, h*(w + 16)
// floats, the edge rows' loads reach past it, and the refusal says
// which elements and the flag to write: at h = 37, w = 21 the last
// group row reads rows 32..47, up to element 47*37 + 31 = 1770, past an
// extent of 37*37 = 1369.
func TestEdgeTileExtentTooSmall(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "own", "edgetile.cu"))
	if err != nil {
		t.Fatal(err)
	}
	small := strings.Replace(string(src), "--array in=(h+16)*(w+16)", "--array in=h*(w+16)", 1)
	r, err := Import("edgetile.cu", []byte(small), Options{})
	if err != nil {
		t.Fatal(err)
	}
	k, err := counts.ParseKernel("edgetile.knl", r.Knl, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := counts.Count(k)
	if err != nil {
		t.Fatal(err)
	}
	err = c.CheckBounds(map[string]int64{"h": 37, "w": 21})
	for _, want := range []string{"is out of bounds at h=37, w=21", "and in has extent 1369 there, so it reaches 1369..1770 past the end",
		"declare the extent the host allocates, at least 1771", "--array in=EXTENT, or // uniperf: --array in=EXTENT in the source"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want it to say %q", err, want)
		}
	}
}
