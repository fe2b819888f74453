# Green Tokens pipeline. `make snapshot` builds today's snapshot from the real
# upstream URLs; `make test` runs the tests (they read ../shared).
GO ?= go
OUT ?= snapshots
DATE ?= $(shell date -u +%F)
SHARED ?= ../shared
# For the offline example: a leaderboard version from ../shared/upstream.
LEADERBOARD ?= $(SHARED)/upstream/leaderboard/2026-02-16-7885788

.PHONY: build test vet snapshot snapshot-shared bench update-golden

build:
	$(GO) build -o bin/greentokens ./cmd/greentokens

test:
	$(GO) vet ./...
	$(GO) test ./...

vet:
	$(GO) vet ./...

# The main job: fetch, transform, validate, write $(OUT)/$(DATE)/.
snapshot:
	$(GO) run ./cmd/greentokens build --out $(OUT) --date $(DATE)

# Offline, from the shared copy of the upstream files (no network).
snapshot-shared:
	$(GO) run ./cmd/greentokens build --out $(OUT) --date 2026-09-27 --retrieved 2026-09-26 \
		--from-leaderboard $(LEADERBOARD) --from-ember $(SHARED)/upstream/ember/co2-intensity-long-format.csv \
		--grid-year 2024

# The Ember stage on ember-synth's full-size CSV (MB/s, allocations), then the
# whole offline build with that CSV at scale 1 and 4 (MB/s and peak memory),
# then the API: the carbon handler alone, and a bounded loopback load test
# (64 clients for 3 s: requests/s, p99, resident memory; fails on any error or
# growing memory, never on a time).
bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 5x ./transform/grid
	$(GO) test -run '^$$' -bench OfflineBuild -benchtime 3x ./snapshots
	GREENTOKENS_BENCH_SCALE=4 $(GO) test -run '^$$' -bench OfflineBuild -benchtime 1x ./snapshots
	$(GO) test -run '^$$' -bench CarbonHandler -benchmem ./api
	$(GO) test -run '^$$' -bench LoopbackLoad -benchtime 1x ./api

update-golden:
	$(GO) test ./... -update
