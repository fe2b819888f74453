package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/snapshots/build"
)

// TestRebuild: an auditor's rebuild of a snapshot built with a pinned
// reference year and a named Ember release needs nothing but the folder,
// and gives its files byte for byte; a snapshot whose archived sources no
// longer match its manifest is refused (exit 5), with nothing written.
func TestRebuild(t *testing.T) {
	endToEnd(t)
	dir := builtCopy(t, seedDate, "--from-ember", ember, "--grid-year", "2024", "--ember-release", "September 2026")

	again := t.TempDir()
	code, stdout, stderr := runCLI(t, "rebuild", dir, "--out", again)
	if code != exitOK || !strings.Contains(stdout, "byte-identical") {
		t.Fatalf("rebuild: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	for _, name := range []string{"manifest.json", "grid.json", "index.json", "models/qwen-3-32b.json", "pages/qwen-3-32b.md"} {
		a, errA := os.ReadFile(filepath.Join(dir, name))
		b, errB := os.ReadFile(filepath.Join(again, seedDate, name))
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: the rebuild differs (%v, %v)", name, errA, errB)
		}
	}

	t.Run("a changed source", func(t *testing.T) {
		tampered := filepath.Join(t.TempDir(), seedDate)
		copyTree(t, dir, tampered)
		p := filepath.Join(tampered, "sources", "leaderboard", "commits.json")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, append(b, ' '), 0o644); err != nil {
			t.Fatal(err)
		}
		dst := t.TempDir()
		code, stdout, stderr := runCLI(t, "rebuild", tampered, "--out", dst)
		if code != exitValidation || !strings.Contains(stderr, "sources/leaderboard/commits.json") {
			t.Errorf("rebuild of a changed source: exit %d, want %d naming the file\nstdout: %s\nstderr: %s", code, exitValidation, stdout, stderr)
		}
		if entries, _ := os.ReadDir(dst); len(entries) != 0 {
			t.Errorf("a refused rebuild wrote %d entries into --out", len(entries))
		}
	})

	t.Run("by other code", func(t *testing.T) {
		other := filepath.Join(t.TempDir(), seedDate)
		copyTree(t, dir, other)
		builtBy := format.Generator{Module: "github.com/leadgreen/greentokens", Version: "v0.0.0-20260926061500-0d1e2f3a4b5c",
			Revision: "0d1e2f3a4b5c6d7e8f90a1b2c3d4e5f60718293a", Go: "go1.26.0"}
		setGenerator(t, other, builtBy)
		code, stdout, stderr := runCLI(t, "rebuild", other, "--out", t.TempDir())
		want := "byte-identical to it except manifest.json's generator, which names the code that wrote each: built by " +
			builtBy.String() + ", rebuilt by " + build.ThisGenerator().String()
		if code != exitOK || !strings.Contains(stdout, want) {
			t.Errorf("rebuild by other code: exit %d, want %d saying %q\nstdout: %s\nstderr: %s", code, exitOK, want, stdout, stderr)
		}

		// A data file that differs is a difference, whichever code rebuilds.
		p := filepath.Join(other, "models", "qwen-3-32b.json")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		changed := bytes.Replace(b, []byte(`"wh_per_million_output_tokens": `), []byte(`"wh_per_million_output_tokens": 1`), 1)
		if bytes.Equal(changed, b) {
			t.Fatalf("%s: no figure to change", p)
		}
		if err := os.WriteFile(p, changed, 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr = runCLI(t, "rebuild", other, "--out", t.TempDir())
		want = "differs from it: models/qwen-3-32b.json differs; greentokens verify " + other + " shows how"
		if code != exitValidation || !strings.Contains(stdout, want) {
			t.Errorf("rebuild of a changed model file: exit %d, want %d saying %q\nstdout: %s\nstderr: %s", code, exitValidation, want, stdout, stderr)
		}
		if code, _, _ := runCLI(t, "verify", other); code != exitValidation {
			t.Errorf("verify of the changed model file: exit %d, want %d", code, exitValidation)
		}
	})

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no --out", []string{"rebuild", dir}, "--out FOLDER"},
		{"no manifest", []string{"rebuild", t.TempDir(), "--out", t.TempDir()}, "not a snapshot folder"},
		{"two folders", []string{"rebuild", dir, dir, "--out", t.TempDir()}, "one snapshot folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tc.args...)
			if code != exitUsage || !strings.Contains(stdout+stderr, tc.want) {
				t.Errorf("exit %d, want %d saying %q\nstdout: %s\nstderr: %s", code, exitUsage, tc.want, stdout, stderr)
			}
		})
	}
}

// setGenerator records g as the generator of the snapshot at dir, its
// manifest in its canonical form: the snapshot as code g would have built it.
func setGenerator(t *testing.T, dir string, g format.Generator) {
	t.Helper()
	editManifest(t, dir, func(m *format.Manifest) { m.Generator = g })
}

// TestRebuildExitCodes maps each kind of failure of rebuild to its exit
// code, and holds each code to the ones docs/operations.md gives rebuild
// (0, 2, 5 and 6; 1 when interrupted): a snapshot that cannot be rebuilt
// from what it records is exit 5, whatever kind of failure a build from
// upstream would give the same bytes (3, 4, or 2 for its dates). A link
// planted in the snapshot is refused before anything is read through it:
// no byte of what it points at is printed, and no rebuild is called
// byte-identical.
func TestRebuildExitCodes(t *testing.T) {
	dir := buildAt(t, seedDate, ember)
	const secret = "root:x:0:0:the-secret-of-the-link-target"
	outside := filepath.Join(t.TempDir(), "passwd")
	if err := os.WriteFile(outside, []byte(secret+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := func(rel string) func(t *testing.T, snap string) {
		return func(t *testing.T, snap string) {
			p := filepath.Join(snap, filepath.FromSlash(rel))
			os.Remove(p)
			if err := os.Symlink(outside, p); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range []struct {
		name  string
		edit  func(t *testing.T, snap string)
		out   func(t *testing.T) string // the --out folder; a new empty one when nil
		code  int
		wants string
	}{
		{name: "identical", code: exitOK, wants: "byte-identical"},
		{name: "a listed source is a link", edit: link("sources/leaderboard/commits.json"), code: exitValidation,
			wants: "sources/leaderboard/commits.json is a symbolic link, not a regular file"},
		{name: "a model file is a link", edit: link("models/qwen-3-32b.json"), code: exitValidation,
			wants: "models/qwen-3-32b.json is a symbolic link, not a regular file"},
		{name: "an unlisted link", edit: link("sources/notes.txt"), code: exitValidation,
			wants: "sources/notes.txt is a symbolic link, not a regular file"},
		{name: "manifest.json is a link", edit: link("manifest.json"), code: exitValidation,
			wants: "manifest.json is a symbolic link, not a regular file"},
		{name: "a source that is not the leaderboard's, its manifest entry updated", code: exitValidation,
			edit: func(t *testing.T, snap string) {
				replaceListed(t, snap, "sources/leaderboard/index.json", []byte(`{"models": "none"}`))
			}, wants: "cannot be rebuilt from what it records"},
		{name: "a source listed outside sources/", code: exitValidation,
			edit: func(t *testing.T, snap string) {
				editManifest(t, snap, func(m *format.Manifest) {
					for i := range m.Sources {
						if m.Sources[i].Name == "leaderboard/commits.json" {
							m.Sources[i].File = m.Outputs[0]
						}
					}
				})
			}, wants: "cannot be rebuilt from what it records"},
		{name: "a retrieval date before the data was compiled", code: exitValidation,
			edit: func(t *testing.T, snap string) {
				editManifest(t, snap, func(m *format.Manifest) { m.Retrieved = "2020-01-01" })
			}, wants: "cannot be rebuilt from what it records"},
		{name: "a date that is no date", code: exitValidation,
			edit: func(t *testing.T, snap string) {
				editManifest(t, snap, func(m *format.Manifest) { m.Date = "2026-13-45" })
			}, wants: "cannot be rebuilt from what it records"},
		{name: "FOLDER/DATE holds another snapshot", code: exitConflict,
			out: func(t *testing.T) string {
				o := t.TempDir()
				copyTree(t, dir, filepath.Join(o, seedDate))
				replaceListed(t, filepath.Join(o, seedDate), "index.json", []byte("{}"))
				return o
			}, wants: "exists with other content"},
		{name: "FOLDER is a file", code: exitConflict,
			out: func(t *testing.T) string {
				p := filepath.Join(t.TempDir(), "file")
				if err := os.WriteFile(p, nil, 0o644); err != nil {
					t.Fatal(err)
				}
				return p
			}, wants: "output conflict"},
		{name: "no --out", code: exitUsage, out: func(*testing.T) string { return "" }, wants: "--out FOLDER"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			snap := filepath.Join(t.TempDir(), seedDate)
			copyTree(t, dir, snap)
			if tc.edit != nil {
				tc.edit(t, snap)
			}
			dst := t.TempDir()
			if tc.out != nil {
				dst = tc.out(t)
			}
			args := []string{"rebuild", snap}
			if dst != "" {
				args = append(args, "--out", dst)
			}
			code, stdout, stderr := runCLI(t, args...)
			if code != tc.code || !strings.Contains(stdout+stderr, tc.wants) {
				t.Errorf("exit %d, want %d saying %q\nstdout: %s\nstderr: %s", code, tc.code, tc.wants, stdout, stderr)
			}
			if !slices.Contains(rebuildExitCodes(t), code) {
				t.Errorf("exit %d is not one docs/operations.md gives rebuild (%v)", code, rebuildExitCodes(t))
			}
			if strings.Contains(stdout+stderr, secret[:20]) {
				t.Errorf("rebuild printed bytes of the file a link points at:\n%s%s", stdout, stderr)
			}
			if code != exitOK && strings.Contains(stdout, "byte-identical") {
				t.Errorf("a failed rebuild says byte-identical:\n%s", stdout)
			}
			if tc.code == exitValidation {
				if entries, _ := os.ReadDir(dst); len(entries) != 0 {
					t.Errorf("a refused rebuild wrote %d entries into --out", len(entries))
				}
			}
		})
	}
}

// rebuildExitCodes are the exit codes docs/operations.md gives rebuild
// (its "Exit codes:" line), and 1, every command's when interrupted.
func rebuildExitCodes(t *testing.T) []int {
	t.Helper()
	b, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, _ := strings.Cut(string(b), "## Auditors: rebuilding a snapshot")
	_, line, ok := strings.Cut(after, "\nExit codes: ")
	if !ok {
		t.Fatal("docs/operations.md: no rebuild exit codes")
	}
	line, _, _ = strings.Cut(line, "\n\n")
	codes := []int{exitFailure}
	for _, m := range regexp.MustCompile(`(?:^|; )(\d) `).FindAllStringSubmatch(line, -1) {
		n, _ := strconv.Atoi(m[1])
		codes = append(codes, n)
	}
	return codes
}

// editManifest rewrites the manifest of the snapshot at dir, in its
// canonical form, as edit changes it.
func editManifest(t *testing.T, dir string, edit func(*format.Manifest)) {
	t.Helper()
	p := filepath.Join(dir, format.ManifestPath)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var m format.Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	edit(&m)
	if b, err = format.Marshal(&m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// replaceListed writes data as the listed file rel of the snapshot at dir,
// and lists its size and sha256 in the manifest: the snapshot as a build
// from those bytes would have listed them.
func replaceListed(t *testing.T, dir, rel string, data []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), data, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	editManifest(t, dir, func(m *format.Manifest) {
		found := false
		for _, f := range append(sourceFiles(m), outputFiles(m)...) {
			if f.Path == rel {
				f.Size, f.SHA256, found = int64(len(data)), hex.EncodeToString(sum[:]), true
			}
		}
		if !found {
			t.Fatalf("%s is not listed", rel)
		}
	})
}

func sourceFiles(m *format.Manifest) []*format.File {
	var fs []*format.File
	for i := range m.Sources {
		fs = append(fs, &m.Sources[i].File)
	}
	return fs
}

func outputFiles(m *format.Manifest) []*format.File {
	var fs []*format.File
	for i := range m.Outputs {
		fs = append(fs, &m.Outputs[i])
	}
	return fs
}
