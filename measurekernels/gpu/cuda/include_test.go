package cuda

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A source that includes cuda_fp16.h gets the include folder of the
// toolkit that $CUDA_HOME names (or $CUDA_PATH), where the header is;
// any other source, or a toolkit folder without the header, none.
func TestIncludeOptions(t *testing.T) {
	home, path := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(path, "include"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(path, "include", "cuda_fp16.h"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CUDA_HOME", home) // no header there
	t.Setenv("CUDA_PATH", path)
	const halves = "#include <cuda_fp16.h>\nextern \"C\" __global__ void k(__half *a) {}\n"
	want := []string{"--include-path=" + filepath.Join(path, "include")}
	if got := includeOptions(halves); !slices.Equal(got, want) {
		t.Errorf("with the header under $CUDA_PATH: %q, want %q", got, want)
	}
	if got := includeOptions(axpySource); got != nil {
		t.Errorf("a source without halves: %q, want no options", got)
	}
}
