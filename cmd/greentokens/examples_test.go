package main

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// exampleLines are the command lines of a cobra Example: each line that is
// not a comment, joined with the next where it ends in a backslash, split
// into words as a POSIX shell splits these (double and single quotes; a
// word starting with # starts a comment).
func exampleLines(t *testing.T, example string) [][]string {
	t.Helper()
	var lines [][]string
	for _, line := range strings.Split(strings.ReplaceAll(example, "\\\n", " "), "\n") {
		var words []string
		var word strings.Builder
		inWord, quote := false, rune(0)
	scan:
		for _, r := range line {
			switch {
			case quote != 0 && r == quote:
				quote = 0
			case quote != 0:
				word.WriteRune(r)
			case r == '"' || r == '\'':
				quote, inWord = r, true
			case r == ' ' || r == '\t':
				if inWord {
					words, inWord = append(words, word.String()), false
					word.Reset()
				}
			case r == '#' && !inWord:
				break scan
			default:
				word.WriteRune(r)
				inWord = true
			}
		}
		if quote != 0 {
			t.Fatalf("unclosed quote in the example line %q", line)
		}
		if inWord {
			words = append(words, word.String())
		}
		if len(words) > 0 {
			lines = append(lines, words)
		}
	}
	return lines
}

// ourCommands are the commands of the tree but cobra's own (help,
// completion and its shells).
func ourCommands(root *cobra.Command) []*cobra.Command {
	out := []*cobra.Command{root}
	for _, c := range root.Commands() {
		if c.Name() != "help" && c.Name() != "completion" {
			out = append(out, c)
		}
	}
	return out
}

// TestEveryCommandHasExamples: every command's help has an Example, and
// each of its command lines is one the command takes: it finds that very
// command (any of them for the root's, a tour), and its flags and
// arguments pass the command's own flag parsing and argument checks, as
// cobra runs them before the command.
func TestEveryCommandHasExamples(t *testing.T) {
	root := newRoot(&env{ctx: context.Background(), stdout: io.Discard, stderr: io.Discard, log: slog.New(slog.DiscardHandler)})
	for _, c := range ourCommands(root) {
		t.Run(c.Name(), func(t *testing.T) {
			lines := exampleLines(t, c.Example)
			if len(lines) == 0 {
				t.Fatalf("%s has no example in its help", c.CommandPath())
			}
			for _, words := range lines {
				// A fresh tree for each line: parsing sets the flags.
				fresh := newRoot(&env{ctx: context.Background(), stdout: io.Discard, stderr: io.Discard, log: slog.New(slog.DiscardHandler)})
				if words[0] != "greentokens" {
					t.Errorf("example %q does not run greentokens", words)
					continue
				}
				cmd, rest, err := fresh.Find(words[1:])
				if err != nil || (c.HasParent() && cmd.CommandPath() != c.CommandPath()) {
					t.Errorf("example %q finds %s (%v), not %s", words, cmd.CommandPath(), err, c.CommandPath())
					continue
				}
				if err := cmd.ParseFlags(rest); err != nil {
					t.Errorf("example %q: %v", words, err)
					continue
				}
				for _, check := range []func() error{
					func() error { return cmd.ValidateArgs(cmd.Flags().Args()) },
					cmd.ValidateRequiredFlags, cmd.ValidateFlagGroups,
				} {
					if err := check(); err != nil {
						t.Errorf("example %q: %v", words, err)
					}
				}
			}
		})
	}
}

// TestExamplesRun runs the examples that read a snapshot and write
// nothing (no --out, no --upstream, no server) against two snapshots under
// ./out, as a reader of the help would: each succeeds (diff --exit-code:
// exits 1, the two differ).
func TestExamplesRun(t *testing.T) {
	endToEnd(t)
	withGrid, noGrid := builtSnapshots(t) // before the folder changes: they are built from testdata/
	t.Chdir(t.TempDir())
	twoSnapshotsUnderOut(t, withGrid, noGrid)
	root := newRoot(&env{ctx: context.Background(), stdout: io.Discard, stderr: io.Discard, log: slog.New(slog.DiscardHandler)})
	ran := map[string]int{}
	for _, c := range root.Commands() {
		if !slices.Contains([]string{"carbon", "diff", "list", "render", "verify", "version"}, c.Name()) {
			continue
		}
		for _, words := range exampleLines(t, c.Example) {
			if slices.Contains(words, "--out") || slices.Contains(words, "--upstream") {
				continue
			}
			want := exitOK
			if slices.Contains(words, "--exit-code") {
				want = exitFailure
			}
			if code, stdout, stderr := runCLI(t, words[1:]...); code != want || stdout == "" {
				t.Errorf("example %q: exit %d, want %d\nstdout: %.300s\nstderr: %s", words, code, want, stdout, stderr)
			}
			ran[c.Name()]++
		}
	}
	for _, name := range []string{"carbon", "diff", "list", "render", "verify", "version"} {
		if ran[name] == 0 {
			t.Errorf("no example of %s ran", name)
		}
	}
}
