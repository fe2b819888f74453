package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildRefusesLinkedLock: a build whose OUT/.lock is a symbolic link
// to a file outside the folder exits 6, saying what the lock file is, and
// leaves the file it points at as it was, with nothing published.
func TestBuildRefusesLinkedLock(t *testing.T) {
	out, outside := t.TempDir(), t.TempDir()
	target := filepath.Join(outside, "passwd")
	const precious = "root:x:0:0:root:/root:/bin/sh\n"
	if err := os.WriteFile(target, []byte(precious), 0o644); err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(out, ".lock")
	if err := os.Symlink(target, lock); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "build", "--out", out, "--date", seedDate, "--retrieved", seedReadOn,
		"--from-leaderboard", smallLB(t), "--no-grid")
	want := lock + " is a symbolic link, not a regular file; refusing to open it as the output folder's lock"
	if code != exitConflict || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, want %d saying %q\nstdout: %s\nstderr: %s", code, exitConflict, want, stdout, stderr)
	}
	if b, err := os.ReadFile(target); err != nil || string(b) != precious {
		t.Errorf("the file the lock points at holds %q (%v); want it untouched", b, err)
	}
	if _, err := os.Stat(filepath.Join(out, seedDate)); err == nil {
		t.Errorf("%s was published", seedDate)
	}
}
