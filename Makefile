GO       ?= go
GOBIN    := $(shell $(GO) env GOPATH)/bin
BIN      := bin/uniperf
export CGO_ENABLED := 0

.PHONY: all build demo test test-long deps check unit race arrowjs bench fuzz clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/uniperf

# The README's first command: the whole pipeline on the embedded datasets.
demo: build
	./$(BIN) demo

# The README's second command: installs what the tests need, then runs
# every check and test. After the checks, unit, race and arrowjs run side
# by side, each one's output printed whole when it ends: the race builds
# and the npm check use the cores that cmd/uniperf's long tests, the last
# of unit, leave free. Tests run with -short: the heavy ones (LONG_TESTS)
# check a smaller case of the same thing, and test-long runs their full
# cases; CI runs test, then test-long.
test: deps check
	@$(MAKE) --no-print-directory -j3 --output-sync=target unit race arrowjs

# The full cases of the tests that -short makes smaller; each says in its
# doc comment what -short leaves out. Their names are unique in the
# module, and a test that reads testing.Short joins them.
LONG_PACKAGES := ./cmd/uniperf ./examples ./measurekernels/codegen ./counts ./polyhedra
LONG_TESTS    := TestDemoSummaryCache|TestMeasureKilledAndResumed|TestTuneModelHierarchy|TestBlocksizeMeasure|TestEveryCommandJSON|TestPredictProgramCNN|TestTuningSpaces|TestLibraryCUDACompiles|TestCountMatchesPlanAndRun|TestBreakdownMatchesRun|TestCountSuiteConfigurations|TestCheckBoundsGridStride|TestCardProperty|TestClassEmptyOracle
test-long:
	$(GO) test -count=1 -vet=off -run '^($(LONG_TESTS))$$' $(LONG_PACKAGES)

deps:
	./.ci/install-deps

# Files in a package read in one direction, and the seed-formula packages
# import neither each other nor counts (go doc ./cmd/filecycles says why).
SEED_PACKAGES     := ./fit/resios,./fit/xu,./fit/hongkim,./fit/cycles

# staticcheck keys its cache by the build IDs of the packages it checks,
# which hold their directory unless built with -trimpath: so a clone at a
# new path would check every package afresh (60 CPU-s), and with
# -trimpath reuses what any clone of the same code found (2 CPU-s). A
# finding so reused names the file under the clone that found it first.

check:
	@unformatted=$$(gofmt -l .); if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	GOFLAGS="$(GOFLAGS) -trimpath" $(GOBIN)/staticcheck ./...
	$(GO) run ./cmd/filecycles -independent $(SEED_PACKAGES) -forbid ./counts ./...

# Every test of every package, but those that race runs: RACE_TESTS in
# RACE_PACKAGES (their names are unique in the module) and all of
# RACE_WHOLE; -short, as in race. -vet=off: check has run go vet on every
# package, test files included, with more analyzers than go test's.
unit:
	$(GO) test -short -count=1 -vet=off -skip '^($(RACE_TESTS))$$' $$($(GO) list ./... | grep -vxF "$$($(GO) list $(RACE_WHOLE))")

# The tests that start goroutines, or call what does, under the race
# detector (which needs cgo): counting's workers and prefetching (on the
# library kernels; -short leaves out the interpreter runs, which start
# none and took three quarters of the time under -race), the counter's
# Prepare and the grid fill's parallel fits (every fit of
# fit/models/linear, and models.Compare of the linear model), launch's
# buffer filling. The other model packages start none:
# they call Prepare and the grid fill in the caller's goroutine, which
# waits, so linear's tests cover those goroutines; they run in unit.
RACE_WHOLE    := ./fit/models/linear
RACE_PACKAGES := ./counts ./fit/models ./measurekernels/launch
RACE_TESTS    := TestCountMatchesPlanAndRun|TestCompare|TestCrossValidateFolds|TestWriteRandom
race:
	CGO_ENABLED=1 $(GO) test -race -short -count=1 -vet=off -run '^($(RACE_TESTS))$$' $(RACE_PACKAGES)
	CGO_ENABLED=1 $(GO) test -race -short -count=1 -vet=off $(RACE_WHOLE)

# A second Arrow implementation (npm apache-arrow) reads every shipped table.
arrowjs:
	./.ci/arrow-js/check.sh

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Ten minutes per fuzz target (issue 45); FUZZTIME=30s for a quick pass.
FUZZTIME ?= 10m
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "fuzz $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

clean:
	rm -rf bin
