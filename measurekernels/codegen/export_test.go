package codegen

import (
	"fmt"
	"strings"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/gpu"
)

// HandDomain answers code generation's polyhedral questions from tables
// derived by hand, so that the emitter can be tested on its own. Keys are
// "iname" for Min, "iname|fixed,..." for Loop and "inames,...|known,..."
// for Member; a question without an answer is an error.
type HandDomain struct {
	Min    map[string]string
	Loop   map[string][3]string // lo, hi, guard
	Member map[string]string
}

func (h HandDomain) min(iname string) (string, error) {
	if v, ok := h.Min[iname]; ok {
		return v, nil
	}
	return "", fmt.Errorf("no hand answer for min %s", iname)
}

func (h HandDomain) loop(iname string, fixed []string) (string, string, string, error) {
	key := iname + "|" + strings.Join(fixed, ",")
	if v, ok := h.Loop[key]; ok {
		return v[0], v[1], v[2], nil
	}
	return "", "", "", fmt.Errorf("no hand answer for loop %s", key)
}

func (h HandDomain) member(inames, known []string) (string, error) {
	key := strings.Join(inames, ",") + "|" + strings.Join(known, ",")
	if v, ok := h.Member[key]; ok {
		return v, nil
	}
	return "", fmt.Errorf("no hand answer for member %s", key)
}

// GenerateWith generates k with a hand-made domain.
func GenerateWith(k *counts.Kernel, b gpu.Backend, dom HandDomain) (*Code, error) {
	return generate(k, b, dom)
}
