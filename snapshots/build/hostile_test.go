package build_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/snapshots/build"
	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"
	"github.com/leadgreen/greentokens/snapshots/store"

	"golang.org/x/tools/txtar"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/format"
)

// hostileDir holds one txtar per failure mode of the upstream data, each a
// change to base.txtar, a small synthetic leaderboard and Ember CSV.
const hostileDir = "../testdata/hostile"

// hostileCase is one fixture, laid over base.txtar.
type hostileCase struct {
	files map[string][]byte // leaderboard files (index.json, tasks/...) and ember.csv
	want  []hostileWant
}

// hostileWant is one line of a fixture's want section, "KIND: TEXT":
//
//	error: TEXT               the build fails with failure.ErrUpstreamData, its error holding TEXT
//	exclusion: TASK ROW: TEXT the manifest lists row ROW of TASK, its reason holding TEXT
//	                          (a successful build lists exactly these), and the log has it
//	file: PATH                the snapshot holds PATH
//	nofile: PATH              the snapshot does not hold PATH
//	grep: PATH: TEXT          the snapshot's PATH holds TEXT
//	nogrep: PATH: TEXT        the snapshot's PATH does not hold TEXT
//	log: TEXT                 the build's log (text handler) holds TEXT
//	validate: TEXT            validate's own parse of the sources reports TEXT
//	                          (checked in validate/hostile_test.go)
type hostileWant struct{ kind, text string }

// loadHostile reads a fixture: base.txtar's files, replaced by the
// fixture's, then its edit section applied. An edit line is
// "[all] FILE OLD NEW", OLD and NEW Go-quoted strings; without "all", OLD
// must occur exactly once.
func loadHostile(t *testing.T, name string) *hostileCase {
	t.Helper()
	c := &hostileCase{files: map[string][]byte{}}
	var edits, want []byte
	for _, p := range []string{"base.txtar", name} {
		want = nil
		for _, f := range readTxtar(t, filepath.Join(hostileDir, p)) {
			switch f.Name {
			case "edit":
				edits = f.Data
			case "want":
				want = f.Data
			default:
				c.files[f.Name] = f.Data
			}
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(string(edits)), "\n") {
		if line == "" {
			continue
		}
		all := false
		if rest, ok := strings.CutPrefix(line, "all "); ok {
			all, line = true, rest
		}
		file, rest, _ := strings.Cut(line, " ")
		old, rest := unquotePrefix(t, line, rest)
		repl, rest := unquotePrefix(t, line, strings.TrimPrefix(rest, " "))
		data, ok := c.files[file]
		switch n := bytes.Count(data, old); {
		case rest != "" || !ok:
			t.Fatalf("%s: bad edit line %q", name, line)
		case n == 0 || n > 1 && !all:
			t.Fatalf("%s: edit %q: %q occurs %d times in %s", name, line, old, n, file)
		}
		c.files[file] = bytes.ReplaceAll(data, old, repl)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(want)), "\n") {
		kind, text, ok := strings.Cut(line, ": ")
		if !ok {
			t.Fatalf("%s: bad want line %q", name, line)
		}
		c.want = append(c.want, hostileWant{kind, text})
	}
	if len(c.want) == 0 {
		t.Fatalf("%s: no want section", name)
	}
	return c
}

// readTxtar returns a txtar archive's files, in order.
func readTxtar(t *testing.T, path string) []txtar.File {
	t.Helper()
	a, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return a.Files
}

func unquotePrefix(t *testing.T, line, s string) ([]byte, string) {
	t.Helper()
	q, err := strconv.QuotedPrefix(s)
	if err != nil {
		t.Fatalf("bad edit line %q: %v", line, err)
	}
	u, _ := strconv.Unquote(q)
	return []byte(u), s[len(q):]
}

func (c *hostileCase) wants(kind string) []string {
	var out []string
	for _, w := range c.want {
		if w.kind == kind {
			out = append(out, w.text)
		}
	}
	return out
}

// build lays the fixture's files out under lb and builds them into out as
// the snapshot of date; it returns the build's result, its log (text
// handler) and its error.
func (c *hostileCase) build(t *testing.T, lb, out, date string) (*build.Result, string, error) {
	t.Helper()
	for f, data := range c.files {
		p := filepath.Join(lb, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var logs bytes.Buffer
	res, err := build.Build(context.Background(), build.Options{
		Out: out, Date: date, Retrieved: snaptest.SeedFetched,
		Source: fetch.Dir{Leaderboard: lb, Ember: filepath.Join(lb, "ember.csv"), Origins: fetch.DefaultOrigins()},
		Logger: slog.New(slog.NewTextHandler(&logs, nil)),
	})
	return res, logs.String(), err
}

// TestHostileUpstream builds every fixture of testdata/hostile: each ends
// in a clear error of kind failure.ErrUpstreamData that names the source, row and
// field, with nothing written but the lock; or in a snapshot whose manifest
// lists (and whose log reports) the rows left out, and nothing else.
func TestHostileUpstream(t *testing.T) {
	names, err := filepath.Glob(filepath.Join(hostileDir, "*.txtar"))
	if err != nil || len(names) < 2 {
		t.Fatalf("fixtures: %v, %v", names, err)
	}
	for _, p := range names {
		name := filepath.Base(p)
		t.Run(strings.TrimSuffix(name, ".txtar"), func(t *testing.T) {
			t.Parallel()
			c := loadHostile(t, name)
			root := t.TempDir()
			out := filepath.Join(root, "out")
			res, logs, err := c.build(t, filepath.Join(root, "upstream"), out, snaptest.SeedDate)
			// Whatever happened, nothing was written outside the output folder
			// but what the test laid out, and in it nothing but the lock and
			// the snapshot.
			assertConfined(t, root, len(c.files))

			if wantErr := c.wants("error"); len(wantErr) > 0 {
				if err == nil {
					t.Fatalf("the build succeeded; want an error holding %q", wantErr)
				}
				if !errors.Is(err, failure.ErrUpstreamData) {
					t.Errorf("error is not failure.ErrUpstreamData: %v", err)
				}
				for _, w := range wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error does not hold %q:\n%v", w, err)
					}
				}
				snaptest.AssertEmpty(t, out)
				t.Logf("%v", err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkExclusions(t, c, res.Manifest, logs)
			for _, w := range c.want {
				switch w.kind {
				case "file", "nofile":
					_, err := os.Stat(filepath.Join(res.Dir, filepath.FromSlash(w.text)))
					if w.kind == "file" && err != nil {
						t.Errorf("the snapshot lacks %s: %v", w.text, err)
					}
					if w.kind == "nofile" && err == nil {
						t.Errorf("the snapshot holds %s", w.text)
					}
				case "grep", "nogrep":
					file, text, _ := strings.Cut(w.text, ": ")
					b, err := os.ReadFile(filepath.Join(res.Dir, filepath.FromSlash(file)))
					if err != nil {
						t.Errorf("%s: %v", file, err)
					} else if bytes.Contains(b, []byte(text)) != (w.kind == "grep") {
						t.Errorf("%s holds %q: %v; want %v", file, text, w.kind == "nogrep", w.kind == "grep")
					}
				case "log":
					if !strings.Contains(logs, w.text) {
						t.Errorf("the log does not hold %q:\n%s", w.text, logs)
					}
				case "exclusion", "validate":
				default:
					t.Errorf("unknown want %q", w.kind)
				}
			}
		})
	}
}

// checkExclusions: the manifest lists exactly the fixture's exclusions,
// each with its reason, and the log reports each.
func checkExclusions(t *testing.T, c *hostileCase, m *format.Manifest, logs string) {
	t.Helper()
	want := map[string]string{}
	for _, w := range c.wants("exclusion") {
		key, reason, ok := strings.Cut(w, ": ")
		if !ok {
			t.Fatalf("bad exclusion %q; want TASK ROW: REASON", w)
		}
		want[key] = reason
	}
	got := map[string]bool{}
	for _, e := range m.Exclusions {
		key := fmt.Sprintf("%s %d", e.Task, e.Row)
		got[key] = true
		reason, ok := want[key]
		switch {
		case !ok:
			t.Errorf("the manifest excludes %s (%s): %s", key, e.ModelID, e.Reason)
		case !strings.Contains(e.Reason, reason):
			t.Errorf("the manifest excludes %s for %q; want %q", key, e.Reason, reason)
		case !strings.Contains(logs, strconv.Quote(e.Reason)) && !strings.Contains(logs, "reason="+e.Reason):
			t.Errorf("the log does not report the exclusion of %s (%s):\n%s", key, e.Reason, logs)
		}
	}
	for key := range want {
		if !got[key] {
			t.Errorf("the manifest does not exclude %s", key)
		}
	}
}

// assertConfined checks that below root there is nothing but the n files
// the test laid out in root/upstream, and in root/out at most one snapshot
// folder, with the lock.
func assertConfined(t *testing.T, root string, n int) {
	t.Helper()
	var upstream int
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		switch {
		case rel == "." || rel == "out" || rel == "upstream" || parts[0] == "upstream" && d.IsDir():
		case parts[0] == "upstream":
			upstream++
		case len(parts) >= 2 && parts[0] == "out" && (parts[1] == store.LockFile || parts[1] == snaptest.SeedDate):
		default:
			t.Errorf("the build wrote %s", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if upstream != n {
		t.Errorf("%d files below upstream/, want the %d laid out", upstream, n)
	}
	// The lock stays beside a published snapshot; a failed build removes
	// the lock file it created.
	entries, _ := os.ReadDir(filepath.Join(root, "out"))
	lock := slices.ContainsFunc(entries, func(e os.DirEntry) bool { return e.Name() == store.LockFile })
	snap := slices.ContainsFunc(entries, func(e os.DirEntry) bool { return e.Name() == snaptest.SeedDate })
	if lock != snap {
		t.Errorf("the output folder holds a lock file: %v, a snapshot: %v; want both or neither", lock, snap)
	}
}
