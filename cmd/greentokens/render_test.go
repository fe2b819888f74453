package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	out := t.TempDir()
	if code, _, stderr := runCLI(t, "build", "--out", out, "--date", seedDate, "--retrieved", seedReadOn,
		"--from-leaderboard", seedLB, "--from-ember", sevenGrids); code != exitOK {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	snap := filepath.Join(out, seedDate)
	built, err := os.ReadFile(filepath.Join(snap, "pages", "qwen-3-32b.md"))
	if err != nil {
		t.Fatalf("the build did not render the page: %v", err)
	}
	code, stdout, stderr := runCLI(t, "render", "--snapshot", snap, "qwen-3-32b")
	if code != exitOK {
		t.Fatalf("render: exit %d: %s", code, stderr)
	}
	if stdout != string(built) {
		t.Error("render prints another page than the one the build wrote")
	}
	// The seed page's headline figures are on it.
	for _, want := range []string{"39.1 Wh/M", "63.5 Wh/M", "1.63×", "27.6", "1.2"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the page does not say %q", want)
		}
	}

	pages := t.TempDir()
	if code, _, stderr := runCLI(t, "render", "--snapshot", snap, "--all", "--out", pages); code != exitOK {
		t.Fatalf("render --all: exit %d: %s", code, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(pages, "*.md"))
	if len(files) != 18 {
		t.Errorf("render --all wrote %d pages, want 18", len(files))
	}
	again, _ := os.ReadFile(filepath.Join(pages, "qwen-3-32b.md"))
	if !bytes.Equal(again, built) {
		t.Error("render --all wrote another qwen-3-32b page than the build")
	}

	// --out into folders not made yet: they are made, and the page is
	// written whole, with nothing else left beside it.
	nested := filepath.Join(t.TempDir(), "a", "b")
	one := filepath.Join(nested, "qwen.md")
	if code, _, stderr := runCLI(t, "render", "--snapshot", snap, "qwen-3-32b", "--out", one); code != exitOK {
		t.Fatalf("render --out %s: exit %d: %s", one, code, stderr)
	}
	if got, err := os.ReadFile(one); err != nil || !bytes.Equal(got, built) {
		t.Errorf("render --out wrote another page than the build (%v)", err)
	}
	if names := dirNames(t, nested); len(names) != 1 || names[0] != "qwen.md" {
		t.Errorf("the --out folder holds %q, want only qwen.md", names)
	}
	// A page that cannot take its place (a folder is there) fails and
	// leaves no temporary file.
	taken := filepath.Join(nested, "taken.md")
	if err := os.Mkdir(taken, 0o755); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := runCLI(t, "render", "--snapshot", snap, "qwen-3-32b", "--out", taken); code == exitOK {
		t.Error("render --out onto a folder succeeded")
	}
	if names := dirNames(t, nested); len(names) != 2 {
		t.Errorf("after the failure the --out folder holds %q, want qwen.md and taken.md", names)
	}

	for _, tc := range []struct {
		name string
		args []string
	}{
		{"no slug", []string{"render", "--snapshot", snap}},
		{"--all without --out", []string{"render", "--snapshot", snap, "--all"}},
		{"unknown model", []string{"render", "--snapshot", snap, "qwen-9"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if code, _, _ := runCLI(t, tc.args...); code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
		})
	}
}

// dirNames lists the names in the folder dir.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
