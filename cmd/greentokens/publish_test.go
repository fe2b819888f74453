package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/snapshots/store"
)

// buildAt returns a snapshot folder of the small leaderboard version on the
// Ember CSV ember at date, the test's own copy (in a folder of its own) of
// the one built for that date and CSV once per test binary: a build is
// deterministic, so every copy holds the bytes a build of its own would.
func buildAt(t *testing.T, date, ember string) string {
	t.Helper()
	return builtCopy(t, date, "--from-ember", ember)
}

// builtCopy is buildAt for the build of the small leaderboard version at
// date with the flags args besides --out, --date, --retrieved and
// --from-leaderboard.
func builtCopy(t *testing.T, date string, args ...string) string {
	t.Helper()
	built, _ := builtAt.LoadOrStore(date+"\x00"+strings.Join(args, "\x00"), sync.OnceValues(func() (string, error) {
		root, err := sharedRoot()
		if err != nil {
			return "", err
		}
		out, err := os.MkdirTemp(root, "built-")
		if err != nil {
			return "", err
		}
		args := append([]string{"build", "--out", out, "--date", date, "--retrieved", seedReadOn, "--from-leaderboard", smallLB(t)}, args...)
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != exitOK {
			return "", fmt.Errorf("build %q: exit %d: %s", args, code, stderr.String())
		}
		return filepath.Join(out, date), nil
	}))
	src, err := built.(func() (string, error))()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), date)
	copyTree(t, src, dir)
	return dir
}

// builtAt holds builtCopy's builds, by date and flags.
var builtAt sync.Map

// readLatest reads latest.json of the folder bucket dir.
func readLatest(t *testing.T, dir string) format.Latest {
	t.Helper()
	var l format.Latest
	b, err := os.ReadFile(filepath.Join(dir, format.LatestPath))
	if err == nil {
		err = json.Unmarshal(b, &l)
	}
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestPublish publishes snapshots to a file:// bucket through the command
// line: a release, the same again (nothing written), another release of
// the same date (exit 6), a later release whose grid shrinks (exit 6
// unless --allow-grid-shrink), with the exit codes and messages the
// release job reads.
func TestPublish(t *testing.T) {
	endToEnd(t)
	snap := buildAt(t, seedDate, ember)
	dir := filepath.Join(t.TempDir(), "releases")
	to := "file://" + dir

	code, stdout, stderr := runCLI(t, "publish", "--snapshot", snap, "--to", to, "--log-format", "json")
	if code != exitOK {
		t.Fatalf("publish: exit %d: %s", code, stderr)
	}
	rel, err := store.LoadDir(t.Context(), snap)
	if err != nil {
		t.Fatal(err)
	}
	n := len(rel.Manifest.Outputs) + len(rel.Manifest.Sources) + 1
	if want := to + "/" + seedDate + ": published (" + strconv.Itoa(n) + " objects written"; !strings.HasPrefix(stdout, want) ||
		!strings.HasSuffix(stdout, "latest.json names it\n") {
		t.Errorf("publish said %q; want it to start %q and say latest.json names it", stdout, want)
	}
	for line := range strings.Lines(stderr) {
		if !json.Valid([]byte(line)) {
			t.Errorf("--log-format json logged a line that is not JSON: %q", line)
		}
	}
	if l := readLatest(t, dir); l.Release != rel.ID {
		t.Errorf("latest.json names %+v, want %+v", l.Release, rel.ID)
	}

	code, stdout, stderr = runCLI(t, "publish", "--snapshot", snap, "--to", to)
	if code != exitOK || !strings.Contains(stdout, "already published; nothing written ("+strconv.Itoa(n)+" objects checked); latest.json names it") {
		t.Errorf("the same release again: exit %d, %q: %s", code, stdout, stderr)
	}

	other, _ := builtSnapshots(t) // the seeds' date on other grids
	code, _, stderr = runCLI(t, "publish", "--snapshot", other, "--to", to)
	if code != exitConflict || !strings.Contains(stderr, "nothing written") {
		t.Errorf("another release of %s: exit %d, want %d: %s", seedDate, code, exitConflict, stderr)
	}

	later := buildAt(t, "2026-10-04", kosovoGrids)
	code, _, stderr = runCLI(t, "publish", "--snapshot", later, "--to", to)
	if code != exitConflict || !strings.Contains(stderr, "--allow-grid-shrink") || !strings.Contains(stderr, to+"/"+seedDate+"/grid.json") {
		t.Errorf("a release whose grid shrinks: exit %d, want %d naming the flag and the earlier grid.json: %s", code, exitConflict, stderr)
	}
	if l := readLatest(t, dir); l.Date != seedDate {
		t.Errorf("a refused publish moved latest.json to %s", l.Date)
	}
	if code, stdout, stderr = runCLI(t, "publish", "--snapshot", later, "--to", to, "--allow-grid-shrink"); code != exitOK {
		t.Fatalf("with --allow-grid-shrink: exit %d: %s", code, stderr)
	}
	if l := readLatest(t, dir); l.Date != "2026-10-04" {
		t.Errorf("latest.json names %s after the later release, want 2026-10-04", l.Date)
	}
	// Sources are stored once: the later release shares the leaderboard's.
	if !strings.Contains(stdout, "objects already there") {
		t.Errorf("the later release found no object already there: %q", stdout)
	}
}

// TestPublishRefuses: what publish refuses before it writes anything, with
// its exit code: a URL with a secret (its value never printed), no --to, a
// snapshot that does not verify.
func TestPublishRefuses(t *testing.T) {
	snap, _ := builtSnapshots(t)
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"secret in the URL", []string{"--to", "s3://bucket?region=us-east-1&secret_access_key=SECRETVALUE"}, exitUsage, `query parameter "secret_access_key"`},
		{"user information", []string{"--to", "s3://AKIA:SECRETVALUE@bucket"}, exitUsage, "user information"},
		{"token", []string{"--to", "gs://bucket?x-amz-security-token=SECRETVALUE"}, exitUsage, "x-amz-security-token"},
		{"another scheme", []string{"--to", "ftp://host/dir"}, exitUsage, "not one of file, s3, gs, azblob, mem"},
		{"a path on a cloud bucket", []string{"--to", "s3://bucket/releases"}, exitUsage, "?prefix=DIR/"},
		{"no --to", nil, exitUsage, "--to URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, append([]string{"publish", "--snapshot", snap}, tc.args...)...)
			if code != tc.code || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "SECRETVALUE") {
				t.Errorf("exit %d, want %d, saying %q and never the secret: %s", code, tc.code, tc.want, stderr)
			}
		})
	}

	t.Run("a snapshot that does not verify", func(t *testing.T) {
		bad := filepath.Join(t.TempDir(), seedDate)
		if err := os.CopyFS(bad, os.DirFS(snap)); err != nil {
			t.Fatal(err)
		}
		page := filepath.Join(bad, "pages", "qwen-3-32b.md")
		b, _ := os.ReadFile(page)
		os.WriteFile(page, append(b, '\n'), 0o644)
		dir := t.TempDir()
		code, _, stderr := runCLI(t, "publish", "--snapshot", bad, "--to", "file://"+dir)
		if code != exitValidation || !strings.Contains(stderr, "nothing published") {
			t.Errorf("exit %d, want %d: %s", code, exitValidation, stderr)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("a snapshot that does not verify wrote %d entries into the bucket", len(entries))
		}
	})
}
