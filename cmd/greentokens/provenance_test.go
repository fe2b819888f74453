package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// provenanceWarning is the message of the warning a build gives when its
// binary cannot name its code.
const provenanceWarning = "this binary cannot name its code"

// runBinary runs the greentokens binary internal/testbin builds (with
// -buildvcs=false: it records no VCS revision) and returns its exit code,
// stdout and stderr.
func runBinary(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(binary(t), args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, stdout.String(), stderr.String()
	case errors.As(err, &ee):
		return ee.ExitCode(), stdout.String(), stderr.String()
	}
	t.Fatalf("running greentokens: %v", err)
	return 0, "", ""
}

// TestBuildWithoutRevision: a binary that records no VCS revision builds,
// warning once, on stderr as text or in the JSON log, what is missing and
// how to fix it; with --require-revision it refuses before anything is
// fetched or written (exit 2).
func TestBuildWithoutRevision(t *testing.T) {
	build := func(out string, extra ...string) []string {
		return append([]string{"build", "--out", out, "--date", seedDate, "--retrieved", seedReadOn,
			"--from-leaderboard", smallLB(t), "--from-ember", ember}, extra...)
	}

	code, _, stderr := runBinary(t, build(t.TempDir())...)
	if code != exitOK || strings.Count(stderr, provenanceWarning) != 1 ||
		!strings.Contains(stderr, "level=WARN") || !strings.Contains(stderr, "no VCS revision") || !strings.Contains(stderr, "-buildvcs=true (make build)") {
		t.Errorf("build: exit %d; want 0 and the warning once, naming what is missing and the fix:\n%s", code, stderr)
	}

	code, _, stderr = runBinary(t, build(t.TempDir(), "--log-format", "json")...)
	var warnings []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("a line of the JSON log is not JSON: %q", line)
		}
		if msg, _ := rec["msg"].(string); strings.HasPrefix(msg, provenanceWarning) {
			warnings = append(warnings, rec)
		}
	}
	if code != exitOK || len(warnings) != 1 || warnings[0]["level"] != "WARN" ||
		!strings.Contains(warnings[0]["missing"].(string), "no VCS revision") || !strings.Contains(warnings[0]["fix"].(string), "make build") {
		t.Errorf("build --log-format json: exit %d, warnings %v; want 0 and one, with missing and fix:\n%s", code, warnings, stderr)
	}

	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := runBinary(t, build(out, "--require-revision")...)
	if code != exitUsage || !strings.Contains(stderr, "--require-revision: this binary records no VCS revision") || !strings.Contains(stderr, "make build") {
		t.Errorf("build --require-revision: exit %d, want %d naming what is missing and the fix\nstdout: %s\nstderr: %s", code, exitUsage, stdout, stderr)
	}
	if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("build --require-revision wrote %s (%v); want nothing", out, err)
	}
}
