package cuda

import (
	"os"
	"path/filepath"
	"strings"
)

// includeOptions lets NVRTC find cuda_fp16.h, which generated kernels of
// halves include: NVRTC searches no toolkit folder of its own accord. The
// first of $CUDA_HOME/include, $CUDA_PATH/include and
// /usr/local/cuda/include that holds the header becomes an
// --include-path option; a source that does not include it gets none, so
// that no other kernel's compilation changes.
func includeOptions(source string) []string {
	if !strings.Contains(source, "#include <cuda_fp16.h>") {
		return nil
	}
	for _, dir := range []string{os.Getenv("CUDA_HOME"), os.Getenv("CUDA_PATH"), "/usr/local/cuda"} {
		if dir == "" {
			continue
		}
		inc := filepath.Join(dir, "include")
		if _, err := os.Stat(filepath.Join(inc, "cuda_fp16.h")); err == nil {
			return []string{"--include-path=" + inc}
		}
	}
	return nil
}
