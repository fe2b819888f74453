package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/leadgreen/greentokens/format"
)

// TestNonRegularFileRefused puts a named pipe (FIFO) at a path the
// manifest lists: opening it for reading would wait for ever for a writer.
// verify, diff, carbon and render must refuse it at once, naming it, with
// exit 5.
func TestNonRegularFileRefused(t *testing.T) {
	built := buildSevenGrids(t)
	for _, tc := range []struct {
		fifo string // the listed path made a FIFO
		args func(dir string) []string
	}{
		{"models/qwen-3-32b.json", func(dir string) []string { return []string{"verify", dir} }},
		{"manifest.json", func(dir string) []string { return []string{"verify", dir} }},
		{"sources/leaderboard/tasks/lm-arena-chat.json", func(dir string) []string { return []string{"verify", dir} }},
		{"sources/leaderboard/tasks/lm-arena-chat.json", func(dir string) []string { return []string{"diff", built, dir} }},
		{"manifest.json", func(dir string) []string { return []string{"diff", dir, built} }},
		{"grid.json", func(dir string) []string { return []string{"carbon", "--snapshot", dir, "qwen-3-32b", "IND"} }},
		{"sources/leaderboard/index.json", func(dir string) []string { return []string{"render", "--snapshot", dir, "qwen-3-32b"} }},
	} {
		dir := filepath.Join(t.TempDir(), seedDate)
		args := tc.args(dir)
		t.Run(args[0]+" "+tc.fifo, func(t *testing.T) {
			copyTree(t, built, dir)
			p := filepath.Join(dir, filepath.FromSlash(tc.fifo))
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
			type result struct {
				code           int
				stdout, stderr string
			}
			done := make(chan result, 1)
			go func() {
				code, stdout, stderr := runCLI(t, args...)
				done <- result{code, stdout, stderr}
			}()
			select {
			case r := <-done:
				if r.code != exitValidation {
					t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, exitValidation, r.stdout, r.stderr)
				}
				if !strings.Contains(r.stdout+r.stderr, "not a regular file") || !strings.Contains(r.stdout+r.stderr, tc.fifo) {
					t.Errorf("the output does not say that %s is not a regular file\nstdout: %s\nstderr: %s", tc.fifo, r.stdout, r.stderr)
				}
			case <-time.After(time.Minute): // a guard against a hang, not a measure of speed
				// Unblock the reader, so the test binary can end.
				if f, err := os.OpenFile(p, os.O_WRONLY, 0); err == nil {
					f.Close()
				}
				t.Fatalf("%s blocked on the FIFO at %s", args[0], tc.fifo)
			}
		})
	}
}

// TestOversizedManifestRefused: a manifest.json of 145 MB (a sparse file:
// its size says so) is refused by verify, diff, rebuild and carbon before
// it is read or decoded, exit 5, naming its bound; so are a generator
// string over its bound, and a snapshot of the two served (serve and mcp
// read through the catalog, whose test holds it to the same).
func TestOversizedManifestRefused(t *testing.T) {
	built := buildSevenGrids(t)
	big := func(t *testing.T, dir string) {
		p := filepath.Join(dir, "manifest.json")
		if err := os.WriteFile(p, []byte(`{"version": "1", "generator": {"version": "`), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(p, 145e6); err != nil {
			t.Fatal(err)
		}
	}
	long := func(t *testing.T, dir string) {
		editManifest(t, dir, func(m *format.Manifest) { m.Generator.Version = strings.Repeat("v", 100<<10) })
	}
	for _, tc := range []struct {
		name string
		edit func(t *testing.T, dir string)
		args func(dir string) []string
		want string
	}{
		{"verify", big, func(dir string) []string { return []string{"verify", dir} }, "manifest.json: is over the 16 MiB bound on its size; not read"},
		{"diff", big, func(dir string) []string { return []string{"diff", built, dir} }, "manifest.json is 145000000 bytes, over the 16 MiB bound"},
		{"rebuild", big, func(dir string) []string { return []string{"rebuild", dir, "--out", t.TempDir()} }, "manifest.json is 145000000 bytes, over the 16 MiB bound"},
		{"carbon", big, func(dir string) []string { return []string{"carbon", "--snapshot", dir, "qwen-3-32b", "IND"} }, "over the 16 MiB bound"},
		{"verify a long generator", long, func(dir string) []string { return []string{"verify", dir} }, "generator.version is 102400 bytes of JSON, over the 256-byte bound"},
		{"diff a long generator", long, func(dir string) []string { return []string{"diff", dir, built} }, "generator.version is 102400 bytes of JSON, over the 256-byte bound"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), seedDate)
			copyTree(t, built, dir)
			tc.edit(t, dir)
			code, stdout, stderr := runCLI(t, tc.args(dir)...)
			if code != exitValidation || !strings.Contains(stdout+stderr, tc.want) {
				t.Errorf("exit %d, want %d saying %q\nstdout: %.2000s\nstderr: %.2000s", code, exitValidation, tc.want, stdout, stderr)
			}
			if strings.Contains(stdout+stderr, strings.Repeat("v", 300)) {
				t.Error("the long generator string was echoed")
			}
		})
	}
}
