package sample

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMain(m *testing.M) { Main(m) }

// rows returns the configurations of the task file at path, as spelled,
// and their model ids.
func rows(t *testing.T, path string) (raw []string, models []string) {
	t.Helper()
	var file struct{ Configurations []json.RawMessage }
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for _, r := range file.Configurations {
		var row struct {
			ModelID string `json:"model_id"`
		}
		if err := json.Unmarshal(r, &row); err != nil {
			t.Fatal(err)
		}
		var c bytes.Buffer
		if err := json.Compact(&c, r); err != nil {
			t.Fatal(err)
		}
		raw, models = append(raw, c.String()), append(models, row.ModelID)
	}
	return raw, models
}

// TestSmallLeaderboard: every task file of the cut holds the whole
// version's configurations of SmallModels and no other, in their order and
// with every value as spelled; index.json describes those models alone and
// keeps the rest; commits.json is the whole version's.
func TestSmallLeaderboard(t *testing.T) {
	dir := SmallLeaderboard(t)
	if again := SmallLeaderboard(t); again != dir {
		t.Errorf("written twice: %s, then %s", dir, again)
	}
	if filepath.Base(dir) != Version {
		t.Errorf("the folder is named %s, want the version %s", filepath.Base(dir), Version)
	}
	kept := map[string]bool{}
	for task, models := range SmallModels {
		fullRaw, fullModels := rows(t, filepath.Join(Leaderboard(), "tasks", task+".json"))
		var want []string
		for i, m := range fullModels {
			if slices.Contains(models, m) {
				want = append(want, fullRaw[i])
			}
		}
		got, gotModels := rows(t, filepath.Join(dir, "tasks", task+".json"))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: configurations (-want +got):\n%s", task, diff)
		}
		for _, m := range models {
			kept[m] = true
			if !slices.Contains(gotModels, m) {
				t.Errorf("%s keeps no configuration of %s", task, m)
			}
		}
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "tasks"))
	if len(entries) != len(SmallModels) {
		t.Errorf("tasks/ holds %d files, want %d", len(entries), len(SmallModels))
	}

	var full, cut map[string]json.RawMessage
	for p, v := range map[string]*map[string]json.RawMessage{filepath.Join(Leaderboard(), "index.json"): &full, filepath.Join(dir, "index.json"): &cut} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatal(err)
		}
	}
	var models map[string]json.RawMessage
	if err := json.Unmarshal(cut["models"], &models); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for id := range models {
		ids = append(ids, id)
	}
	var want []string
	for id := range kept {
		want = append(want, id)
	}
	slices.Sort(ids)
	slices.Sort(want)
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("index.json's models (-want +got):\n%s", diff)
	}
	for k := range full {
		if k != "models" && !bytes.Equal(compact(t, full[k]), compact(t, cut[k])) {
			t.Errorf("index.json's %s differs from the whole version's", k)
		}
	}
	a, _ := os.ReadFile(filepath.Join(Leaderboard(), "commits.json"))
	b, _ := os.ReadFile(filepath.Join(dir, "commits.json"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Error("commits.json is not the whole version's")
	}
}

func compact(t *testing.T, b []byte) []byte {
	t.Helper()
	var c bytes.Buffer
	if err := json.Compact(&c, b); err != nil {
		t.Fatal(err)
	}
	return c.Bytes()
}

// TestCutNamesAModelWithoutRows: a model of the cut that a task file has
// no configuration of fails the cut, naming both.
func TestCutNamesAModelWithoutRows(t *testing.T) {
	err := cutTask(filepath.Join(Leaderboard(), "tasks", "gpqa.json"), filepath.Join(t.TempDir(), "gpqa.json"), []string{"Qwen/Qwen3-32B", "example/None"})
	if err == nil || !strings.Contains(err.Error(), "gpqa.json has no configuration of example/None") {
		t.Errorf("got %v", err)
	}
}
