package codegen

import (
	"fmt"
	"strings"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/gpu"
)

// HandDomain answers code generation's polyhedral questions from tables
// derived by hand, so that the emitter can be tested on its own. Keys are
// "iname" for Base, "iname|known,..." for Loop (guard, lo, hi, filter) and
// "inames,...|known,..." for Member; a question without an answer is an
// error.
type HandDomain struct {
	Base   map[string]string
	Loop   map[string][4]string
	Member map[string]string
}

func (h HandDomain) base(iname string) ([]string, string, error) {
	if v, ok := h.Base[iname]; ok {
		return nil, v, nil
	}
	return nil, "", fmt.Errorf("no hand answer for the base of %s", iname)
}

// loop answers for known alone: bounds that hold for every work-item
// serve whatever lanes are known too.
func (h HandDomain) loop(iname string, known, _ []string) (loopBounds, error) {
	key := iname + "|" + strings.Join(known, ",")
	if v, ok := h.Loop[key]; ok {
		return loopBounds{guard: v[0], lo: v[1], hi: v[2], filter: v[3]}, nil
	}
	return loopBounds{}, fmt.Errorf("no hand answer for loop %s", key)
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
