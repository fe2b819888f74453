# Green Tokens pipeline. `make snapshot` builds today's snapshot from the real
# upstream URLs into out/ (ignored by git); `make sample` builds one offline
# from the repository's sample of upstream data (testdata/). `make test` runs
# the fast tests, which read only the sample, so a fresh clone runs them
# alone; `make scale` runs every test, those that need ../shared too; CI runs
# both.
GO ?= go
OUT ?= out
DATE ?= $(shell date -u +%F)
# The repository's sample: the leaderboard version the seeds were built from
# and Ember's intensity values (testdata/README.md).
SAMPLE_LEADERBOARD = testdata/upstream/leaderboard/2026-02-16-7885788
SAMPLE_EMBER = testdata/upstream/ember/co2-intensity-long-format.csv
# Stamp the VCS revision into the binary, so that the manifest's generator
# names the code that built a snapshot: go run never stamps it by default, and
# a GOFLAGS of -buildvcs=false would silence go build. Needs a git clone: Go
# recognises only a .git directory, so a git worktree (its .git is a file)
# builds unstamped.
BUILDVCS ?= -buildvcs=true

.PHONY: build test race scale s3 versitygw vet snapshot sample bench update-golden docs lint-openapi

build:
	$(GO) build $(BUILDVCS) -o bin/greentokens ./cmd/greentokens

# The fast set, under a minute on 2 cores (docs/performance.md has its
# time). It reads only the repository's sample (testdata/). The tests that
# need ../shared are in files built with the "scale" tag: vet and
# staticcheck (the version go.mod's tool line pins) check the files of the
# default build, then those of the "scale", "s3" and "crashtest" tags;
# go test's own vet pass is off, the whole of go vet having just run. Its
# temporary folders (TMPDIR, which go test's build folder follows) are on a
# RAM file system where the machine has one, TEST_TMPDIR (/dev/shm): on ext4
# without a journal, as this project's machines mount their disk, each new
# file skips past the inodes freed in the last seconds, so tests that
# create and remove thousands of files spend a third of their time in the
# kernel. TEST_TMPDIR= keeps the default.
TEST_TMPDIR ?= $(shell [ -d /dev/shm ] && [ -w /dev/shm ] && echo /dev/shm)
TEST_ENV = $(if $(TEST_TMPDIR),TMPDIR=$(TEST_TMPDIR)) GOGC=400

test:
	$(GO) vet ./...
	$(GO) vet -tags scale,s3,crashtest ./...
	$(GO) tool staticcheck ./...
	$(GO) tool staticcheck -tags scale,s3,crashtest ./...
	$(TEST_ENV) $(GO) test -short -vet=off ./...

# Every test (minutes; the scale test alone builds 10,000 models several
# times): the fast set, the slow checks it skips under -short (the 10,000-
# model scale and memory test, the command run as processes), and with the
# "scale" tag those that read ../shared (the eight leaderboard versions,
# ember-synth's full-size CSV, the sample's files against their originals).
# Without ../shared beside the repository they fail, naming what they need.
scale:
	$(GO) test -tags scale -timeout 30m ./...

# The S3 tests (the "s3" build tag, snapshots/bucket and cmd/greentokens):
# releases published to and read from a real S3 server, versitygw, which
# the tests start on 127.0.0.1 (internal/versitygw), through a TCP proxy
# that cuts a connection mid-upload, answers 500 or stalls; publishers
# racing, and the command killed at every step of a publish; verify and
# serve reading the bucket's releases. They need versitygw $(VERSITYGW_VERSION) on PATH or in
# GOPATH/bin (make versitygw installs it, about 5 minutes on 2 cores the
# first time) and fail without it, saying how to install it.
VERSITYGW_VERSION = v1.8.0

s3:
	$(GO) test -tags s3 -count=1 -run '^TestS3' ./snapshots/bucket ./cmd/greentokens

versitygw:
	$(GO) install github.com/versity/versitygw/cmd/versitygw@$(VERSITYGW_VERSION)

# The fast set under the race detector (needs cgo and a C compiler); the
# command's tests take longer than go test's default 10 minutes under it.
race:
	$(TEST_ENV) $(GO) test -race -short -timeout 30m ./...

vet:
	$(GO) vet ./...

# The main job: fetch, transform, validate, write $(OUT)/$(DATE)/.
snapshot:
	$(GO) run $(BUILDVCS) ./cmd/greentokens build --out $(OUT) --date $(DATE)

# The main job offline, from the repository's sample (no network): the
# snapshot of the seeds' release, its generator the code's revision.
sample:
	$(GO) run $(BUILDVCS) ./cmd/greentokens build --out $(OUT) --date 2026-09-27 --retrieved 2026-09-26 \
		--from-leaderboard $(SAMPLE_LEADERBOARD) --from-ember $(SAMPLE_EMBER) --grid-year 2024

# One table (internal/benchtable) of every benchmark below: the floor (a read
# and a sha256 of ember-synth's CSV) beside a plain read and one reading of it
# with encoding/csv, a build and verify of 10,000 models, a
# build and verify of 1,000 models with ember-synth's CSV at scale 1 (the
# whole job), the Ember stage, the whole offline build and verify at scale 1
# and 4, then the API: the carbon handler alone, and bounded loopback load
# tests (64 clients for 3 s each: a mix, a model file alone, a two-grid
# carbon answer alone, that answer under 8 clients sending 60 KB names, the
# site's task file and the API's index.json; requests/s, p99, resident
# memory; each fails on any error, never on a time), then serve as a
# process: its resident memory after 1,000 idle connections and 20,000 MCP
# calls, and over 30 snapshots that each archive the 40 MB CSV (time to
# ready too); then 52 releases of the same sources built into one folder
# and published to a file:// bucket (the bytes each stores), the history of
# one model across 52 releases, from a folder and from a file:// bucket,
# and, against versitygw on loopback (make versitygw), one release
# published and verified from the bucket (time, bytes sent and received)
# and serve over the 30 snapshots published to it. Each row has MB/s, ms, allocations, peak RSS and
# its ratio to the floor of the same run, where they apply, and any other
# figure its benchmark reports. Add a line appending to $(BENCH_OUT) to add
# rows; the raw output stays in $(BENCH_OUT). The 10,000-model build runs
# before the offline ones: those create and delete thousands of files, which
# ext4 is still paying for when the next build creates its 20,000
# (docs/performance.md).
BENCH_OUT ?= $(or $(TMPDIR),/tmp)/greentokens-bench.txt
BENCH = $(GO) test -tags scale -run '^$$' -benchmem
BENCH_S3 = $(GO) test -tags 's3 scale' -run '^$$' -benchmem

bench:
	$(BENCH) -bench 'Floor' -benchtime 5x ./snapshots/verify > $(BENCH_OUT)
	$(BENCH) -bench 'TenThousandModels' -benchtime 1x ./snapshots/verify >> $(BENCH_OUT)
	$(BENCH) -bench 'ThousandModelsSynth' -benchtime 3x ./snapshots/verify >> $(BENCH_OUT)
	$(BENCH) -bench 'Ingest' -benchtime 5x ./transform/grid >> $(BENCH_OUT)
	$(BENCH) -bench 'Offline' -benchtime 3x ./snapshots/verify >> $(BENCH_OUT)
	$(BENCH) -bench CarbonHandler ./api >> $(BENCH_OUT)
	$(BENCH) -bench Loopback -benchtime 1x ./api >> $(BENCH_OUT)
	$(BENCH) -bench 'Serve(IdleAndMCP|ThirtyReleases)' -benchtime 1x ./cmd/greentokens >> $(BENCH_OUT)
	$(BENCH) -bench 'FiftyTwoWeeks' -benchtime 1x ./cmd/greentokens >> $(BENCH_OUT)
	$(BENCH) -bench 'History$$' -benchtime 3x ./cmd/greentokens >> $(BENCH_OUT)
	$(BENCH_S3) -bench '^BenchmarkS3PublishAndVerify' -benchtime 3x ./cmd/greentokens >> $(BENCH_OUT)
	$(BENCH_S3) -bench '^BenchmarkS3ServeThirtyReleases' -benchtime 1x ./cmd/greentokens >> $(BENCH_OUT)
	$(GO) run ./internal/benchtable < $(BENCH_OUT)
	@df -PT $(or $(TMPDIR),/tmp) | awk -v d=$(or $(TMPDIR),/tmp) 'NR == 2 { print "temporary folders, where the builds write: " d " (" $$2 ", mounted on " $$7 ")" }'

# The golden files rewritten from the code, by the packages whose tests
# take -update (render's pages, transform/grid's grid.json): go test
# refuses a flag that a package's tests do not define, so only those run.
GOLDEN_PKGS = $(sort $(dir $(shell grep -rl --include='*_test.go' 'flag.Bool."update"' .)))

update-golden:
	$(GO) test -count=1 $(GOLDEN_PKGS) -update

# docs/cli.md, the command-line reference, generated from the commands
# (cobra/doc); TestCLIReference fails in make test when it is stale.
docs:
	$(GO) test -count=1 -run '^TestCLIReference$$' ./cmd/greentokens -clidoc

# schemas/openapi.json linted by Redocly's CLI with its recommended rules.
# Needs Node (20.19 or later) and npm; npx fetches the pinned version from
# the npm registry. Not part of make test; .ci/run runs it.
REDOCLY_CLI ?= @redocly/cli@2.77.0
lint-openapi:
	REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true npx --yes $(REDOCLY_CLI) lint --extends recommended schemas/openapi.json
