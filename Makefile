# Green Tokens pipeline. `make snapshot` builds today's snapshot from the real
# upstream URLs into out/ (ignored by git); `make test` runs the fast tests
# (they read ../shared), `make scale` the slow ones; CI runs both.
GO ?= go
OUT ?= out
DATE ?= $(shell date -u +%F)
SHARED ?= ../shared
# For the offline example: a leaderboard version from ../shared/upstream.
LEADERBOARD ?= $(SHARED)/upstream/leaderboard/2026-02-16-7885788
# Stamp the VCS revision into the binary, so that the manifest's generator
# names the code that built a snapshot: go run never stamps it by default, and
# a GOFLAGS of -buildvcs=false would silence go build. Needs a git checkout.
BUILDVCS ?= -buildvcs=true

# The slow checks, skipped under -short (snapshots/slow_test.go): the
# 10,000-model scale and memory test, the tests that run the command as
# processes (SIGKILL at each checkpoint, two builds at once), and a build of
# every shared upstream version.
SLOW_TESTS = ^(TestTenThousandModels|TestKilledBuild|TestConcurrentBuilds|TestEveryUpstreamVersion)$$

.PHONY: build test scale vet snapshot snapshot-shared bench update-golden

build:
	$(GO) build $(BUILDVCS) -o bin/greentokens ./cmd/greentokens

# The fast set: under a minute on 2 cores.
test:
	$(GO) vet ./...
	$(GO) test -short ./...

# The slow set (minutes; the scale test alone builds 10,000 models several times).
scale:
	$(GO) test -run '$(SLOW_TESTS)' -timeout 30m ./snapshots

vet:
	$(GO) vet ./...

# The main job: fetch, transform, validate, write $(OUT)/$(DATE)/.
snapshot:
	$(GO) run $(BUILDVCS) ./cmd/greentokens build --out $(OUT) --date $(DATE)

# Offline, from the shared copy of the upstream files (no network).
snapshot-shared:
	$(GO) run $(BUILDVCS) ./cmd/greentokens build --out $(OUT) --date 2026-09-27 --retrieved 2026-09-26 \
		--from-leaderboard $(LEADERBOARD) --from-ember $(SHARED)/upstream/ember/co2-intensity-long-format.csv \
		--grid-year 2024

# One table (internal/benchtable) of every benchmark below: the floor (a read
# and a sha256 of ember-synth's CSV), a build and verify of 10,000 models, a
# build and verify of 1,000 models with ember-synth's CSV at scale 1 (the
# whole job), the Ember stage, the whole offline build and verify at scale 1
# and 4, then the API: the carbon handler alone, and bounded loopback load
# tests (64 clients for 3 s each: a mix, a model file alone, a two-grid
# carbon answer alone, that answer under 8 clients sending 60 KB names, the
# site's task file and the API's index.json; requests/s, p99, resident
# memory; each fails on any error, never on a time), then serve as a
# process: its resident memory after 1,000 idle connections and 20,000 MCP
# calls, and over 30 snapshots that each archive the 40 MB CSV. Each row has MB/s, ms, allocations, peak RSS and
# its ratio to the floor of the same run, where they apply, and any other
# figure its benchmark reports. Add a line appending to $(BENCH_OUT) to add
# rows; the raw output stays in $(BENCH_OUT). The 10,000-model build runs
# before the offline ones: those create and delete thousands of files, which
# ext4 (with discard) is still paying for when the next build creates its
# 20,000, and which made it 1 to 5 s slower.
BENCH_OUT ?= $(or $(TMPDIR),/tmp)/greentokens-bench.txt
BENCH = $(GO) test -run '^$$' -benchmem

bench:
	$(BENCH) -bench 'Floor' -benchtime 5x ./snapshots > $(BENCH_OUT)
	$(BENCH) -bench 'TenThousandModels' -benchtime 1x ./snapshots >> $(BENCH_OUT)
	$(BENCH) -bench 'ThousandModelsSynth' -benchtime 3x ./snapshots >> $(BENCH_OUT)
	$(BENCH) -bench 'Ingest' -benchtime 5x ./transform/grid >> $(BENCH_OUT)
	$(BENCH) -bench 'Offline' -benchtime 3x ./snapshots >> $(BENCH_OUT)
	$(BENCH) -bench CarbonHandler ./api >> $(BENCH_OUT)
	$(BENCH) -bench Loopback -benchtime 1x ./api >> $(BENCH_OUT)
	$(BENCH) -bench 'Serve(IdleAndMCP|ThirtyReleases)' -benchtime 1x ./cmd/greentokens >> $(BENCH_OUT)
	$(GO) run ./internal/benchtable < $(BENCH_OUT)
	@df -PT $(or $(TMPDIR),/tmp) | awk -v d=$(or $(TMPDIR),/tmp) 'NR == 2 { print "temporary folders, where the builds write: " d " (" $$2 ", mounted on " $$7 ")" }'

update-golden:
	$(GO) test ./... -update
