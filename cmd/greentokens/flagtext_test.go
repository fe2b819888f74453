package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/internal/printable"
)

// controlSnapshot builds the seed snapshot from upstream text carrying
// control characters: Qwen 3 14B's nickname holds an escape sequence, a
// tab, a carriage return, a NUL, a bidi override (U+202E) and NEL
// (U+0085), and Germany's and Kosovo's names (Kosovo has values for 2025 and
// 2026 only) an escape sequence. It returns the snapshot's folder.
func controlSnapshot(t *testing.T) string {
	t.Helper()
	lb := t.TempDir()
	files, _ := filepath.Glob(filepath.Join(smallLB(t), "tasks", "*.json"))
	for i, f := range files {
		files[i] = "tasks/" + filepath.Base(f)
	}
	for _, f := range append([]string{"index.json", "commits.json"}, files...) {
		b, err := os.ReadFile(filepath.Join(smallLB(t), f))
		if err != nil {
			t.Fatal(err)
		}
		b = []byte(strings.ReplaceAll(string(b), `"Qwen 3 14B"`, `"Qwen \u001b[31m3\t14B\r\u0000\u202e\u0085"`))
		if err := os.MkdirAll(filepath.Dir(filepath.Join(lb, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(lb, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	grids, err := os.ReadFile(kosovoGrids)
	if err != nil {
		t.Fatal(err)
	}
	emberCSV := filepath.Join(t.TempDir(), "ember.csv")
	if err := os.WriteFile(emberCSV, []byte(strings.NewReplacer("Germany,", "\"Ger\x1b[2Jmany\",", "Kosovo,", "\"Kos\x1b[2Jovo\",").Replace(string(grids))), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if code, _, stderr := runCLI(t, "build", "--out", out, "--date", seedDate, "--retrieved", seedReadOn,
		"--from-leaderboard", lb, "--from-ember", emberCSV); code != exitOK {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	return filepath.Join(out, seedDate)
}

// TestTablesShowNoControlCharacters: upstream text may carry control
// characters (a nickname is data, published as is in the JSON files); the
// tables of list and carbon show each escaped (printable.String: \x1b,
// \t, \u202e), so that an escape sequence never reaches the operator's
// terminal and a tab never breaks a column; their --json keeps the text,
// escaped by JSON, with nothing raw.
func TestTablesShowNoControlCharacters(t *testing.T) {
	endToEnd(t)
	dir := controlSnapshot(t)
	for _, args := range [][]string{
		{"list", "models", "--snapshot", dir},
		{"list", "grids", "--snapshot", dir},
		{"carbon", "--snapshot", dir, "Qwen/Qwen3-14B", "DEU"},
	} {
		code, stdout, stderr := runCLI(t, args...)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", args, code, stderr)
		}
		if stdout != printable.Lines(stdout) {
			t.Errorf("%s prints a control character:\n%q", args, stdout)
		}
		if want := `Qwen \x1b[31m3\t14B\r\x00\u202e\u0085`; args[0] != "list" || args[1] != "grids" {
			if !strings.Contains(stdout, want) {
				t.Errorf("%s does not show the name escaped, %s:\n%s", args, want, stdout)
			}
		} else if !strings.Contains(stdout, `Ger\x1b[2Jmany`) {
			t.Errorf("%s does not show the area escaped:\n%s", args, stdout)
		}
		jsonArgs := append(slices.Clone(args), "--json")
		code, stdout, stderr = runCLI(t, jsonArgs...)
		if code != exitOK || stdout != printable.Lines(stdout) || !json.Valid([]byte(stdout)) {
			t.Errorf("%s: exit %d, %s; want valid JSON with nothing raw:\n%q", jsonArgs, code, stderr, stdout)
		}
	}
}

// TestDiffAndErrorsShowNoControlCharacters: diff's text report and the
// error lines (a nearest model, an area of the archived Ember CSV) show
// upstream text with each control character escaped; diff --json keeps
// it, escaped by JSON.
func TestDiffAndErrorsShowNoControlCharacters(t *testing.T) {
	endToEnd(t)
	dir := controlSnapshot(t)
	old := t.TempDir()
	if code, _, stderr := runCLI(t, "build", "--out", old, "--date", seedDate, "--retrieved", seedReadOn,
		"--from-leaderboard", smallLB(t), "--from-ember", kosovoGrids); code != exitOK {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string // in the output shown, the controls escaped
	}{
		{"diff", []string{"diff", filepath.Join(old, seedDate), dir}, exitOK, `renamed Germany -> Ger\x1b[2Jmany (DEU)`},
		{"nearest model", []string{"carbon", "--snapshot", dir, "Qwen 3 14"}, exitUsage, "did you mean"},
		{"area of another year", []string{"carbon", "--snapshot", dir, "qwen-31m3-14b", "kos2jovo"}, exitUsage, `Kos\x1b[2Jovo for 2025-2026`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, stderr)
			}
			shown := stdout + stderr
			if shown != printable.Lines(shown) {
				t.Errorf("prints a control character:\n%q", shown)
			}
			if !strings.Contains(shown, tc.want) {
				t.Errorf("does not show %q:\n%s", tc.want, shown)
			}
		})
	}
	code, stdout, stderr := runCLI(t, "diff", "--json", filepath.Join(old, seedDate), dir)
	if code != exitOK || !strings.Contains(stdout, `"Ger\u001b[2Jmany"`) || stdout != printable.Lines(stdout) {
		t.Errorf("diff --json: exit %d, %s; want the area name escaped by JSON:\n%s", code, stderr, stdout)
	}
}

// TestLogsShowNoControlCharacters: both log formats show upstream text
// escaped, the text handler by quoting it, the JSON one with the same
// values and nothing raw (the JSON handler alone writes DEL, the C1
// controls and bidi overrides as they are).
func TestLogsShowNoControlCharacters(t *testing.T) {
	const hostile = "a\x1b[31mb\rc\x00d\u202ee\u0085f\u009b2J\x7f\nlevel=ERROR msg=forged"
	for _, format := range []string{"text", "json"} {
		var stderr strings.Builder
		e := &env{stderr: &stderr}
		if err := setLogger(e, format); err != nil {
			t.Fatal(err)
		}
		e.log.Warn("excluded "+hostile, "area", hostile)
		out := stderr.String()
		if strings.Count(out, "\n") != 1 || out != printable.Lines(out) {
			t.Errorf("%s log: %q holds a control character or a line of its own", format, out)
		}
		if format == "json" {
			var rec struct{ Msg, Area string }
			if err := json.Unmarshal([]byte(out), &rec); err != nil || rec.Msg != "excluded "+hostile || rec.Area != hostile {
				t.Errorf("json log: %q decodes to %+v (%v), want the text as logged", out, rec, err)
			}
		}
	}
}

// TestCompletionOffersNoControlCharacters: a grid name holding a control
// character is not offered for completion (the shell would show it raw);
// its ISO 3 code is.
func TestCompletionOffersNoControlCharacters(t *testing.T) {
	dir := controlSnapshot(t)
	code, stdout, stderr := runCLI(t, "__complete", "carbon", "--snapshot", dir, "qwen-3-32b", "")
	if code != exitOK {
		t.Fatalf("__complete: exit %d: %s", code, stderr)
	}
	if stdout != printable.Lines(stdout) || strings.Contains(stdout, "Ger\x1b") {
		t.Errorf("completion offers a name with a control character:\n%q", stdout)
	}
	if lines := strings.Split(stdout, "\n"); !slices.Contains(lines, "DEU") || !slices.Contains(lines, "India") {
		t.Errorf("completion does not offer DEU and India:\n%s", stdout)
	}
}

// TestMessagesShowNoControlCharacters: the command's messages show a
// folder's name escaped, on one line, whatever it holds.
func TestMessagesShowNoControlCharacters(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out\x1b[31m\rforged\n: written")
	code, stdout, stderr := runCLI(t, "build", "--out", out, "--date", seedDate, "--retrieved", seedReadOn,
		"--from-leaderboard", smallLB(t), "--no-grid")
	if code != exitOK {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	want := printable.String(filepath.Join(out, seedDate)) + ": written ("
	if strings.Count(stdout, "\n") != 1 || stdout != printable.Lines(stdout) || !strings.HasPrefix(stdout, want) {
		t.Errorf("build prints %q; want one line starting %q", stdout, want)
	}
}
