package models

import (
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/datasets/inputfile"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/measurekernels/library"
)

// Source returns the .knl text of a kernel by name, and the file name to
// give in errors.
type Source func(name string) (file string, src []byte, err error)

// Library is the Source of uniperf's kernel library.
func Library(name string) (string, []byte, error) {
	src, err := library.Source(name)
	return name + ".knl", src, err
}

// Files is the Source that reads kernels from .knl files: a kernel's name
// is its path.
func Files(path string) (string, []byte, error) {
	src, err := inputfile.ReadText(path)
	return path, src, err
}

// Counter counts kernels by name, once per binding of their consts, and is
// safe for concurrent use. It classes local accesses by the bank
// conflicts of one bank layout.
type Counter struct {
	source Source
	banks  fit.BankLayout
	// at, when set, is the one binding of the parameters the kernels
	// are counted at (see NewCounterAt).
	at map[string]int64
	// shared holds what the bindings counted at at share: the counts
	// of the parts of their sets and their local accesses' bank-conflict
	// classes (see counts.Shared).
	shared *counts.Shared
	mu     sync.Mutex
	cache  map[string]*counted
	// sources holds each kernel's source by name, read and lexed once:
	// every binding of its consts parses it.
	sources sync.Map
	// inputs caches Inputs by case (see Env.Inputs): every model, every
	// fold of a cross-validation and every device whose tables share
	// the counter ask for the same rows, each evaluating the counts and
	// finding the launch grid.
	inputs sync.Map
}

type sourced struct {
	once sync.Once
	text *counts.KernelText
	err  error
}

// read returns the source of kernel name, read and lexed once.
func (c *Counter) read(name string) (*counts.KernelText, error) {
	v, _ := c.sources.LoadOrStore(name, &sourced{})
	s := v.(*sourced)
	s.once.Do(func() {
		file, src, err := c.source(name)
		if err != nil {
			s.err = fmt.Errorf("kernel %s: no .knl description: %w", name, err)
			return
		}
		s.text, s.err = counts.LexKernel(file, src)
	})
	return s.text, s.err
}

type counted struct {
	once sync.Once
	c    *counts.Counted
	err  error
}

// NewCounter returns a Counter of the kernels source provides, nil
// meaning uniperf's kernel library, that counts bank conflicts with
// DefaultBanks.
func NewCounter(source Source) *Counter { return NewCounterWith(source, DefaultBanks) }

// NewCounterWith returns a Counter of the kernels source provides, nil
// meaning uniperf's kernel library, that counts bank conflicts with the
// layout banks (see DeviceBanks and WeightsBanks). An invalid layout is
// an error of every count.
func NewCounterWith(source Source, banks fit.BankLayout) *Counter {
	if source == nil {
		source = Library
	}
	return &Counter{source: source, banks: banks, cache: map[string]*counted{}}
}

// NewCounterAt returns a Counter like NewCounterWith's that counts every
// kernel at the parameters params only (counts.CountWithAt): Counts at
// params are NewCounterWith's, several times faster to count, and at any
// other parameters an error. It suits many bindings of a kernel's consts
// predicted at one size, as tune predicts a space.
func NewCounterAt(source Source, banks fit.BankLayout, params map[string]int64) *Counter {
	c := NewCounterWith(source, banks)
	c.at = maps.Clone(params)
	c.shared = counts.NewShared()
	return c
}

// Banks returns the bank layout the Counter counts with.
func (c *Counter) Banks() fit.BankLayout { return c.banks }

// CheckBanks returns an error unless the counter counts with the layout
// the weights were fitted with: a prediction adds weights to counts, and
// the local.<t>.conflict=D counts of another layout are other numbers.
func CheckBanks(w *fit.Weights, c *Counter) error {
	if want := WeightsBanks(w); c.Banks() != want {
		return fmt.Errorf("the weights for %s were fitted on counts of local memory in %s, and the kernels are counted with %s", w.Device, want, c.Banks())
	}
	return nil
}

// Kernel returns the symbolic counts of kernel name with its consts bound.
func (c *Counter) Kernel(name string, consts map[string]int64) (*counts.Counted, error) {
	key := name + constString(consts)
	c.mu.Lock()
	e, ok := c.cache[key]
	if !ok {
		e = &counted{}
		c.cache[key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() {
		text, err := c.read(name)
		if err != nil {
			e.err = err
			return
		}
		k, err := text.Parse(consts)
		if err != nil {
			e.err = err
			return
		}
		opts := counts.Options{Banks: c.banks.Banks, BankBytes: c.banks.BankBytes, Shared: c.shared}
		if c.at != nil {
			e.c, e.err = counts.CountWithAt(k, opts, c.at)
			return
		}
		e.c, e.err = counts.CountWith(k, opts)
	})
	return e.c, e.err
}

// Forget drops the counts of kernel name with consts from the cache, so
// that a caller that predicts each binding once (tune ranking a space)
// keeps the memory of the bindings under way only. A later call counts
// them again.
func (c *Counter) Forget(name string, consts map[string]int64) {
	c.mu.Lock()
	delete(c.cache, name+constString(consts))
	c.mu.Unlock()
	// The inputs of the binding's cases go too (Env.Inputs): they hold
	// its kernel and counts.
	prefix := caseKey(name, consts, nil)
	c.inputs.Range(func(k, _ any) bool {
		if strings.HasPrefix(k.(string), prefix) {
			c.inputs.Delete(k)
		}
		return true
	})
}

// ForgetSource drops the source of kernel name that the counter has
// read and lexed, so that a caller that reads many kernels once each
// (tune of a C source, where each configuration whose tunables an #if
// reads is a kernel of its own) keeps the memory of the kernels under
// way only. A later call reads it again.
func (c *Counter) ForgetSource(name string) {
	c.sources.Delete(name)
}

// Counts returns the exact non-zero property counts of kernel name with
// consts bound, at params.
func (c *Counter) Counts(name string, consts, params map[string]int64) (map[string]int64, error) {
	k, err := c.Kernel(name, consts)
	if err != nil {
		return nil, err
	}
	v, err := k.Eval(params)
	if err != nil {
		return nil, fmt.Errorf("kernel %s at %s: %w", name, ParamString(params), err)
	}
	return v, nil
}

// Prepare counts the distinct kernels (with their consts) of rows on
// every CPU at once, so that later calls find them counted.
func (c *Counter) Prepare(rows []Row) {
	distinct := map[string]Row{}
	for _, r := range rows {
		distinct[r.Kernel+constString(r.Consts)] = r
	}
	jobs := make(chan Row)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range jobs {
				// The error is cached; the caller meets it again.
				_, _ = c.Kernel(r.Kernel, r.Consts)
			}
		}()
	}
	for _, k := range slices.Sorted(maps.Keys(distinct)) {
		jobs <- distinct[k]
	}
	close(jobs)
	wg.Wait()
}

// caseKey identifies a case, kernel, consts and params in name order; a
// binding's cases share the key of its consts with no params as their
// prefix.
func caseKey(kernel string, consts, params map[string]int64) string {
	var b strings.Builder
	b.WriteString(kernel)
	for _, m := range []map[string]int64{consts, params} {
		b.WriteByte('|')
		for _, name := range slices.Sorted(maps.Keys(m)) {
			fmt.Fprintf(&b, "%s=%d,", name, m[name])
		}
	}
	return b.String()
}
