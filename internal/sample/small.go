package sample

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// SmallModels are the models the small version keeps, by task file: the
// seed's two models and Qwen 3 8B in both token tasks of the seed page,
// DeepSeek R1 in Problem Solving alone (on B200 only), and one model in
// each other task; all but DeepSeek R1 have rows on H100 and B200.
var SmallModels = map[string][]string{
	"lm-arena-chat":   {"Qwen/Qwen3-32B", "Qwen/Qwen3-14B", "Qwen/Qwen3-8B"},
	"gpqa":            {"Qwen/Qwen3-32B", "Qwen/Qwen3-14B", "Qwen/Qwen3-8B", "deepseek-ai/DeepSeek-R1-0528"},
	"sourcegraph-fim": {"Qwen/Qwen3-Coder-30B-A3B-Instruct"},
	"image-chat":      {"Qwen/Qwen3-VL-8B-Instruct"},
	"video-chat":      {"Qwen/Qwen3-VL-8B-Instruct"},
	"text-to-image":   {"black-forest-labs/FLUX.1-dev"},
	"text-to-video":   {"zai-org/CogVideoX-2b"},
}

var small struct {
	sync.Mutex
	main bool   // Main runs the package's tests
	dir  string // the version folder, once written
}

// Main runs a package's tests (Run), then exits with their code: a
// TestMain for packages that call SmallLeaderboard.
func Main(m *testing.M) { os.Exit(Run(m)) }

// Run runs m's tests, then removes the small version's folder if they
// wrote one, and returns m.Run's code: for a TestMain with more to do.
func Run(m *testing.M) int {
	small.Lock()
	small.main = true
	small.Unlock()
	code := m.Run()
	small.Lock()
	defer small.Unlock()
	if small.dir != "" {
		os.RemoveAll(filepath.Dir(small.dir))
		small.dir = ""
	}
	return code
}

// SmallLeaderboard is a leaderboard version folder cut from Leaderboard,
// written once per test binary: every task file keeps the configurations
// of SmallModels alone, byte for byte and in their order, and index.json
// describes those models alone; commits.json is Leaderboard's. A build of it
// is about half the work of the whole sample's, for the tests of what a
// build's size does not change (guards, failures, the read surfaces). The
// package's TestMain calls Main or Run, which removes it.
func SmallLeaderboard(tb testing.TB) string {
	tb.Helper()
	dir, err := Small()
	if err != nil {
		tb.Fatal(err)
	}
	return dir
}

// Small is SmallLeaderboard for code with no testing.TB at hand (a value
// built once per test binary), returning the error it would fail on.
func Small() (string, error) {
	small.Lock()
	defer small.Unlock()
	if !small.main {
		return "", errors.New("sample.SmallLeaderboard: the package's TestMain must call sample.Main or sample.Run, which removes its folder")
	}
	if small.dir != "" {
		return small.dir, nil
	}
	root, err := os.MkdirTemp("", "greentokens-sample-small-")
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, Version)
	if err := writeSmall(Leaderboard(), dir); err != nil {
		os.RemoveAll(root)
		return "", fmt.Errorf("writing the small leaderboard version: %v", err)
	}
	small.dir = dir
	return dir, nil
}

// writeSmall writes the cut of the version folder from into to.
func writeSmall(from, to string) error {
	if err := os.MkdirAll(filepath.Join(to, "tasks"), 0o755); err != nil {
		return err
	}
	commits, err := os.ReadFile(filepath.Join(from, "commits.json"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(to, "commits.json"), commits, 0o644); err != nil {
		return err
	}
	kept := map[string]bool{}
	for task, models := range SmallModels {
		for _, m := range models {
			kept[m] = true
		}
		if err := cutTask(filepath.Join(from, "tasks", task+".json"), filepath.Join(to, "tasks", task+".json"), models); err != nil {
			return err
		}
	}
	return cutIndex(filepath.Join(from, "index.json"), filepath.Join(to, "index.json"), kept)
}

// cutTask writes the task file from with the configurations of models
// alone, failing when one of models has none.
func cutTask(from, to string, models []string) error {
	var file map[string]json.RawMessage
	if err := readJSON(from, &file); err != nil {
		return err
	}
	var rows []json.RawMessage
	if err := json.Unmarshal(file["configurations"], &rows); err != nil {
		return fmt.Errorf("%s: configurations: %v", from, err)
	}
	var keep []json.RawMessage
	found := map[string]bool{}
	for _, r := range rows {
		var row struct {
			ModelID string `json:"model_id"`
		}
		if err := json.Unmarshal(r, &row); err != nil {
			return fmt.Errorf("%s: %v", from, err)
		}
		if slices.Contains(models, row.ModelID) {
			keep = append(keep, r)
			found[row.ModelID] = true
		}
	}
	for _, m := range models {
		if !found[m] {
			return fmt.Errorf("%s has no configuration of %s", from, m)
		}
	}
	return writeJSON(to, file, "configurations", keep)
}

// cutIndex writes index.json with the models of kept alone.
func cutIndex(from, to string, kept map[string]bool) error {
	var index map[string]json.RawMessage
	if err := readJSON(from, &index); err != nil {
		return err
	}
	var models map[string]json.RawMessage
	if err := json.Unmarshal(index["models"], &models); err != nil {
		return fmt.Errorf("%s: models: %v", from, err)
	}
	for id := range models {
		if !kept[id] {
			delete(models, id)
		}
	}
	if len(models) != len(kept) {
		return fmt.Errorf("%s describes %d of the %d models kept", from, len(models), len(kept))
	}
	return writeJSON(to, index, "models", models)
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}

// writeJSON writes the object obj, its member key set to v, indented; its
// other members are raw values, their numbers as they were spelled.
func writeJSON(path string, obj map[string]json.RawMessage, key string, v any) error {
	out := map[string]any{key: v}
	for k, raw := range obj {
		if k != key {
			out[k] = raw
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}
