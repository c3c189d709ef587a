// Command campaign re-runs the hostile-input campaign of issue 45 against a
// uniperf binary, with inputs generated afresh from a seed: every family of
// the issue (outputs equal or linked to inputs, resume per suite, the
// runtime crashes, unbounded-time inputs, exit-code cases, byte-flipped
// tables, --max-input), each command line in a process of its own. It
// records each run's exit status, wall time and peak resident memory
// (getrusage's ru_maxrss of the child) and prints the runs by exit status,
// per family and in all, the slowest and the biggest runs, and every
// defect: an exit status the case does not allow, a panic's text, a run
// over 10 s or 2 GB, an input changed. A run over 3 s is run again, and
// both times are printed with its CPU time (user and system): on a loaded
// machine the wall time says little, and a run counts as over 10 s only
// where both runs and its CPU time are.
//
// It lives in testdata so that go build ./... and go test ./... leave it
// out; run it from the repository root:
//
//	go build -o bin/uniperf ./cmd/uniperf
//	nice -n 10 go run ./cmd/uniperf/testdata/campaign -bin bin/uniperf
//
// -seed picks the inputs (default: the time), -flips the byte flips per
// command, -pocl=false leaves out the families that need an OpenCL device
// (resume, the kernels timed on PoCL), -dir keeps the inputs. Its exit
// status is 1 when it found a defect.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/measurekernels/suite"
)

// Bounds of the issue: no run over 10 s or 2 GB; a run over reconfirm
// seconds is timed again alone.
const (
	maxWall   = 10 * time.Second
	maxRSS    = 2 << 30
	reconfirm = 3 * time.Second
	// killAfter ends a run that would never end.
	killAfter = 120 * time.Second
)

// A run is one command line and what it may do.
type run struct {
	family string
	args   []string
	codes  []int         // exit statuses allowed
	check  func() string // after the run: what is wrong, or ""
	stdout string        // "closed": a pipe closed before the run
	kill   time.Duration // SIGKILL the run after this long, where not 0
	// result
	code   int
	wall   time.Duration
	again  time.Duration // the re-run alone, where wall > reconfirm
	cpu    time.Duration // user and system time (the smaller of the two runs)
	rss    int64
	stderr string
	out    []byte
}

type campaign struct {
	bin  string
	dir  string
	r    *rand.Rand
	runs []*run
}

func main() {
	bin := flag.String("bin", "bin/uniperf", "uniperf binary to run")
	seed := flag.Uint64("seed", uint64(time.Now().UnixNano()), "seed of the generated inputs")
	flips := flag.Int("flips", 60, "byte flips per command of the flipped-table family")
	pocl := flag.Bool("pocl", true, "run the families that need an OpenCL device")
	dir := flag.String("dir", "", "directory for the inputs (default: a temporary one, removed)")
	flag.Parse()
	c := &campaign{bin: *bin, dir: *dir, r: rand.New(rand.NewPCG(*seed, 45))}
	if c.dir == "" {
		d, err := os.MkdirTemp("", "campaign45-")
		fatal(err)
		defer os.RemoveAll(d)
		c.dir = d
	}
	abs, err := filepath.Abs(c.bin)
	fatal(err)
	c.bin = abs
	fmt.Printf("campaign: seed %d, binary %s, inputs in %s\n", *seed, c.bin, c.dir)

	table, tableBytes := c.freshTable("T.arrow")
	weights := c.path("W.arrow")
	c.mustRun("fit", table, "--out", weights)
	c.outputs(table, tableBytes, weights)
	c.crashes(table)
	c.unbounded()
	c.exitCodes(table, weights, *pocl)
	c.flipped(tableBytes, *flips)
	c.maxInput()
	if *pocl {
		c.resume()
	}
	defects := c.runAll()
	c.report(defects)
	if len(defects) > 0 {
		os.Exit(1)
	}
}

func fatal(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "campaign:", err)
		os.Exit(3)
	}
}

func (c *campaign) path(name string) string { return filepath.Join(c.dir, name) }

func (c *campaign) write(name string, data []byte) string {
	p := c.path(name)
	fatal(os.WriteFile(p, data, 0o644))
	return p
}

func (c *campaign) add(family string, codes []int, args ...string) *run {
	r := &run{family: family, args: args, codes: codes}
	c.runs = append(c.runs, r)
	return r
}

// mustRun runs a setup command, which must succeed.
func (c *campaign) mustRun(args ...string) {
	out, err := exec.Command(c.bin, args...).CombinedOutput()
	if err != nil {
		fatal(fmt.Errorf("setup: uniperf %s: %v: %s", strings.Join(args, " "), err, out))
	}
}

// freshTable writes a table of a random two thirds of the shipped quick
// table's rows, as uniperf writes tables now (with a checksum).
func (c *campaign) freshTable(name string) (string, []byte) {
	shipped, err := datasets.ShippedBytes("pocl-epyc-quick.arrow")
	fatal(err)
	t, err := datasets.Decode("shipped", shipped)
	fatal(err)
	var rows []datasets.Row
	for _, row := range t.Rows {
		if c.r.IntN(3) > 0 {
			rows = append(rows, row)
		}
	}
	t.Rows = rows
	p := c.path(name)
	fatal(datasets.WriteFile(p, t))
	data, err := os.ReadFile(p)
	fatal(err)
	return p, data
}

// unchanged checks after a run that the files hold what they held.
func unchanged(paths ...string) func() string {
	before := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		fatal(err)
		before[p] = b
	}
	return func() string {
		for _, p := range paths {
			if b, err := os.ReadFile(p); err != nil || !bytes.Equal(b, before[p]) {
				return fmt.Sprintf("%s changed (%v)", p, err)
			}
		}
		return ""
	}
}

// outputs: an output that is an input, through any link, or another output.
func (c *campaign) outputs(table string, tableBytes []byte, weights string) {
	hard, sym := c.path("hard.arrow"), c.path("sym.arrow")
	fatal(os.Link(table, hard))
	fatal(os.Symlink(table, sym))
	respelt := c.dir + "/./T.arrow"
	report := c.path("report.md")
	two := []int{2}
	for _, args := range [][]string{
		{"fit", table, "--out", table},
		{"fit", table, "--out", hard},
		{"fit", sym, "--out", table},
		{"fit", table, "--out", respelt},
		{"fit", table, "--model", "hongkim", "--out", sym},
		{"table", table, "--format", "csv", "--out", table},
		{"table", table, "--format", "parquet", "--out", hard},
		{"validate", "--weights", weights, table, "--warn-share", "1", "--plot", table},
		{"validate", "--weights", weights, table, "--warn-share", "1", "--plot", weights},
		{"export", weights, "--out", weights},
		{"export", weights, "--plot", weights},
		{"predict", "--weights", weights, "global_copy", "--param", "n=1024,2048", "--warn-share", "1", "--plot", weights},
		{"compare", table, "--out", table},
		{"compare", table, "--plot", hard},
		{"compare", table, "--out", report, "--plot", report},
		{"table", table, "--format", "csv", "--out", "/dev/stdout"},
		{"fit", table, "--out", c.path("no-such-dir/W.arrow")},
	} {
		r := c.add("outputs", two, args...)
		r.check = unchanged(table, weights)
	}
	last := c.runs[len(c.runs)-1]
	check := last.check
	last.check = func() string {
		if s := check(); s != "" {
			return s
		}
		if t, err := os.Readlink(sym); err != nil || t != table {
			return "the symbolic link was replaced"
		}
		if t, err := os.Readlink("/dev/stdout"); err != nil || t != "/proc/self/fd/1" {
			return "/dev/stdout was replaced"
		}
		if _, err := os.Stat(report); err == nil {
			return report + " was written"
		}
		return ""
	}
}

// deviceFile is gtx280.json with one field set to value.
func (c *campaign) deviceFile(i int, field, value string) string {
	dev, err := os.ReadFile("fit/gpus/devices/gtx280.json")
	fatal(err)
	s := string(dev)
	at := strings.Index(s, `"`+field+`":`)
	if at < 0 {
		fatal(fmt.Errorf("gtx280.json has no %s", field))
	}
	end := at + strings.IndexAny(s[at:], ",\n}")
	s = s[:at] + `"` + field + `": ` + value + s[end:]
	return c.write(fmt.Sprintf("dev%d.json", i), []byte(s))
}

const header = "kernel k\ndomain [n] -> { [i] : 0 <= i < n }\narray a f32 [n]\narray b f32 [n]\nsplit i 16 io ii\ntag ii l.0, io g.0\n"

// crashes: inputs that crashed the Go runtime (issue 45, 4 to 8).
func (c *campaign) crashes(table string) {
	two := []int{2}
	fields := []string{"shared_alloc_unit", "warp_alloc_granularity", "warp_size", "sm_count", "clock_hz", "issue_cycles", "reg_alloc_unit", "max_threads_per_sm", "shared_per_sm", "mem_ld", "mem_bandwidth_bytes_per_s", "max_blocks_per_sm", "regs_per_sm"}
	values := []string{"9223372036854775807", "-9223372036854775808", "0", "-1", "1e308", "-1e308", "4.9e-324"}
	for i := range 12 {
		f := c.deviceFile(i, fields[c.r.IntN(len(fields))], values[c.r.IntN(len(values))])
		c.add("crashes", []int{0, 2}, "blocksize", "global_copy", "--device-file", f, "--param", "n=1048576", "--model", "xu")
		if i < 4 {
			c.add("crashes", []int{0, 2}, "compare", table, "--device-file", f, "--models", "xu")
		}
	}
	depth := 100_000 + c.r.IntN(200_000)
	parens := c.write("parens.knl", []byte(header+"b[i] = "+strings.Repeat("(", depth)+"a[i]"+strings.Repeat(")", depth)+"\n"))
	c.add("crashes", two, "count", parens)
	c.add("crashes", two, "kernels", "show", parens)
	ifs := 4000 + c.r.IntN(8000)
	nested := c.write("ifs.knl", []byte(header+"b[i] = "+strings.Repeat("if(i > 0, ", ifs)+"a[i]"+strings.Repeat(", 0)", ifs)+"\n"))
	c.add("crashes", two, "count", nested, "--param", "n=10")
	dims := 800 + c.r.IntN(1200)
	c.add("crashes", two, "card", box(dims), "--max-pieces", "1")
	c.add("crashes", two, "card", box(dims))
	// One 20 MB class string in a 21 MB table.
	shipped, err := datasets.ShippedBytes("pocl-epyc-quick.arrow")
	fatal(err)
	t, err := datasets.Decode("shipped", shipped)
	fatal(err)
	t.Rows[c.r.IntN(len(t.Rows))].Class = strings.Repeat("x", 20<<20)
	long := c.path("long.arrow")
	fatal(datasets.WriteFile(long, t))
	c.add("crashes", []int{0, 2}, "table", long)
	c.add("crashes", []int{0, 2}, "table", long, "--format", "csv")
}

// box is the unit box in dims dimensions, as a set.
func box(dims int) string {
	names := make([]string, dims)
	for i := range names {
		names[i] = fmt.Sprintf("x%d", i)
	}
	return "{ [" + strings.Join(names, ", ") + "] : " + strings.Join(names, " >= 0 and ") + " >= 0 and " + strings.Join(names, " <= 1 and ") + " <= 1 }"
}

// point is one point in dims dimensions, as a set.
func point(dims int) string {
	names := make([]string, dims)
	eqs := make([]string, dims)
	for i := range names {
		names[i] = fmt.Sprintf("x%d", i)
		eqs[i] = fmt.Sprintf("x%d = %d", i, i%7)
	}
	return "{ [" + strings.Join(names, ", ") + "] : " + strings.Join(eqs, " and ") + " }"
}

// unbounded: inputs that ran without bound (default flags).
func (c *campaign) unbounded() {
	ok2 := []int{0, 2}
	m := []int{7 + c.r.IntN(5), 11 + c.r.IntN(5), 13 + c.r.IntN(5)}
	c.add("unbounded", ok2, "card", fmt.Sprintf("[n] -> { [a, b, c, d, e, f] : 0 <= a < n and 0 <= b <= a and 0 <= c <= b and 0 <= d < n and 0 <= e <= d and 0 <= f <= e and (a + b) mod %d = 1 and (c + d) mod %d = 2 and (e + f) mod %d = 3 }", m[0], m[1], m[2]), "--param", "n=1000")
	c.add("unbounded", ok2, "count", "matmul_tiled", "--max-pieces", "1", "--param", fmt.Sprintf("n=m=ell=%d", 90_000+c.r.IntN(20_000)))
	for _, d := range []int{1000, 2000} {
		c.add("unbounded", ok2, "card", point(d+c.r.IntN(50)))
	}
	blocks := 4000 + c.r.IntN(2000)
	c.add("unbounded", ok2, "count", c.write("blocks.knl", []byte(header+strings.Repeat("if i > 0\n", blocks)+"b[i] = a[i]\n"+strings.Repeat("end\n", blocks))))
	terms := make([]string, 80_000+c.r.IntN(40_000))
	for i := range terms {
		terms[i] = fmt.Sprintf("%d*a[i]", 1+c.r.IntN(9))
	}
	sum := c.write("sum.knl", []byte(header+"b[i] = "+strings.Join(terms, " + ")+"\n"))
	c.add("unbounded", ok2, "kernels", "show", sum)
	c.add("unbounded", ok2, "kernels", "show", sum, "--lang", "cuda")
	c.add("unbounded", ok2, "count", sum)
	var csv strings.Builder
	csv.WriteString("property,rate_unit,dev weight_s,dev rate,dev note\n")
	for i := range 150_000 + c.r.IntN(100_000) {
		fmt.Fprintf(&csv, "global.load.f32.stride=%d,GB/s,%g,,\n", i+2, 1e-10*(1+c.r.Float64()))
	}
	wide := c.write("wide.csv", []byte(csv.String()))
	c.add("unbounded", ok2, "export", wide)
	c.add("unbounded", ok2, "export", wide, "--format", "csv")
}

// exitCodes: bad input that blamed the device or the system.
func (c *campaign) exitCodes(table, weights string, pocl bool) {
	two := []int{2}
	shipped, err := datasets.ShippedBytes("pocl-epyc-quick.arrow")
	fatal(err)
	t, err := datasets.Decode("shipped", shipped)
	fatal(err)
	for i := range t.Rows {
		t.Rows[i].TimeS = math.MaxFloat64
		for j := range t.Rows[i].RawTimesS {
			t.Rows[i].RawTimesS[j] = math.MaxFloat64
		}
	}
	huge := c.path("huge.arrow")
	fatal(datasets.WriteFile(huge, t))
	c.add("exit codes", two, "fit", huge, "--out", c.path("hugeW.arrow"))
	zero := c.write("zero.csv", []byte("property,rate_unit,dev weight_s,dev rate,dev note\nglobal.load.f32.stride=1,GB/s,0,,\nlaunch.const,,0,,\n"))
	c.add("exit codes", two, "predict", "--weights", zero, "global_copy", "--param", "n=1024", "--json")
	c.add("exit codes", two, "predict", "--weights", zero, "global_copy", "--param", "n=1024")
	big := c.write("big.csv", []byte("property,rate_unit,dev weight_s,dev rate,dev note\nglobal.load.f32.stride=1,GB/s,1e308,,\nglobal.store.f32.stride=1,GB/s,1e308,,\nlaunch.const,,1e308,,\n"))
	c.add("exit codes", two, "predict", "--weights", big, "global_copy", "--param", "n=1048576", "--allow-unpriced")
	c.add("exit codes", two, "fit", table, "--model", "hongkim", "--device-file", c.deviceFile(100, "issue_cycles", "1e308"), "--out", c.path("hk.json"))
	c.add("exit codes", two, "table", "/etc/passwd/x.arrow")
	c.add("exit codes", two, "table", c.path(strings.Repeat("n", 300)+".arrow"))
	c.add("exit codes", two, "fit", table, "--out", "/etc/passwd/w.arrow")
	c.add("exit codes", two, "count", c.path("missing.knl"))
	r := c.add("exit codes", []int{141}, "table", table, "--format", "csv")
	r.stdout = "closed"
	empty := c.write("empty.knl", []byte("kernel k\ndomain [n] -> { [i] : 0 <= i < n - 100 }\narray a f32 [n]\narray b f32 [n]\nsplit i 16 io ii\ntag ii l.0, io g.0\nb[i] = a[i]\n"))
	// Counting an empty domain is no error: every count is 0.
	c.add("exit codes", []int{0}, "count", empty, "--param", "n=50")
	if pocl {
		c.add("exit codes", two, "measure", empty, "--device", "opencl", "--param", "n=50", "--runs", "2", "--discard", "1")
		div := c.write("div.knl", []byte(header+"b[i] = a[i] / 0\n"))
		c.add("exit codes", []int{0}, "measure", div, "--device", "opencl", "--param", "n=1024", "--runs", "2", "--discard", "1")
		c.add("exit codes", two, "measure", "global_copy", "--device", "opencl", "--param", "n=1024", "--runs", "2", "--discard", "1", "--compare-with", big)
	}
}

// flipped: one byte of a checksummed table flipped, through table and fit.
// An exit 0 must print the table as the unflipped one does.
func (c *campaign) flipped(data []byte, flips int) {
	clean := c.write("clean.arrow", data)
	want, err := exec.Command(c.bin, "table", clean, "--format", "csv").Output()
	fatal(err)
	for i := range 2 * flips {
		b := slices.Clone(data)
		b[c.r.IntN(len(b))] ^= byte(1 + c.r.IntN(255))
		p := c.write(fmt.Sprintf("flip%d.arrow", i), b)
		if i%2 == 1 {
			c.add("flips", []int{0, 2}, "fit", p, "--out", c.path(fmt.Sprintf("flipW%d.arrow", i)))
			continue
		}
		r := c.add("flips", []int{0, 2}, "table", p, "--format", "csv")
		r.check = func() string {
			if r.code == 0 && !bytes.Equal(r.out, want) {
				return "exit 0 with content other than the table's"
			}
			return ""
		}
	}
}

// maxInput: a 2 GB sparse file as every file input, past and under the cap.
func (c *campaign) maxInput() {
	sparse := c.path("sparse")
	f, err := os.Create(sparse)
	fatal(err)
	fatal(f.Truncate(2<<30 + c.r.Int64N(1<<20)))
	f.Close()
	for _, limit := range []string{"4096B", "4096"} {
		for _, args := range [][]string{
			{"table", sparse},
			{"fit", sparse, "--out", c.path("sW.arrow")},
			{"compare", sparse},
			{"validate", "--weights", sparse, "embedded:pocl-epyc-quick"},
			{"predict", "--weights", sparse, "global_copy", "--param", "n=1024"},
			{"predict", "--program", sparse, "--device-file", "pocl-cpu"},
			{"export", sparse},
			{"count", sparse},
			{"kernels", "show", sparse},
			{"blocksize", "global_copy", "--device-file", sparse, "--param", "n=1024", "--model", "hongkim"},
			{"tune", "global_copy", "--space", sparse, "--weights", "W"},
			{"tune", "--evaluate", sparse},
			{"import", sparse, "--kernel", "k"},
		} {
			c.add("max-input", []int{2}, append([]string{"--max-input", limit}, args...)...)
		}
	}
}

// resume: per suite, two kernels measured twice (the second run measures
// nothing), and a run of two more killed with SIGKILL at a random moment,
// resumed, and run again (measuring nothing).
func (c *campaign) resume() {
	for _, name := range []string{"quick", "paper"} {
		s, err := suite.Load(name)
		fatal(err)
		var pick []string
		if name == "quick" {
			pick = []string{"convolution"}
		}
		for len(pick) < 4 {
			// The paper suite's exponentiations and matrix products take
			// minutes a run on a loaded CPU: past the campaign's patience.
			k := s.Kernels[c.r.IntN(len(s.Kernels))].Kernel
			if name == "paper" && (strings.Contains(k, "pow") || strings.Contains(k, "matmul") || strings.Contains(k, "nbody")) {
				continue
			}
			if !slices.Contains(pick, k) {
				pick = append(pick, k)
			}
		}
		for i, kernels := range [][]string{pick[:2], pick[2:]} {
			out := c.path(fmt.Sprintf("resume-%s-%d.arrow", name, i))
			args := []string{"measure", "--device", "opencl", "--suite", name, "--kernels", strings.Join(kernels, ","), "--runs", "2", "--discard", "1", "--out", out}
			base := c.add("resume", []int{0}, args...)
			if i == 1 {
				base.kill = time.Duration(1+c.r.IntN(5)) * time.Second
				base.codes = []int{0, 128 + int(syscall.SIGKILL)}
				base = c.add("resume", []int{0}, args...)
			}
			var rows int
			base.check = func() string {
				if rows = countRows(out); rows == 0 {
					return "no rows"
				}
				return ""
			}
			again := c.add("resume", []int{0}, args...)
			again.check = func() string {
				if n := countRows(out); n != rows {
					return fmt.Sprintf("the rerun changed the table's rows: %d, then %d", rows, n)
				}
				return ""
			}
		}
	}
}

// countRows is the number of rows of the table at path, 0 if there is none.
func countRows(path string) int {
	t, err := datasets.Read(path)
	if err != nil {
		return 0
	}
	return len(t.Rows)
}

// runAll runs every command line in order and returns the defects.
func (c *campaign) runAll() []string {
	var defects []string
	for i, r := range c.runs {
		c.exec(r)
		if r.wall > reconfirm && r.family != "resume" {
			first := r.wall
			c.exec(r)
			r.again, r.wall = r.wall, first
		}
		if what := r.defect(); what != "" {
			defects = append(defects, fmt.Sprintf("%s: uniperf %s: %s", r.family, brief(r.args), what))
		}
		if (i+1)%50 == 0 {
			fmt.Printf("campaign: %d of %d runs\n", i+1, len(c.runs))
		}
	}
	return defects
}

func (c *campaign) exec(r *run) {
	cmd := exec.Command(c.bin, r.args...)
	cmd.Dir = c.dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if r.stdout == "closed" {
		pr, pw, err := os.Pipe()
		fatal(err)
		pr.Close()
		cmd.Stdout = pw
		defer pw.Close()
	}
	start := time.Now()
	fatal(cmd.Start())
	limit := killAfter
	if r.family == "resume" {
		limit = 5 * killAfter // measuring on a loaded machine
	}
	if r.kill > 0 {
		limit = r.kill
	}
	timer := time.AfterFunc(limit, func() { cmd.Process.Kill() })
	cmd.Wait()
	timer.Stop()
	r.wall = time.Since(start)
	r.code = cmd.ProcessState.ExitCode()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		r.code = 128 + int(ws.Signal())
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.rss = ru.Maxrss << 10
		cpu := time.Duration(syscall.TimevalToNsec(ru.Utime) + syscall.TimevalToNsec(ru.Stime))
		if r.cpu == 0 || cpu < r.cpu {
			r.cpu = cpu
		}
	}
	r.stderr, r.out = errb.String(), out.Bytes()
}

func (r *run) defect() string {
	var what []string
	if !slices.Contains(r.codes, r.code) {
		what = append(what, fmt.Sprintf("exit %d, want %v", r.code, r.codes))
	}
	for _, p := range []string{"panic", "goroutine ", "runtime error", "fatal error"} {
		if strings.Contains(r.stderr, p) {
			what = append(what, "a panic's text: "+brief([]string{r.stderr}))
			break
		}
	}
	killed := r.kill > 0 && r.code == 128+int(syscall.SIGKILL)
	if r.code != 0 && r.code != 141 && !killed && !strings.HasPrefix(r.stderr, "uniperf: ") && !strings.Contains(r.stderr, "\nuniperf: ") {
		what = append(what, "no message: "+brief([]string{r.stderr}))
	}
	// A measurement times kernels for as long as its suite says.
	if r.family != "resume" && r.wall > maxWall && (r.again == 0 || r.again > maxWall) && r.cpu > maxWall {
		what = append(what, fmt.Sprintf("took %v (%v alone, %v of CPU)", r.wall.Round(time.Millisecond), r.again.Round(time.Millisecond), r.cpu.Round(time.Millisecond)))
	}
	if r.rss > maxRSS {
		what = append(what, fmt.Sprintf("peak RSS %d MiB", r.rss>>20))
	}
	if r.check != nil {
		if s := r.check(); s != "" {
			what = append(what, s)
		}
	}
	return strings.Join(what, "; ")
}

// brief shortens a command line for the report: generated sets and
// kernels run to megabytes.
func brief(args []string) string {
	s := strings.Join(args, " ")
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 160 {
		s = s[:160] + fmt.Sprintf("… (%d bytes)", len(s))
	}
	return s
}

func (c *campaign) report(defects []string) {
	byFamily := map[string]map[int]int{}
	all := map[int]int{}
	var families []string
	for _, r := range c.runs {
		if byFamily[r.family] == nil {
			byFamily[r.family] = map[int]int{}
			families = append(families, r.family)
		}
		byFamily[r.family][r.code]++
		all[r.code]++
	}
	fmt.Printf("\n%d runs; by exit status: %s\n", len(c.runs), codes(all))
	for _, f := range families {
		fmt.Printf("  %-11s %s\n", f, codes(byFamily[f]))
	}
	runs := slices.Clone(c.runs)
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].wall > runs[j].wall })
	fmt.Println("\nslowest (wall; again alone where over 3 s; CPU, user and system):")
	for _, r := range runs[:min(10, len(runs))] {
		fmt.Printf("  %8v %8v %8v %6d MiB  exit %d  %s\n", r.wall.Round(time.Millisecond), r.again.Round(time.Millisecond), r.cpu.Round(time.Millisecond), r.rss>>20, r.code, brief(r.args))
	}
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].rss > runs[j].rss })
	fmt.Println("\nbiggest (peak RSS):")
	for _, r := range runs[:min(10, len(runs))] {
		fmt.Printf("  %6d MiB %8v  exit %d  %s\n", r.rss>>20, r.wall.Round(time.Millisecond), r.code, brief(r.args))
	}
	fmt.Printf("\n%d defects\n", len(defects))
	for _, d := range defects {
		fmt.Println("  " + d)
	}
}

func codes(m map[int]int) string {
	var keys []int
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%d: %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}
