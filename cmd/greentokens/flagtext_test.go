package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTablesShowNoControlCharacters: upstream text may carry control
// characters (a nickname is data, published as is in the JSON files); the
// tables of list and carbon show each as U+FFFD, so that an escape sequence
// never reaches the operator's terminal and a tab never breaks a column.
func TestTablesShowNoControlCharacters(t *testing.T) {
	lb := t.TempDir()
	for _, f := range []string{"index.json", "commits.json", "tasks/lm-arena-chat.json", "tasks/gpqa.json"} {
		b, err := os.ReadFile(filepath.Join(seedLB, f))
		if err != nil {
			t.Fatal(err)
		}
		b = []byte(strings.ReplaceAll(string(b), `"Qwen 3 14B"`, `"Qwen \u001b[31m3\t14B"`))
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
	if err := os.WriteFile(emberCSV, []byte(strings.ReplaceAll(string(grids), "Germany,", "\"Ger\x1b[2Jmany\",")), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if code, _, stderr := runCLI(t, "build", "--out", out, "--date", seedDate, "--retrieved", seedReadOn,
		"--from-leaderboard", lb, "--from-ember", emberCSV); code != exitOK {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	dir := filepath.Join(out, seedDate)
	for _, args := range [][]string{
		{"list", "models", "--snapshot", dir},
		{"list", "grids", "--snapshot", dir},
		{"carbon", "--snapshot", dir, "Qwen/Qwen3-14B", "DEU"},
	} {
		code, stdout, stderr := runCLI(t, args...)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", args, code, stderr)
		}
		if strings.ContainsAny(stdout, "\x1b\t") {
			t.Errorf("%s prints a control character:\n%q", args, stdout)
		}
		if !strings.Contains(stdout, "\uFFFD") {
			t.Errorf("%s does not show the control character as U+FFFD:\n%s", args, stdout)
		}
	}
}
