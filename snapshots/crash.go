package snapshots

import (
	"os"
	"syscall"
)

// CrashEnv names the environment variable that makes a build kill itself
// (SIGKILL, no clean-up) at one of its checkpoints. It exists for the
// crash tests, which prove that a build killed at any point leaves either
// no snapshot or the complete one; the release job never sets it.
const CrashEnv = "GREENTOKENS_TEST_CRASH_AT"

// Checkpoints of a build, in order.
const (
	cpSourceArchived = "source-archived" // the first upstream file is in the stage
	cpMidFile        = "mid-file"        // half of a model file is written
	cpManifest       = "manifest"        // every output is written, not the manifest
	cpValidated      = "validated"       // the stage passed validation
	cpRename         = "rename"          // just before the stage becomes OUT/DATE
	cpRenamed        = "renamed"         // just after, before the folder is synced
)

var crashAt = os.Getenv(CrashEnv)

// checkpoint kills the process when CrashEnv names this point.
func checkpoint(name string) {
	if crashAt == name {
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal is on its way
	}
}
