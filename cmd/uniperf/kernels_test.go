package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestKernelsList(t *testing.T) {
	var out bytes.Buffer
	kernelsListCmd.SetOut(&out)
	t.Cleanup(func() { kernelsListCmd.SetOut(nil); kernelsListJSON = false })
	if code := run([]string{"kernels", "list"}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) < 26 || !strings.HasPrefix(lines[0], "KERNEL") {
		t.Fatalf("listing:\n%s", out.String())
	}
	found := false
	for _, l := range lines {
		f := strings.Fields(l)
		if f[0] == "matmul_tiled" {
			found = true
			if f[1] != "matmul_tiled" || f[2] != "measurement" || f[3] != "n,m,ell" || f[4] != "LX=16,LY=16" {
				t.Errorf("matmul_tiled line %q", l)
			}
		}
	}
	if !found {
		t.Error("matmul_tiled not listed")
	}

	out.Reset()
	if code := run([]string{"kernels", "list", "--json"}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	var infos []kernelInfo
	if err := json.Unmarshal(out.Bytes(), &infos); err != nil {
		t.Fatal(err)
	}
	tests := 0
	for _, k := range infos {
		if k.Role == "test" {
			tests++
		}
	}
	if tests != 4 {
		t.Errorf("%d test kernels, seed 001 §5 has 4", tests)
	}
}
