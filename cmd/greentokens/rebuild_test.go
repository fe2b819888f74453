package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
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
	out := t.TempDir()
	if code, _, stderr := runCLI(t, "build", "--out", out, "--date", seedDate, "--retrieved", seedReadOn,
		"--from-leaderboard", seedLB, "--from-ember", ember, "--grid-year", "2024", "--ember-release", "September 2026"); code != exitOK {
		t.Fatalf("build: exit %d\n%s", code, stderr)
	}
	dir := filepath.Join(out, seedDate)

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
	p := filepath.Join(dir, format.ManifestPath)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var m format.Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m.Generator = g
	if b, err = format.Marshal(&m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
