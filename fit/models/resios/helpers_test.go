package resios

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
)

// knlEnv writes kernels into a temporary directory and returns an Env
// that reads .knl files, with the paths by name.
func knlEnv(t *testing.T, dev *gpus.Device, kernels map[string]string) (*models.Env, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	paths := map[string]string{}
	for name, src := range kernels {
		p := filepath.Join(dir, name+".knl")
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		paths[name] = p
	}
	return &models.Env{Counter: models.NewCounter(models.Files), Device: dev}, paths
}
