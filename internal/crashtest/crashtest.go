// Package crashtest holds the points where the tests that run the command
// as a process kill it (SIGKILL, no clean-up) or pause it, to prove that a
// build killed at any point leaves either no snapshot or the complete one,
// and that SIGINT and SIGTERM end a command mid-way, promptly.
//
// The points do something only in a binary built with the "crashtest"
// build tag, which internal/testbin sets for those tests: there KillEnv
// names the point where the process kills itself and PauseEnv the point
// where it stops, says so on stderr ("greentokens: paused at POINT") and
// waits until its context ends. In any other build Kill and Pause do
// nothing and read no environment variable: the command as released has
// no test hook.
package crashtest

// The environment variables the tagged build reads.
const (
	// KillEnv names the point where the process kills itself.
	KillEnv = "GREENTOKENS_TEST_CRASH_AT"
	// PauseEnv names the point where the process pauses.
	PauseEnv = "GREENTOKENS_TEST_PAUSE_AT"
)

// The kill points of a build, in order.
const (
	SourceArchived = "source-archived" // the first upstream file is in the stage
	MidFile        = "mid-file"        // half of a model file is written
	Manifest       = "manifest"        // every output is written, not the manifest
	Validated      = "validated"       // the stage passed validation
	Rename         = "rename"          // just before the stage becomes OUT/DATE
	Renamed        = "renamed"         // just after it
)

// The kill points of a publish to a bucket, in order (snapshots/bucket).
// Uploaded is armed for its Nth object by KillAfter: KillEnv "uploaded:N".
const (
	Claimed  = "claimed"   // the release's manifest is in the bucket, none of its other files
	Uploaded = "uploaded"  // the Nth object written (KillAfter); others may be on their way
	ReadBack = "read-back" // every object was read back and checked; no pointer written
	Listed   = "listed"    // releases.json lists the release; latest.json not written
	Pointed  = "pointed"   // latest.json names the release
)

// The pause points.
const (
	Loaded  = "loaded"  // a command has read a snapshot's manifest, not the files it lists
	Rebuild = "rebuild" // verify has started its checks, before the rebuild
	Guard   = "guard"   // the removal guard has loaded both snapshots, before it compares them
	Publish = "publish" // the stage is prepared (synced), just before the rename that publishes it
)
