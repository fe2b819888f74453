package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNewestSnapshotByDefault: the commands that read one snapshot read
// the newest one under ./out when none is named, and say which on stderr
// (stdout keeps only the answer: --json stays JSON); a dated entry that is
// a symbolic link does not count; with no out folder, or none in it, it
// is a usage error saying so; a snapshot named is used as given, without a
// word.
func TestNewestSnapshotByDefault(t *testing.T) {
	endToEnd(t)
	withGrid, noGrid := builtSnapshots(t) // before the folder changes: they are built from testdata/
	t.Chdir(t.TempDir())

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"list", "models"}, "no snapshot folder given (--snapshot DIR), and there is no out folder here to take the newest snapshot from"},
		{[]string{"verify"}, "no snapshot folder given (DIR), and there is no out folder here"},
		{[]string{"publish", "--to", "file:///nonexistent/bucket"}, "no snapshot folder given (--snapshot DIR), and there is no out folder here"},
	} {
		if code, _, stderr := runCLI(t, tc.args...); code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q without out: exit %d, stderr %q; want exit 2 saying %q", tc.args, code, stderr, tc.want)
		}
	}
	if err := os.Mkdir("out", 0o755); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "carbon", "qwen-3-32b"); code != exitUsage || !strings.Contains(stderr, "and out holds no snapshot (out/DATE)") {
		t.Errorf("carbon with an empty out: exit %d, stderr %q", code, stderr)
	}

	// out/2026-10-04 is a symbolic link, which no reader follows.
	twoSnapshotsUnderOut(t, withGrid, noGrid)
	if err := os.Symlink(seedDate, filepath.Join("out", "2026-10-04")); err != nil {
		t.Fatal(err)
	}
	const using = "using out/" + seedDate + ", the newest snapshot under out\n"
	for _, tc := range []struct {
		args   []string
		stdout string // in stdout
	}{
		{[]string{"list", "grids"}, "(reference year 2024)"},
		{[]string{"render", "qwen-3-32b"}, "Cite as: "},
		{[]string{"site", "--out", "web"}, "web: "},
		{[]string{"verify"}, "verify out/" + seedDate + ": OK"},
	} {
		code, stdout, stderr := runCLI(t, tc.args...)
		if code != exitOK || stderr != using || !strings.Contains(stdout, tc.stdout) {
			t.Errorf("%q: exit %d\nstdout: %s\nstderr: %q; want %q", tc.args, code, stdout, stderr, using)
		}
	}
	code, stdout, stderr := runCLI(t, "carbon", "qwen-3-32b", "NOR", "--json")
	var ans struct{ Snapshot string }
	if err := json.Unmarshal([]byte(stdout), &ans); code != exitOK || err != nil || ans.Snapshot != seedDate || stderr != using {
		t.Errorf("carbon --json: exit %d, %v, snapshot %q, stderr %q", code, err, ans.Snapshot, stderr)
	}
	page, _ := os.ReadFile(filepath.Join("out", seedDate, "pages", "qwen-3-32b.md"))
	if _, stdout, _ := runCLI(t, "render", "qwen-3-32b"); stdout != string(page) {
		t.Error("render without --snapshot is not the newest snapshot's page")
	}
	if _, stdout, _ := runCLI(t, "__complete", "carbon", "qwen-3-3"); !strings.Contains(stdout, "qwen-3-32b\n") {
		t.Errorf("completion without --snapshot offers no model of the newest snapshot:\n%s", stdout)
	}

	for _, tc := range []struct {
		args         []string
		code         int
		stderr, want string
	}{
		{[]string{"diff"}, exitOK, "using out/2026-09-20 as OLD and out/" + seedDate + " as NEW, the two newest snapshots under out\n", "grid"},
		{[]string{"diff", filepath.Join("out", "2026-09-20")}, exitOK, "using out/" + seedDate + " as NEW, the newest snapshot under out\n", "grid"},
		{[]string{"diff", filepath.Join("out", seedDate)}, exitUsage, "that is the newest snapshot under out; name NEW too", ""},
		{[]string{"list", "models", "--snapshot", filepath.Join("out", "2026-09-20")}, exitOK, "", "3 models in snapshot " + seedDate},
		{[]string{"rebuild"}, exitUsage, "rebuild needs --out FOLDER", ""},
	} {
		code, stdout, stderr := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.stderr) || (tc.stderr == "") != (stderr == "") || !strings.Contains(stdout, tc.want) {
			t.Errorf("%q: exit %d, want %d\nstdout: %s\nstderr: %q, want %q", tc.args, code, tc.code, stdout, stderr, tc.stderr)
		}
		if strings.Contains(stderr, "using") && tc.code != exitOK {
			t.Errorf("%q names a snapshot it does not read: %q", tc.args, stderr)
		}
	}

	if err := os.RemoveAll(filepath.Join("out", "2026-09-20")); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "diff"); code != exitUsage || !strings.Contains(stderr, "and out holds only one snapshot, out/"+seedDate) {
		t.Errorf("diff with one snapshot under out: exit %d, stderr %q", code, stderr)
	}
}

// twoSnapshotsUnderOut lays out out/ in the current folder with two
// snapshots (builtSnapshots'): out/2026-09-20, a copy of noGrid, and
// out/2026-09-27, of withGrid (the newest).
func twoSnapshotsUnderOut(t *testing.T, withGrid, noGrid string) {
	t.Helper()
	copyTree(t, noGrid, filepath.Join("out", "2026-09-20"))
	copyTree(t, withGrid, filepath.Join("out", seedDate))
}
