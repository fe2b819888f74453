package snapshots

import (
	"context"
	"fmt"
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

// PauseEnv names the environment variable that makes a command stop at
// one of its pause points, say so on stderr ("greentokens: paused at
// POINT"), and wait there until its context ends. It exists for the
// signal tests, which prove that SIGINT and SIGTERM end a command mid-way,
// promptly; the release job never sets it.
const PauseEnv = "GREENTOKENS_TEST_PAUSE_AT"

// Pause points.
const (
	ppLoaded  = "loaded"  // Load has decoded the manifest, before it reads the listed files
	ppRebuild = "rebuild" // Verify has started its checks, before the rebuild
)

var pauseAt = os.Getenv(PauseEnv)

// pause waits for ctx to end when PauseEnv names this point.
func pause(ctx context.Context, name string) {
	if pauseAt == name {
		fmt.Fprintf(os.Stderr, "greentokens: paused at %s\n", name)
		<-ctx.Done()
	}
}
