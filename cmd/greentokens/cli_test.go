package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/internal/versitygw"

	"github.com/leadgreen/greentokens/fetch/fetchtest"
	"github.com/leadgreen/greentokens/internal/sample"
)

// The seeds' leaderboard version and Ember's values, from the repository's
// sample, and the seeds' dates.
var (
	seedLB = sample.Leaderboard()
	ember  = sample.Ember()
)

// smallLB is the seeds' version cut to eight models (sample.SmallLeaderboard):
// the leaderboard of the tests of what a snapshot's size does not change.
func smallLB(t testing.TB) string {
	t.Helper()
	return sample.SmallLeaderboard(t)
}

const (
	seedDate   = sample.SeedDate
	seedReadOn = sample.SeedRetrieved
)

// endToEnd skips under -short (make test) a test that runs whole commands
// over and over (over several releases, a bucket, every value of a flag,
// every grid name): make scale runs it, with the rest.
func endToEnd(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("an end-to-end case of whole commands: in make scale, not under -short")
	}
}

// runCLI runs the command line and returns its exit code and output.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestUsageAndHelp(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "ember.csv")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		args     []string
		wantCode int
		want     string
	}{
		{"no command", nil, exitUsage, "Available Commands:"},
		{"help", []string{"help"}, exitOK, "Exit codes:"},
		{"--help", []string{"--help"}, exitOK, "Available Commands:"},
		{"unknown command", []string{"deploy"}, exitUsage, `unknown command "deploy"`},
		{"build --help", []string{"build", "--help"}, exitOK, "--from-leaderboard DIR"},
		{"help build", []string{"help", "build"}, exitOK, "--retrieved string"},
		{"bad flag", []string{"build", "--nope"}, exitUsage, "unknown flag: --nope"},
		{"mistyped flag", []string{"build", "--retreived", "2026-01-01"}, exitUsage, "did you mean --retries or --retrieved?"},
		{"mistyped command", []string{"verfy"}, exitUsage, `unknown command "verfy"; did you mean verify?`},
		{"help of a mistyped command", []string{"help", "verfy"}, exitUsage, `unknown help topic "verfy" (want build, carbon, `},
		{"help of a mistyped command suggests", []string{"help", "verfy"}, exitUsage, "; did you mean verify?"},
		{"help of a subcommand", []string{"help", "completion", "zsh"}, exitOK, "greentokens completion zsh"},
		{"help of an unknown subcommand", []string{"help", "completion", "tcsh"}, exitUsage, `unknown help topic "tcsh" of completion (want bash, fish, powershell, zsh)`},
		{"completion of an unknown shell", []string{"completion", "zhs"}, exitUsage, `unknown shell "zhs" of completion (want bash, fish, powershell, zsh); did you mean zsh?`},
		{"completion without a shell", []string{"completion"}, exitUsage, "completion needs a shell: bash, fish, powershell, zsh"},
		{"flag after arguments", []string{"carbon", "qwen-3-32b", "--snapshot", "/nonexistent/x"}, exitUsage, "--snapshot /nonexistent/x: no such folder"},
		{"one argument of two, no out folder", []string{"diff", "/nonexistent/x"}, exitUsage, "no snapshot folder given (NEW), and there is no out folder here to take the newest snapshot from"},
		{"three arguments of two", []string{"diff", "a", "b", "c"}, exitUsage, "got 3 arguments\n"},
		{"--from is not a sources folder", []string{"build", "--from", "/nonexistent", "--retrieved", seedReadOn, "--date", seedDate}, exitUsage, "--from wants a snapshot's sources/ folder"},
		{"--from with --from-leaderboard", []string{"build", "--from", "x", "--from-leaderboard", smallLB(t), "--retrieved", seedReadOn}, exitUsage, "give it alone"},
		{"--from-leaderboard not a folder", []string{"build", "--from-leaderboard", "/nonexistent", "--no-grid", "--retrieved", seedReadOn, "--date", seedDate}, exitUsage, "not a leaderboard folder"},
		{"--from-ember a named pipe", []string{"build", "--from-leaderboard", smallLB(t), "--from-ember", fifo, "--retrieved", seedReadOn, "--date", seedDate, "--out", t.TempDir()}, exitUsage, "--from-ember " + fifo + " is not a file"},
		{"--grid-year not a year", []string{"build", "--grid-year", "24"}, exitUsage, "not a year"},
		{"--grid-year not a number", []string{"build", "--grid-year", "last"}, exitUsage, `invalid argument "last" for "--grid-year" flag: "last" is not a year (YYYY)`},
		{"--grid-year in hexadecimal", []string{"build", "--grid-year", "0x7e8"}, exitUsage, `"0x7e8" is not a year`},
		{"--grid-year with a leading zero", []string{"build", "--grid-year", "0024"}, exitUsage, `"0024" is not a year`},
		{"--grid-year signed", []string{"build", "--grid-year", "+2024"}, exitUsage, `"+2024" is not a year`},
		{"list --year not a year", []string{"list", "grids", "--year", "24"}, exitUsage, `"24" is not a year`},
		{"--retrieved after --date", []string{"build", "--date", "2026-09-01", "--retrieved", "2026-09-02", "--from-leaderboard", smallLB(t), "--no-grid"}, exitUsage, "after --date"},
		{"--date far ahead", []string{"build", "--date", "2999-01-01"}, exitUsage, "in the future"},
		{"upstream compiled after the retrieval date", []string{"build", "--out", t.TempDir(), "--date", "2025-06-01", "--retrieved", "2025-06-01", "--from-leaderboard", smallLB(t), "--no-grid"}, exitUsage, "after the retrieval date 2025-06-01"},
		{"plain http names --allow-http", []string{"build", "--ember-url", "http://127.0.0.1:1/x.csv"}, exitUsage, "--allow-http"},
		{"stray argument", []string{"build", "extra"}, exitUsage, "takes no arguments"},
		{"--allow-redirect-host a URL", []string{"build", "--allow-redirect-host", "https://cdn.example.org/x"}, exitUsage, `--allow-redirect-host "https://cdn.example.org/x" is not a host`},
		{"--allow-redirect-host empty", []string{"build", "--allow-redirect-host", ""}, exitUsage, "is not a host"},
		{"bad date", []string{"build", "--date", "2026-13-01", "--from-leaderboard", smallLB(t), "--no-grid", "--retrieved", seedReadOn, "--out", t.TempDir()}, exitUsage, "not a YYYY-MM-DD date"},
		{"local source without --retrieved", []string{"build", "--from-leaderboard", smallLB(t), "--no-grid"}, exitUsage, "--retrieved"},
		{"local leaderboard, Ember from the network", []string{"build", "--from-leaderboard", smallLB(t), "--retrieved", seedReadOn}, exitUsage, "--from-ember"},
		{"local Ember, leaderboard from the network", []string{"build", "--from-ember", ember, "--retrieved", seedReadOn}, exitUsage, "--from-leaderboard"},
		{"negative retries", []string{"build", "--retries", "-1"}, exitUsage, "--retries"},
		{"zero timeout", []string{"build", "--timeout", "0s"}, exitUsage, "--timeout"},
		{"zero deadline", []string{"build", "--deadline", "0s"}, exitUsage, "--deadline"},
		{"zero cap", []string{"build", "--max-json-mib", "0"}, exitUsage, "--max-json-mib"},
		{"negative lock timeout", []string{"build", "--lock-timeout", "-1s"}, exitUsage, "--lock-timeout"},
		{"bad log format", []string{"build", "--log-format", "xml"}, exitUsage, "--log-format"},
		{"line break in the Ember release", []string{"build", "--ember-release", "June 2026\n# Injected"}, exitUsage, "holds the control character U+000A at byte 9"},
		{"escape sequence in the Ember release", []string{"build", "--ember-release", "June\x1b[31m"}, exitUsage, "control character U+001B"},
		{"Ember release not UTF-8", []string{"build", "--ember-release", "June \xff"}, exitUsage, "is not UTF-8 text"},
		{"bidi override in the Ember release", []string{"build", "--ember-release", "June \u202e6202"}, exitUsage, "holds the invisible character U+202E at byte 5"},
		{"NEL in the Ember release", []string{"build", "--ember-release", "June\u00852026"}, exitUsage, "holds the control character U+0085 at byte 4"},
		{"Ember release spelt as none", []string{"build", "--ember-release", "Not stated"}, exitUsage, `--ember-release "Not stated" is another spelling of "not stated"`},
		{"Ember release spelt as none, with spaces", []string{"build", "--ember-release", " not stated "}, exitUsage, "leave the flag out"},
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

// TestHelpEveryCommand: every command's help, however asked for, goes to
// stdout with exit 0 and nothing on stderr.
func TestHelpEveryCommand(t *testing.T) {
	var names []string
	for _, c := range newRoot(&env{}).Commands() {
		names = append(names, c.Name())
	}
	if len(names) < 11 {
		t.Fatalf("only %d commands: %q", len(names), names)
	}
	for _, name := range append(names, "completion bash", "completion zsh", "completion fish") {
		cmd := strings.Fields(name)
		for _, args := range [][]string{append(cmd, "--help"), append([]string{"help"}, cmd...), append(cmd, "-h")} {
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				code, stdout, stderr := runCLI(t, args...)
				if code != exitOK || stderr != "" || !strings.Contains(stdout, "Usage:\n  greentokens "+cmd[0]) {
					t.Errorf("exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
				}
			})
		}
	}
}

func TestBuildOffline(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := runCLI(t, "build", "--out", out, "--date", seedDate, "--retrieved", seedReadOn, "--from-leaderboard", seedLB, "--from-ember", ember)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got, _ := os.ReadFile(filepath.Join(out, seedDate, "models", "qwen-3-32b.json"))
	want, _ := os.ReadFile(sample.Seed("qwen-3-32b.json"))
	if len(want) == 0 || !bytes.Equal(got, want) {
		t.Errorf("the built qwen-3-32b.json is not the seed")
	}
	if !strings.Contains(stdout, "written") {
		t.Errorf("stdout %q does not say the snapshot was written", stdout)
	}
	// Local files: no server answered, so no source has a final_url.
	if m, _ := os.ReadFile(filepath.Join(out, seedDate, "manifest.json")); strings.Contains(string(m), "final_url") {
		t.Errorf("an offline build's manifest records a final_url")
	}

	// The same build again (of the small version, as what follows) is a
	// success that says nothing changed.
	out = t.TempDir()
	args := []string{"build", "--out", out, "--date", seedDate, "--retrieved", seedReadOn, "--from-leaderboard", smallLB(t), "--from-ember", ember}
	if code, _, stderr := runCLI(t, args...); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	built, _ := os.ReadFile(filepath.Join(out, seedDate, "models", "qwen-3-32b.json"))
	code, stdout, _ = runCLI(t, args...)
	if code != exitOK || !strings.Contains(stdout, "identical") {
		t.Errorf("rebuild: exit %d, %q; want 0 and a note that it is identical", code, stdout)
	}
	// A snapshot's sources/ folder is a --from folder: the same build again.
	other := t.TempDir()
	code, _, stderr = runCLI(t, "build", "--out", other, "--date", seedDate, "--retrieved", seedReadOn,
		"--from", filepath.Join(out, seedDate, "sources"))
	if code != exitOK {
		t.Fatalf("build --from sources/: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "greentokens rebuild DIR --out FOLDER") {
		t.Errorf("build --from without --grid-year does not point to rebuild:\n%s", stderr)
	}
	again, _ := os.ReadFile(filepath.Join(other, seedDate, "models", "qwen-3-32b.json"))
	if len(built) == 0 || !bytes.Equal(again, built) {
		t.Errorf("a build from the snapshot's sources/ gives another qwen-3-32b.json")
	}
	// Other data for the same date (other grid values) is an output conflict.
	code, _, stderr = runCLI(t, "build", "--out", out, "--date", seedDate, "--retrieved", seedReadOn,
		"--from-leaderboard", smallLB(t), "--from-ember", kosovoGrids)
	if code != exitConflict || !strings.Contains(stderr, "--replace") {
		t.Errorf("conflicting build: exit %d, want %d naming --replace; stderr: %s", code, exitConflict, stderr)
	}
}

func TestBuildOverHTTP(t *testing.T) {
	endToEnd(t)
	srv := fetchtest.NewServer(t, smallLB(t))
	srv.Map(fetchtest.EmberPath, ember)
	origins := srv.Origins()
	base := []string{"build", "--date", seedDate, "--allow-http", "--log-format", "json",
		"--leaderboard-url", origins.LeaderboardBase, "--github-api-url", origins.GitHubAPI, "--ember-url", origins.EmberURL}

	t.Run("success", func(t *testing.T) { testBuildOverHTTPSucceeds(t, srv, base) })
	t.Run("a redirect to another host: refused, then followed with --allow-redirect-host", func(t *testing.T) {
		cdn := fetchtest.NewServer(t, smallLB(t))
		cdn.Map("/cdn/ember.csv", ember)
		target := cdn.URL + "/cdn/ember.csv"
		srv.Fault(fetchtest.EmberPath, fetchtest.Fault{Redirect: target, Status: 302})
		t.Cleanup(func() { srv.ClearFaults(fetchtest.EmberPath) })
		host := strings.TrimPrefix(cdn.URL, "http://")
		out := t.TempDir()
		code, _, stderr := runCLI(t, append(base, "--out", out)...)
		if code != exitUpstream || !strings.Contains(stderr, "--allow-redirect-host "+host) {
			t.Errorf("exit %d, want %d naming --allow-redirect-host %s; stderr: %s", code, exitUpstream, host, stderr)
		}
		assertNoSnapshot(t, out)
		if code, _, stderr := runCLI(t, append(base, "--out", out, "--allow-redirect-host", host)...); code != exitOK {
			t.Fatalf("with --allow-redirect-host: exit %d: %s", code, stderr)
		}
		b, err := os.ReadFile(filepath.Join(out, seedDate, "manifest.json"))
		if err != nil || !bytes.Contains(b, []byte(`"final_url": "`+target+`"`)) {
			t.Errorf("the manifest does not record Ember's final_url %s (%v)", target, err)
		}
		// verify, offline, reproduces it without the flag.
		if code, stdout, stderr := runCLI(t, "verify", filepath.Join(out, seedDate)); code != exitOK {
			t.Errorf("verify: exit %d\n%s%s", code, stdout, stderr)
		}
	})
	t.Run("http refused without --allow-http", func(t *testing.T) {
		out := t.TempDir()
		var args []string
		for _, a := range base {
			if a != "--allow-http" {
				args = append(args, a)
			}
		}
		code, _, stderr := runCLI(t, append(args, "--out", out)...)
		if code != exitUsage || !strings.Contains(stderr, "--allow-http") {
			t.Errorf("exit %d, want %d naming --allow-http; stderr: %s", code, exitUsage, stderr)
		}
		assertNoSnapshot(t, out)
	})
	t.Run("404 is upstream unreachable", func(t *testing.T) {
		out := t.TempDir()
		srv.Fault(fetchtest.LeaderboardPrefix+"tasks/gpqa.json", fetchtest.Fault{Status: 404})
		t.Cleanup(func() { srv.ClearFaults(fetchtest.LeaderboardPrefix + "tasks/gpqa.json") })
		code, _, stderr := runCLI(t, append(base, "--out", out)...)
		if code != exitUpstream || !strings.Contains(stderr, "gpqa.json") || !strings.Contains(stderr, "404") {
			t.Errorf("exit %d, want %d naming the URL and 404; stderr: %s", code, exitUpstream, stderr)
		}
		assertNoSnapshot(t, out)
	})
	for name, tc := range map[string]struct {
		fault fetchtest.Fault
		flags []string
		want  string
	}{
		"Ember CSV dropped mid-body": {fault: fetchtest.Fault{Drop: 100_000}},
		"Ember CSV cut short":        {fault: fetchtest.Fault{Truncate: 100_000}},
		"Ember CSV trickling past --deadline": {
			fault: fetchtest.Fault{DripBytes: 1024, DripEvery: 5 * time.Millisecond}, // 670 KB: over 3 s
			flags: []string{"--deadline", "300ms"},
			want:  "the download of Ember's yearly CSV did not end within its 300ms deadline (--deadline); ",
		},
	} {
		t.Run(name, func(t *testing.T) {
			out := t.TempDir()
			srv.Fault(fetchtest.EmberPath, tc.fault)
			t.Cleanup(func() { srv.ClearFaults(fetchtest.EmberPath) })
			code, _, stderr := runCLI(t, append(append(base, "--out", out), tc.flags...)...)
			if code != exitUpstream || !strings.Contains(stderr, fetchtest.EmberPath) || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, want %d naming the URL and %q; stderr: %s", code, exitUpstream, tc.want, stderr)
			}
			assertNoSnapshot(t, out)
		})
	}
	t.Run("HTML page is upstream data invalid", func(t *testing.T) {
		out := t.TempDir()
		srv.Fault(fetchtest.LeaderboardPrefix+"index.json", fetchtest.Fault{Body: []byte(fetchtest.HTMLPage)})
		t.Cleanup(func() { srv.ClearFaults(fetchtest.LeaderboardPrefix + "index.json") })
		code, _, stderr := runCLI(t, append(base, "--out", out)...)
		if code != exitUpstreamBad || !strings.Contains(stderr, "index.json") || !strings.Contains(stderr, "not JSON") {
			t.Errorf("exit %d, want %d naming the URL; stderr: %s", code, exitUpstreamBad, stderr)
		}
		assertNoSnapshot(t, out)
	})
}

// testBuildOverHTTPSucceeds builds from srv, Ember's URL redirecting to a
// mirror on the same host, and checks the manifest's URLs and the log.
func testBuildOverHTTPSucceeds(t *testing.T, srv *fetchtest.Server, base []string) {
	out, origins := t.TempDir(), srv.Origins()
	// Ember's URL redirects to a mirror on the same host, by a signed
	// link: its query is not recorded (final_url), and verify
	// reproduces the manifest so.
	srv.Map("/mirror/ember.csv", ember)
	srv.Fault(fetchtest.EmberPath, fetchtest.Fault{Redirect: "/mirror/ember.csv?X-Amz-Signature=secret&Expires=1", Status: 301})
	t.Cleanup(func() { srv.ClearFaults(fetchtest.EmberPath) })
	code, _, stderr := runCLI(t, append(base, "--out", out)...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, seedDate, "models", "qwen-3-32b.json")); err != nil {
		t.Error(err)
	}
	// The manifest records the URL asked for and the URL that answered.
	var m struct {
		Sources []struct {
			Name     string `json:"name"`
			URL      string `json:"url"`
			FinalURL string `json:"final_url"`
		}
	}
	if b, err := os.ReadFile(filepath.Join(out, seedDate, "manifest.json")); err != nil || json.Unmarshal(b, &m) != nil {
		t.Fatalf("reading the manifest: %v", err)
	}
	for _, s := range m.Sources {
		want := s.URL
		if s.Name == "ember/yearly_full_release_long_format.csv" {
			want = srv.URL + "/mirror/ember.csv"
			if s.URL != origins.EmberURL {
				t.Errorf("Ember's url is %q, want the URL asked for, %q", s.URL, origins.EmberURL)
			}
		}
		if s.FinalURL != want {
			t.Errorf("%s: final_url %q, want %q", s.Name, s.FinalURL, want)
		}
	}
	// verify reproduces the manifest, final_url included.
	if code, stdout, stderr := runCLI(t, "verify", filepath.Join(out, seedDate)); code != exitOK {
		t.Errorf("verify: exit %d\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, `"url":"`+origins.LeaderboardBase+`tasks/lm-arena-chat.json"`) {
		t.Errorf("the JSON log does not record the fetch of the task file:\n%s", stderr)
	}
}

// assertNoSnapshot checks that a failed build into the empty folder out
// left nothing there, not even the lock file it created.
func assertNoSnapshot(t *testing.T, out string) {
	t.Helper()
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		t.Errorf("a failed build left %s", e.Name())
	}
}

func TestExitCode(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, exitOK},
		{"usage", usagef("x"), exitUsage},
		{"wrapped usage", fmt.Errorf("a: %w", failure.ErrUsage), exitUsage},
		{"interrupted verify is not a failed check", fmt.Errorf("%w: verify x did not finish: %w", failure.ErrInterrupted, context.Canceled), exitFailure},
		{"validation", fmt.Errorf("%w: x", failure.ErrValidation), exitValidation},
		{"conflict", fmt.Errorf("%w: x", failure.ErrConflict), exitConflict},
		{"upstream data", fmt.Errorf("%w: x", failure.ErrUpstreamData), exitUpstreamBad},
		{"upstream", fmt.Errorf("%w: x", failure.ErrUpstream), exitUpstream},
		{"diff --exit-code", exitStatus(exitFailure), exitFailure},
		{"other", errors.New("x"), exitFailure},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := exitCode(tc.err); got != tc.want {
				t.Errorf("exitCode(%v) = %d, want %d", tc.err, got, tc.want)
			}
		})
	}
}

// TestMain fails the run when a test wrote into the source tree: any new
// entry in this folder (the default output folder out/ above all). It
// stops the S3 tests' gateway, if they started it.
func TestMain(m *testing.M) {
	before := listing()
	code := sample.Run(m)
	versitygw.Stop()
	if root, err := sharedRoot(); err == nil {
		os.RemoveAll(root)
	}
	for name := range listing() {
		if !before[name] {
			fmt.Fprintf(os.Stderr, "a test wrote %s into the source tree\n", name)
			code = 1
		}
	}
	os.Exit(code)
}

// listing is the names in the package folder.
func listing() map[string]bool {
	entries, _ := os.ReadDir(".")
	names := map[string]bool{}
	for _, e := range entries {
		names[e.Name()] = true
	}
	return names
}

// TestCheckDates: a --date at most a day ahead of today (UTC), and a
// --retrieved not after --date.
func TestCheckDates(t *testing.T) {
	now := time.Date(2026, 11, 30, 23, 59, 0, 0, time.FixedZone("UTC+14", 14*3600)) // 2026-11-30T09:59Z
	for _, tc := range []struct {
		date, retrieved string
		want            string // "" for no error
	}{
		{"2026-11-30", "", ""},
		{"2026-12-01", "2026-12-01", ""},
		{"2026-12-02", "", "--date 2026-12-02 is more than a day in the future (today is 2026-11-30 UTC)"},
		{"2026-09-27", "2026-09-26", ""},
		{"2026-09-27", "2026-09-27", ""},
		{"2026-09-27", "2026-09-28", "--retrieved 2026-09-28 is after --date 2026-09-27"},
		{"2026-9-27", "", `--date "2026-9-27" is not a YYYY-MM-DD date`},
		{"2026-09-27", "yesterday", `--retrieved "yesterday" is not a YYYY-MM-DD date`},
	} {
		err := checkDates(tc.date, tc.retrieved, now)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s, %s: %v", tc.date, tc.retrieved, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || exitCode(err) != exitUsage):
			t.Errorf("%s, %s: error %v (exit %d), want exit 2 saying %q", tc.date, tc.retrieved, err, exitCode(err), tc.want)
		}
	}
}

// TestGoLine: go.mod's go line is the minimum the code needs, a language
// version or its first release (1.26 or 1.26.0, which every 1.26 toolchain
// satisfies; a later patch release would make an older 1.26 toolchain
// download another), and the README's prerequisite says the same.
func TestGoLine(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var line string
	for l := range strings.Lines(string(mod)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "go "); ok {
			line = v
		}
	}
	if strings.Count(strings.TrimSuffix(line, ".0"), ".") != 1 {
		t.Errorf("go.mod: go %q, want a language version such as 1.26 or its first release, 1.26.0 (no later patch release)", line)
	}
	if !strings.Contains(string(readme), "Go "+line+" or newer (go.mod's `go "+line+"`") {
		t.Errorf("README's prerequisite does not say Go %s or newer", line)
	}
}

func TestIsHost(t *testing.T) {
	for h, want := range map[string]bool{
		"cdn.example.org": true, "CDN.Example.org": true, "cdn.example.org:8443": true, "127.0.0.1:9000": true,
		"[::1]": true, "[::1]:8443": true, "xn--bcher-kva.example": true,
		"": false, "https://cdn.example.org": false, "cdn.example.org/x": false, "user@cdn.example.org": false,
		"cdn.example.org:": false, "cdn.example.org:0": false, "cdn.example.org:99999": false, "cdn.example.org:http": false,
		"*.example.org": false, "::1": false, "[not-ip]:80": false, "cdn example.org": false, "cdn.example.org?x": false,
	} {
		if got := isHost(h); got != want {
			t.Errorf("isHost(%q) = %v, want %v", h, got, want)
		}
	}
}
