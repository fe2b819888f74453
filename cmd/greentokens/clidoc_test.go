package main

import (
	"bytes"
	"flag"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
	"github.com/spf13/pflag"
)

// writeCLIDoc makes TestCLIReference write docs/cli.md (make docs).
var writeCLIDoc = flag.Bool("clidoc", false, "write docs/cli.md from the commands (make docs)")

const cliDocPath = "../../docs/cli.md"

// cliReference is the command-line reference: every command's page by
// cobra/doc, one after the other in one Markdown file, its links made
// anchors of that file, then the exit codes.
func cliReference(t *testing.T) []byte {
	t.Helper()
	root := newRoot(&env{stdout: io.Discard, stderr: io.Discard})
	var buf bytes.Buffer
	buf.WriteString("# Command-line reference\n\n" +
		"Generated from the commands by `make docs`; do not edit by hand. " +
		"`greentokens help COMMAND` prints the same.\n\n")
	anchor := func(file string) string { // greentokens_list_models.md -> #greentokens-list-models
		return "#" + strings.ReplaceAll(strings.TrimSuffix(file, ".md"), "_", "-")
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.DisableAutoGenTag = true
		symbolicDefaults(c.LocalFlags())
		if err := doc.GenMarkdownCustom(c, &buf, anchor); err != nil {
			t.Fatal(err)
		}
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() && !sub.IsAdditionalHelpTopicCommand() {
				walk(sub)
			}
		}
	}
	walk(root)
	buf.WriteString("## Exit codes\n\n```\n" + strings.TrimPrefix(exitCodesHelp, "Exit codes:\n") + "```\n")
	return buf.Bytes()
}

// symbolicDefaults makes each flag of fs with a printDefault text show that
// text as its default.
func symbolicDefaults(fs *pflag.FlagSet) {
	fs.VisitAll(func(f *pflag.Flag) {
		if text := f.Annotations[docDefaultKey]; len(text) == 1 {
			f.DefValue = ""
			f.Usage += " (default " + text[0] + ")"
		}
	})
}

// TestCLIReference: docs/cli.md is what the commands generate.
func TestCLIReference(t *testing.T) {
	got := cliReference(t)
	if *writeCLIDoc {
		if err := os.WriteFile(cliDocPath, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(cliDocPath)
	if err != nil {
		t.Fatalf("%v: run make docs", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("docs/cli.md is stale: the commands' flags or texts changed; run make docs and commit docs/cli.md")
	}
}

// TestCLIReferenceIsStable: the reference names no date or environment of
// the machine that generated it.
func TestCLIReferenceIsStable(t *testing.T) {
	plain := cliReference(t)
	if today := time.Now().UTC().Format(time.DateOnly); bytes.Contains(plain, []byte(today)) {
		t.Errorf("the reference holds today's date %s", today)
	}
	if !bytes.Contains(plain, []byte("(default today (UTC))")) {
		t.Errorf("the reference does not print build --date's default as today (UTC)")
	}
	for _, key := range []string{envLeaderboardURL, envGitHubAPI, envEmberURL} {
		t.Setenv(key, "https://mirror.example.org/data/")
	}
	if env := cliReference(t); !bytes.Equal(env, plain) {
		t.Errorf("the reference changes with %s and the other upstream URL variables", envLeaderboardURL)
	}
}
