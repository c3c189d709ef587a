package counts

import (
	"fmt"
	"maps"
	"reflect"
	"sync"
	"testing"

	"github.com/uniperf/uniperf/measurekernels/library"
)

// TestKernelTextReuse parses each library kernel's text, lexed once,
// with every binding of its consts the plan and count checks use and
// one with a const of 0 (which some kernels refuse), in turn and then
// all at once, and checks each kernel (or error) against the text
// lexed afresh for that binding alone, as ParseKernel did before texts
// were shared: sharing one text leaks nothing from one binding to
// another.
func TestKernelTextReuse(t *testing.T) {
	bindings := map[string][]map[string]int64{}
	for _, c := range append(planChecks(), countChecks()...) {
		bindings[c.kernel] = append(bindings[c.kernel], c.consts)
		for name := range c.consts {
			zero := maps.Clone(c.consts)
			zero[name] = 0
			bindings[c.kernel] = append(bindings[c.kernel], zero)
			break
		}
	}
	for _, name := range library.Names() {
		bindings[name] = append(bindings[name], nil)
	}
	for name, list := range bindings {
		src, err := library.Source(name)
		if err != nil {
			t.Fatal(err)
		}
		file := library.FileName(name)
		fresh := func(consts map[string]int64) (*Kernel, error) {
			text, err := LexKernel(file, src)
			if err != nil {
				return nil, err
			}
			return text.Parse(consts)
		}
		shared, err := LexKernel(file, src)
		if err != nil {
			t.Fatal(err)
		}
		check := func(consts map[string]int64) error {
			got, gerr := shared.Parse(consts)
			want, werr := fresh(consts)
			if fmt.Sprint(gerr) != fmt.Sprint(werr) {
				return fmt.Errorf("%s %v: error %v, want %v", name, consts, gerr, werr)
			}
			if !reflect.DeepEqual(got, want) {
				return fmt.Errorf("%s %v: the kernel parsed from the shared text differs from the one parsed afresh", name, consts)
			}
			return nil
		}
		for _, consts := range list {
			if err := check(consts); err != nil {
				t.Error(err)
			}
		}
		errs := make([]error, len(list))
		var wg sync.WaitGroup
		for i, consts := range list {
			wg.Go(func() { errs[i] = check(consts) })
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Error(err)
			}
		}
	}
}
