package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/fetch/fetchtest"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/snapshots/store"
)

func TestVerifyAndDiffUsage(t *testing.T) {
	for _, tc := range []struct {
		name     string
		args     []string
		wantCode int
		want     string
	}{
		{"verify --help", []string{"verify", "--help"}, exitOK, "--json"},
		{"help verify", []string{"help", "verify"}, exitOK, "greentokens verify [--json] [--upstream] [DIR | URL/DATE]"},
		{"verify without a folder or an out folder", []string{"verify"}, exitUsage, "no snapshot folder given (DIR), and there is no out folder here"},
		{"verify with two folders", []string{"verify", "a", "b"}, exitUsage, "one snapshot folder"},
		{"verify bad flag", []string{"verify", "--nope", "a"}, exitUsage, "unknown flag: --nope"},
		{"verify a missing folder", []string{"verify", filepath.Join(t.TempDir(), "2026-01-01")}, exitUsage, "no such folder"},
		{"verify a folder without a manifest", []string{"verify", t.TempDir()}, exitUsage, "not a snapshot folder"},
		{"diff --help", []string{"diff", "--help"}, exitOK, "greentokens diff [--json] [--exit-code] [OLD [NEW]]"},
		{"diff with one folder and no out folder", []string{"diff", "a"}, exitUsage, "no snapshot folder given (NEW)"},
		{"diff a missing folder", []string{"diff", filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")}, exitUsage, "no such folder"},
		{"help lists verify", []string{"help"}, exitOK, "verify"},
		{"help lists diff", []string{"help"}, exitOK, "diff "},
		{"build --help names --allow-removal", []string{"build", "--help"}, exitOK, "--allow-removal NAME"},
		{"build --help names --allow-grid-shrink", []string{"build", "--help"}, exitOK, "--allow-grid-shrink"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tc.args...)
			if code != tc.wantCode {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.wantCode, stdout, stderr)
			}
			if !strings.Contains(stdout+stderr, tc.want) {
				t.Errorf("output does not say %q\nstdout: %s\nstderr: %s", tc.want, stdout, stderr)
			}
		})
	}
}

// copyTree copies a folder of regular files.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := os.CopyFS(to, os.DirFS(from))
	if err != nil {
		t.Fatal(err)
	}
}

// seedWithout copies the small leaderboard version with one model's Text
// Conversation rows removed.
func seedWithout(t *testing.T, modelID string) string {
	t.Helper()
	dir := t.TempDir()
	copyTree(t, smallLB(t), dir)
	p := filepath.Join(dir, "tasks", "lm-arena-chat.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	var keep []any
	for _, r := range v["configurations"].([]any) {
		if r.(map[string]any)["model_id"] != modelID {
			keep = append(keep, r)
		}
	}
	v["configurations"] = keep
	if b, err = json.MarshalIndent(v, "", "  "); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestVerifyDiffAndRemovalGuard goes through the command line: verify a
// fresh snapshot and a tampered copy; refuse a build that drops a model,
// then allow it; diff the two snapshots.
func TestVerifyDiffAndRemovalGuard(t *testing.T) {
	endToEnd(t)
	const earlier, later = "2026-09-20", "2026-09-27"
	out := t.TempDir()
	build := func(date, lb string, extra ...string) (int, string, string) {
		return runCLI(t, append([]string{"build", "--out", out, "--date", date, "--retrieved", "2026-09-19",
			"--from-leaderboard", lb, "--from-ember", ember}, extra...)...)
	}
	if code, _, stderr := build(earlier, smallLB(t)); code != exitOK {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	snapA := filepath.Join(out, earlier)

	// verify: a fresh build passes.
	code, stdout, stderr := runCLI(t, "verify", snapA)
	if code != exitOK || !strings.Contains(stdout, ": OK: ") {
		t.Fatalf("verify of a fresh build: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}

	// A tampered copy fails with exit 5, naming the file, row and field.
	tampered := filepath.Join(t.TempDir(), earlier)
	copyTree(t, snapA, tampered)
	mp := filepath.Join(tampered, "models", "qwen-3-32b.json")
	b, _ := os.ReadFile(mp)
	b = bytes.Replace(b, []byte(`"wh_per_million_output_tokens": 429.18`), []byte(`"wh_per_million_output_tokens": 429.19`), 1)
	os.WriteFile(mp, b, 0o644)
	code, stdout, stderr = runCLI(t, "verify", tampered)
	if code != exitValidation {
		t.Errorf("verify of a tampered snapshot: exit %d, want %d", code, exitValidation)
	}
	for _, want := range []string{"FAILED", "models/qwen-3-32b.json", "configurations[0] (qwen-3-32b/B200/1/8).wh_per_million_output_tokens: 429.19 -> 429.18"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("verify output does not say %q:\n%s", want, stdout)
		}
	}
	// One plain line on stderr, not a log record.
	if !strings.HasPrefix(stderr, "greentokens: validation failed: snapshot ") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr is not one plain line saying verify failed: %q", stderr)
	}
	t.Logf("verify of a tampered snapshot:\n%s", stdout)
	// The same in JSON (the flag may follow the folder).
	code, stdout, _ = runCLI(t, "verify", tampered, "--json")
	var rep struct {
		OK       bool              `json:"ok"`
		Problems []json.RawMessage `json:"problems"`
		Diffs    []struct {
			Path string `json:"path"`
		} `json:"diffs"`
	}
	rep.OK = true
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != exitValidation || rep.OK ||
		len(rep.Problems) == 0 || len(rep.Diffs) != 1 || rep.Diffs[0].Path != "models/qwen-3-32b.json" {
		t.Errorf("verify --json of a tampered snapshot: exit %d, %v, %+v", code, err, rep)
	}

	// A later build that drops Qwen 3 14B is refused (exit 6), naming it and
	// giving the diff summary; nothing is written for that date.
	const summary = "2 models (1 removed: qwen-3-14b), index rows unchanged"
	without := seedWithout(t, "Qwen/Qwen3-14B")
	code, _, stderr = build(later, without)
	if code != exitConflict {
		t.Errorf("a build dropping a model: exit %d, want %d\n%s", code, exitConflict, stderr)
	}
	for _, want := range []string{"qwen-3-14b (Qwen/Qwen3-14B)", "--allow-removal", summary} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(out, later)); !os.IsNotExist(err) {
		t.Errorf("a refused build wrote %s", later)
	}
	// Named, it may go; the summary is logged either way.
	code, _, stderr = build(later, without, "--allow-removal", "qwen-3-14b")
	if code != exitOK || !strings.Contains(stderr, summary) {
		t.Fatalf("--allow-removal qwen-3-14b: exit %d\n%s", code, stderr)
	}

	// diff: the summary comes first, in text and JSON.
	code, stdout, stderr = runCLI(t, "diff", snapA, filepath.Join(out, later))
	if code != exitOK || !strings.HasPrefix(stdout, summary+"\n") {
		t.Errorf("diff: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "removed: qwen-3-14b (Qwen/Qwen3-14B)") {
		t.Errorf("diff does not list the removed model:\n%s", stdout)
	}
	code, stdout, _ = runCLI(t, "diff", "--json", snapA, filepath.Join(out, later))
	var d struct {
		Summary string `json:"summary"`
		Models  struct {
			Removed []struct {
				Slug string `json:"slug"`
			} `json:"removed"`
		} `json:"models"`
	}
	if err := json.Unmarshal([]byte(stdout), &d); err != nil || code != exitOK || d.Summary != summary ||
		len(d.Models.Removed) != 1 || d.Models.Removed[0].Slug != "qwen-3-14b" {
		t.Errorf("diff --json: exit %d, %v, %+v", code, err, d)
	}
	// A tampered snapshot is not diffed.
	if code, _, stderr := runCLI(t, "diff", tampered, snapA); code != exitValidation || !strings.Contains(stderr, "models/qwen-3-32b.json") {
		t.Errorf("diff of a tampered snapshot: exit %d, want %d naming the file: %s", code, exitValidation, stderr)
	}
}

// TestGridShrinkFlag: a later build whose Ember file lists 7 areas where the
// earlier snapshot's grid.json has 226 stops with exit 6, naming the flag;
// --allow-grid-shrink lets it publish.
func TestGridShrinkFlag(t *testing.T) {
	endToEnd(t)
	out := t.TempDir()
	build := func(date, csv string, extra ...string) (int, string) {
		code, _, stderr := runCLI(t, append([]string{"build", "--out", out, "--date", date, "--retrieved", "2026-09-19",
			"--from-leaderboard", smallLB(t), "--from-ember", csv}, extra...)...)
		return code, stderr
	}
	if code, stderr := build("2026-09-20", ember); code != exitOK {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	code, stderr := build("2026-09-27", sevenGrids)
	if code != exitConflict {
		t.Errorf("a build losing 219 of 226 grid areas: exit %d, want %d\n%s", code, exitConflict, stderr)
	}
	for _, want := range []string{"it would list 7 areas, losing 219 of the 226 (more than 10%)", "--allow-grid-shrink"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "2026-09-27")); !os.IsNotExist(err) {
		t.Errorf("a refused build wrote its snapshot: %v", err)
	}
	if code, stderr := build("2026-09-27", sevenGrids, "--allow-grid-shrink"); code != exitOK {
		t.Errorf("--allow-grid-shrink: exit %d\n%s", code, stderr)
	}
}

// TestVerifyReproduction: verify prints the way to run the code that built
// a snapshot, through the module proxy and through a git clone, each line
// shell-quoted; a manifest whose generator is not in the shapes Go writes
// fails (exit 5) with the value quoted, and gets no line to paste.
func TestVerifyReproduction(t *testing.T) {
	built := buildAt(t, seedDate, ember)
	const rev = "0d1e2f3a4b5c6d7e8f90a1b2c3d4e5f60718293a"
	dir := filepath.Join(t.TempDir(), "green tokens; $(touch pwned)", seedDate)
	copyTree(t, built, dir)
	setGenerator(t, dir, format.Generator{Module: "github.com/leadgreen/greentokens", Version: "v0.0.0-20260926061500-0d1e2f3a4b5c", Revision: rev, Go: "go1.26.0"})
	code, stdout, stderr := runCLI(t, "verify", dir)
	quoted := "'" + dir + "'"
	for _, want := range []string{
		"    go run github.com/leadgreen/greentokens/cmd/greentokens@" + rev + " verify " + quoted + "\n",
		"    git clone https://github.com/leadgreen/greentokens && cd greentokens && git checkout " + rev +
			" && go run -buildvcs=true ./cmd/greentokens verify " + quoted + "\n",
	} {
		if code != exitOK || !strings.Contains(stdout, want) {
			t.Errorf("verify: exit %d, want 0 and the line %q\nstdout: %s\nstderr: %s", code, want, stdout, stderr)
		}
	}

	setGenerator(t, dir, format.Generator{Module: "github.com/leadgreen/greentokens", Version: "v1.0.0 verify x; touch pwned; true", Go: "go1.26.0"})
	code, stdout, stderr = runCLI(t, "verify", dir)
	if want := `manifest.json: generator: version is "v1.0.0 verify x; touch pwned; true", not a module version`; code != exitValidation || !strings.Contains(stdout, want) {
		t.Errorf("verify of a command for a version: exit %d, want %d and %q\nstdout: %s\nstderr: %s", code, exitValidation, want, stdout, stderr)
	}
	if strings.Contains(stdout, "go run") || !strings.Contains(stdout, "not in the shapes Go writes") {
		t.Errorf("verify of a command for a version prints a command to paste, or not why none:\n%s", stdout)
	}
}

// TestVerifyUpstream: verify --upstream fetches each archived source again
// from the URLs its flags give (here a fake upstream on 127.0.0.1: the
// leaderboard at the recorded commit, GitHub's list of commits, Ember's
// CSV), exit 0 when upstream gives the archived bytes, 5 naming the file,
// both sha256 and the URL when it does not; its flags need --upstream, and
// plain http --allow-http.
func TestVerifyUpstream(t *testing.T) {
	dir := buildAt(t, seedDate, ember)
	rel, err := store.Open(context.Background(), regfile.DirFS(dir), dir)
	if err != nil {
		t.Fatal(err)
	}
	commit := rel.Manifest.Evidence.LastCommitSHA
	lb := filepath.Join(dir, "sources", "leaderboard")
	s := fetchtest.NewServer(t, lb)
	s.MapDir("/"+commit+"/public/data/", lb)
	s.Map(fetchtest.EmberPath, filepath.Join(dir, "sources", "ember", "yearly_full_release_long_format.csv"))
	args := []string{"verify", "--upstream", "--allow-http", "--leaderboard-url", s.URL + "/{commit}/public/data/",
		"--github-api-url", s.URL, "--ember-url", s.URL + fetchtest.EmberPath, dir}

	code, stdout, stderr := runCLI(t, args...)
	if code != exitOK || !strings.Contains(stdout, "Fetched again from upstream") || strings.Count(stdout, ": the same as ") != 10 {
		t.Fatalf("verify --upstream: exit %d, want 0 and 10 sources the same\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}

	changed := filepath.Join(t.TempDir(), "lm-arena-chat.json")
	b, err := os.ReadFile(filepath.Join(lb, "tasks", "lm-arena-chat.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(changed, bytes.Replace(b, []byte(`"Qwen/Qwen3-32B"`), []byte(`"Qwen/Qwen3-32B-x"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	s.Map("/"+commit+"/public/data/tasks/lm-arena-chat.json", changed)
	code, stdout, stderr = runCLI(t, append([]string{"verify", "--json"}, args[1:]...)...)
	var rep struct {
		OK       bool `json:"ok"`
		Upstream []struct {
			Path, URL string
			Stored    string `json:"stored_sha256"`
			Fetched   string `json:"fetched_sha256"`
			Same      bool
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != exitValidation || rep.OK {
		t.Fatalf("verify --upstream of a changed task file: exit %d, want %d; %v\nstdout: %s\nstderr: %s", code, exitValidation, err, stdout, stderr)
	}
	code, text, _ := runCLI(t, args...)
	found := false
	for _, f := range rep.Upstream {
		if f.Path != "sources/leaderboard/tasks/lm-arena-chat.json" {
			continue
		}
		found = true
		want := f.Path + ": DIFFERS from " + s.URL + "/" + commit + "/public/data/tasks/lm-arena-chat.json (commit " + commit + "): " + f.Stored + " -> " + f.Fetched
		if f.Same || f.Stored == f.Fetched || code != exitValidation || !strings.Contains(text, want) {
			t.Errorf("exit %d; the text report does not say %q:\n%s", code, want, text)
		}
	}
	if !found {
		t.Errorf("the JSON report lists no lm-arena-chat.json: %+v", rep.Upstream)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"verify", "--ember-url", s.URL, dir}, "--ember-url is an option of --upstream"},
		{[]string{"verify", "--upstream", "--github-api-url", s.URL, dir}, "is plain http; only https is fetched unless --allow-http"},
	} {
		if code, _, stderr := runCLI(t, tc.args...); code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, want %d and %q: %s", tc.args, code, exitUsage, tc.want, stderr)
		}
	}
}
