// Package snapshots builds, writes, reads and compares dated snapshots of the
// Green Tokens index. A snapshot is a folder, OUT/DATE/, holding the raw
// upstream bytes it was built from (sources/), the published files (models/,
// the grid and index files, and the model pages under pages/), and
// manifest.json, which gives the origin, size and sha256 of every one of
// them.
//
// A snapshot appears whole or not at all: it is built in a temporary sibling
// folder, checked by validate.Check, synced, and renamed into place. An
// existing snapshot is never changed unless the caller asks to replace it,
// and builds into one output folder take turns (a lock in OUT). The manifest
// (format.Manifest) names the code that wrote the snapshot (ThisGenerator),
// and Verify rebuilds a snapshot from its archived sources alone to check
// it.
//
// The package's files by concern:
//
//   - the store, store_*.go: the staging folder and its writes and sync
//     (store_stage.go), the output folder's lock (store_lock.go), the
//     atomic publish (store_publish.go), reading a snapshot back (Load,
//     store_load.go); generator.go names the code that wrote a snapshot;
//   - the build, build*.go: Build's steps, top to bottom in build.go
//     (fetch, archive, derive, write, check, publish), the removal guard
//     before publishing (build_guard.go);
//   - verify, verify*.go: Verify rebuilds a snapshot from its own sources,
//     compares byte for byte as it writes (verify_compare.go), and runs the
//     checker; verify_report.go says what differs; Rebuild (verify_rebuild.go) is
//     the auditor's rebuild into a folder of its own, from the same options;
//   - diff, diff*.go: what changed between two snapshots, and why.
//
// crash.go holds the crash-injection and pause points of the tests that
// kill and signal the command; memory.go the commands' memory limits.
package snapshots

import (
	"fmt"
	"time"

	"github.com/leadgreen/greentokens/internal/failure"
)

func checkDate(flag, s string) error {
	if _, err := time.Parse(time.DateOnly, s); err != nil {
		return fmt.Errorf("%w: %s %q is not a YYYY-MM-DD date", failure.ErrUsage, flag, s)
	}
	return nil
}
