package validate

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/google/go-cmp/cmp"
)

// vtHostileDir holds the hostile-upstream fixtures that snapshots' tests
// build (see snapshots/hostile_test.go for their format). This test runs
// the same fixtures through this package's own parser, filter and
// recomputation: every rule transform/ applies to bad upstream data, the
// independent re-check applies too.
const vtHostileDir = "../snapshots/testdata/hostile"

// vtReadTxtar returns a txtar archive's files, in order.
func vtReadTxtar(t *testing.T, path string) []txtar.File {
	t.Helper()
	a, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return a.Files
}

// vtHostile returns a fixture's files (base.txtar's, replaced by its own,
// edited) and its want lines by kind.
func vtHostile(t *testing.T, name string) (map[string][]byte, map[string][]string) {
	t.Helper()
	files := map[string][]byte{}
	var edits, want []byte
	for _, p := range []string{"base.txtar", name} {
		want = nil
		for _, f := range vtReadTxtar(t, filepath.Join(vtHostileDir, p)) {
			switch f.Name {
			case "edit":
				edits = f.Data
			case "want":
				want = f.Data
			default:
				files[f.Name] = f.Data
			}
		}
	}
	unquote := func(line, s string) ([]byte, string) {
		q, err := strconv.QuotedPrefix(s)
		if err != nil {
			t.Fatalf("%s: bad edit %q: %v", name, line, err)
		}
		u, _ := strconv.Unquote(q)
		return []byte(u), s[len(q):]
	}
	for _, line := range strings.Split(strings.TrimSpace(string(edits)), "\n") {
		if line == "" {
			continue
		}
		all := false
		if rest, ok := strings.CutPrefix(line, "all "); ok {
			all, line = true, rest
		}
		file, rest, _ := strings.Cut(line, " ")
		old, rest := unquote(line, rest)
		repl, _ := unquote(line, strings.TrimPrefix(rest, " "))
		if n := bytes.Count(files[file], old); n == 0 || n > 1 && !all {
			t.Fatalf("%s: edit %q: %d occurrences", name, line, n)
		}
		files[file] = bytes.ReplaceAll(files[file], old, repl)
	}
	wants := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(want)), "\n") {
		kind, text, ok := strings.Cut(line, ": ")
		if !ok {
			t.Fatalf("%s: bad want line %q", name, line)
		}
		wants[kind] = append(wants[kind], text)
	}
	return files, wants
}

// vtCheckSources runs this package's checks of the archived leaderboard
// files: it returns every problem, and the rows the filter excludes
// ("TASK ROW").
func vtCheckSources(t *testing.T, files map[string][]byte) (probs []string, excluded []string) {
	t.Helper()
	text := vtLoadText(t)
	src := func(name string) *problems { return &problems{file: "sources/leaderboard/" + name} }
	idxPS, commitsPS := src("index.json"), src("commits.json")
	idx := parseIndex(idxPS, files["index.json"])
	commit := parseCommits(commitsPS, files["commits.json"])
	chatPS := src("tasks/" + taskChat + ".json")
	all := []*problems{idxPS, commitsPS, chatPS}
	var chatStable []*lbRow
	for _, task := range []string{taskChat, taskGPQA} {
		ps := chatPS
		if task != taskChat {
			ps = src("tasks/" + task + ".json")
			all = append(all, ps)
		}
		rows, _ := parseTask(ps, task, files["tasks/"+task+".json"])
		if task != taskChat && idx != nil {
			checkIndexed(idxPS, idx, task, rows)
		}
		stable, ex := filterStable(rows)
		for _, e := range ex {
			excluded = append(excluded, fmt.Sprintf("%s %d", task, e.key.Row))
		}
		if task == taskChat {
			chatStable = stable
		}
	}
	if idx != nil && commit != nil {
		in := &lbInputs{task: chatTask(),
			date: vtDate, retrieved: vtRetrieved, dataURL: vtLeaderboardBase + "tasks/lm-arena-chat.json",
			chatPath: chatPS.file, index: idx, commit: commit, text: text, stable: chatStable,
		}
		if _, _, err := recomputeModels(in, chatPS, idxPS); err != nil {
			t.Fatal(err)
		}
	}
	for _, ps := range all {
		for _, p := range ps.list {
			probs = append(probs, p.String())
		}
	}
	sort.Strings(excluded)
	return probs, excluded
}

// TestHostileMirrored: for each hostile fixture, this package reports what
// the build reports: a problem for each "validate:" line, none for a
// fixture without one, and exactly the fixture's exclusions.
func TestHostileMirrored(t *testing.T) {
	names, err := filepath.Glob(filepath.Join(vtHostileDir, "*.txtar"))
	if err != nil || len(names) < 2 {
		t.Fatalf("fixtures: %v, %v", names, err)
	}
	for _, p := range names {
		name := filepath.Base(p)
		t.Run(strings.TrimSuffix(name, ".txtar"), func(t *testing.T) {
			files, wants := vtHostile(t, name)
			probs, excluded := vtCheckSources(t, files)
			if len(wants["error"]) > 0 && len(wants["validate"]) == 0 && len(probs) == 0 {
				// Only a fixture that breaks the Ember CSV fails the build
				// without a problem in the leaderboard files.
				if !strings.HasPrefix(name, "ember-") {
					t.Errorf("the build fails on this fixture, but it has no validate line")
				}
			}
			for _, w := range wants["validate"] {
				found := false
				for _, p := range probs {
					found = found || strings.Contains(p, w)
				}
				if !found {
					t.Errorf("no problem holds %q; problems:\n%s", w, strings.Join(probs, "\n"))
				}
			}
			if len(wants["validate"]) == 0 && len(probs) > 0 {
				t.Errorf("problems where the build finds none:\n%s", strings.Join(probs, "\n"))
			}
			if len(wants["error"]) > 0 {
				return
			}
			var want []string
			for _, w := range wants["exclusion"] {
				key, _, _ := strings.Cut(w, ": ")
				want = append(want, key)
			}
			sort.Strings(want)
			if diff := cmp.Diff(want, excluded); diff != "" {
				t.Errorf("excluded rows (-fixture +validate):\n%s", diff)
			}
		})
	}
}

// TestDuplicateRows: an exact duplicate, however spelled, is excluded with
// its reason and takes no part in the cascade; rows of one configuration
// with other measurements (the real repeats) are kept; rowContentRaw
// agrees with rowContent.
func TestDuplicateRows(t *testing.T) {
	files, _ := vtHostile(t, "duplicate-row.txtar")
	ps := &problems{file: "chat"}
	data := files["tasks/lm-arena-chat.json"]
	rows, ok := parseTask(ps, taskChat, data)
	if !ok {
		t.Fatal(ps.list)
	}
	_, ex := filterStable(rows)
	if len(ex) != 1 || ex[0].key.Row != 6 || ex[0].reason != "exact duplicate of configurations[3]" {
		t.Errorf("excluded %+v; want configurations[6] as an exact duplicate of configurations[3]", ex)
	}
	// The real repeats: same model, GPUs and cap, other measurements.
	for _, task := range []string{taskChat, taskGPQA} {
		b, err := os.ReadFile(filepath.Join(vtSeed, "tasks", task+".json"))
		if err != nil {
			t.Fatal(err)
		}
		ps := &problems{file: task}
		rows, ok := parseTask(ps, task, b)
		if !ok {
			t.Fatal(ps.list)
		}
		_, ex := filterStable(rows)
		for _, e := range ex {
			if strings.Contains(e.reason, "duplicate") {
				t.Errorf("%s %s excluded: %s", task, e.where, e.reason)
			}
		}
	}
}

// parseTask reads a token task file's rows (parseTaskFile).
func parseTask(ps *problems, task string, data []byte) ([]*lbRow, bool) {
	rows, _, ok := parseTaskFile(ps, task, "", data)
	return rows, ok
}
