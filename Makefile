GO       ?= go
GOBIN    := $(shell $(GO) env GOPATH)/bin
BIN      := bin/uniperf
export CGO_ENABLED := 0

.PHONY: all build demo test deps check unit bench fuzz clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/uniperf

# The README's first command: the whole pipeline on the embedded datasets.
demo: build
	./$(BIN) demo

# The README's second command: installs what the tests need, then runs
# every check and test.
test: deps check unit

deps:
	./.ci/install-deps

check:
	@unformatted=$$(gofmt -l .); if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GOBIN)/staticcheck ./...

unit:
	$(GO) test -count=1 ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

FUZZTIME ?= 30s
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "fuzz $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

clean:
	rm -rf bin
