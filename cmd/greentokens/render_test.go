package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	snap := buildSevenGrids(t)
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
	if len(files) != 3 {
		t.Errorf("render --all wrote %d pages, want 3", len(files))
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
	// Over an earlier page: a new file takes its place (another inode, so
	// no reader ever sees it half written), with the old one's permissions.
	if err := os.WriteFile(one, []byte("old page"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(one, 0o600); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(one)
	if code, _, stderr := runCLI(t, "render", "--snapshot", snap, "qwen-3-32b", "--out", one); code != exitOK {
		t.Fatalf("render over an earlier page: exit %d: %s", code, stderr)
	}
	after, err := os.Stat(one)
	switch got, _ := os.ReadFile(one); {
	case err != nil || !bytes.Equal(got, built):
		t.Errorf("render over an earlier page wrote another page (%v)", err)
	case os.SameFile(before, after):
		t.Error("render wrote into the earlier page's file, not a new one renamed over it")
	case after.Mode().Perm() != 0o600:
		t.Errorf("the new page has mode %v, want the old one's 0600", after.Mode().Perm())
	}
	// Through a symlink: the link stays, its target gets the page.
	target := filepath.Join(nested, "target.md")
	link := filepath.Join(nested, "link.md")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "render", "--snapshot", snap, "qwen-3-32b", "--out", link); code != exitOK {
		t.Fatalf("render --out a symlink: exit %d: %s", code, stderr)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("render replaced the symlink --out named (%v)", err)
	}
	if got, err := os.ReadFile(target); err != nil || !bytes.Equal(got, built) {
		t.Errorf("the symlink's target does not hold the page (%v)", err)
	}
	for _, p := range []string{link, target} {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
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
