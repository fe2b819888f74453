package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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
