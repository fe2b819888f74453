package validate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sample"
	"github.com/leadgreen/greentokens/transform"
)

// The dates of the test builds.
const idxDate, idxRetrieved = sample.SeedDate, sample.SeedRetrieved

func idxRead(t *testing.T, dir string, parts ...string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(append([]string{dir}, parts...)...))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// idxBuilt is what a build writes, made by transform (the code under check),
// with the task files it was made from.
type idxBuilt struct {
	chat, gpqa, index []byte
	models            map[string][]byte
}

// idxBuild builds from the leaderboard version folder dir.
func idxBuild(t *testing.T, dir string) idxBuilt {
	t.Helper()
	b, err := idxTryBuild(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func idxTryBuild(t *testing.T, dir string) (idxBuilt, error) {
	t.Helper()
	b := idxBuilt{
		chat: idxRead(t, dir, "tasks", "lm-arena-chat.json"),
		gpqa: idxRead(t, dir, "tasks", "gpqa.json"),
	}
	lb, _, err := transform.NewLeaderboard(transform.LeaderboardFiles{
		Index: idxRead(t, dir, "index.json"), Commits: idxRead(t, dir, "commits.json"),
		Primary: b.chat, PrimaryURL: "https://raw.githubusercontent.com/ml-energy/leaderboard/master/public/data/tasks/lm-arena-chat.json",
	}, idxDate, idxRetrieved)
	if err != nil {
		return b, err
	}
	models, err := transform.Models(lb)
	if err != nil {
		return b, err
	}
	// The model files were built: the index must be too.
	if _, err := lb.AddTask("gpqa", b.gpqa); err != nil {
		t.Fatal(err)
	}
	ib := transform.NewIndexBuilder(lb)
	b.models = map[string][]byte{}
	for _, m := range models {
		data, err := format.Marshal(m.File)
		if err != nil {
			t.Fatal(err)
		}
		b.models["models/"+m.File.Slug+".json"] = data
		if err := ib.Add(m); err != nil {
			t.Fatal(err)
		}
	}
	idx, err := ib.Index()
	if err != nil {
		t.Fatal(err)
	}
	if b.index, err = format.Marshal(idx); err != nil {
		t.Fatal(err)
	}
	return b, nil
}

// indexFile runs the index check on a snapshot folder holding the two
// task files and index.json, with the manifest dates and evidence of the
// model files (path "models/SLUG.json"), and returns nil or an error
// listing its problems.
func indexFile(t *testing.T, chatTask, gpqaTask, indexJSON []byte, modelFiles map[string][]byte) error {
	t.Helper()
	dir := t.TempDir()
	files := map[string][]byte{taskOf(taskChat).file: chatTask, taskOf(taskGPQA).file: gpqaTask, IndexPath: indexJSON}
	manifest := &Manifest{Date: idxDate, Retrieved: idxRetrieved}
	for _, b := range modelFiles {
		var m struct{ Source struct{ Compiled string } }
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		manifest.Evidence.Compiled = m.Source.Compiled
	}
	for p, b := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return problemsError("index", idxSnapshotCheck(vtSnap(t, dir, manifest)))
}

func TestIndexFileAcceptsEveryLeaderboardVersion(t *testing.T) {
	t.Parallel() // independent of the other tests, and long: the package ends make test
	versions, _ := sample.Versions(t)
	for _, dir := range versions {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			b, err := idxTryBuild(t, dir)
			if err != nil {
				if dir == vtSeed {
					t.Fatal(err)
				}
				t.Fatalf("transform builds no model files from this version: %v", err)
			}
			if err := indexFile(t, b.chat, b.gpqa, b.index, b.models); err != nil {
				t.Fatalf("the built index.json is rejected:\n%v", err)
			}
		})
	}
}

// idxReplaceOnce replaces the first occurrence of old after the anchors,
// each found after the one before.
func idxReplaceOnce(t *testing.T, data []byte, anchors []string, old, new string) []byte {
	t.Helper()
	a := 0
	for _, anchor := range anchors {
		i := bytes.Index(data[a:], []byte(anchor))
		if i < 0 {
			t.Fatalf("no %q in index.json after %q", anchor, anchors)
		}
		a += i
	}
	i := bytes.Index(data[a:], []byte(old))
	if i < 0 {
		t.Fatalf("no %q after %q in index.json", old, anchors)
	}
	i += a
	out := append([]byte(nil), data[:i]...)
	out = append(out, new...)
	return append(out, data[i+len(old):]...)
}

func TestIndexFileRejectsAlteredFigures(t *testing.T) {
	t.Parallel() // independent of the other tests, and long: the package ends make test
	b := idxBuild(t, vtSeed)
	for _, tc := range []struct {
		name     string
		anchors  []string
		old, new string
		want     []string // every one must be in the error
	}{
		{"GPU ratio", []string{`"gpu_comparisons"`, `"slug": "qwen-3-32b"`}, `"energy_per_token_ratio": 1.63`, `"energy_per_token_ratio": 1.64`,
			[]string{"index.json: gpu_comparisons[12] (qwen-3-32b): energy_per_token_ratio is 1.64, recomputed 1.63 from the archived task files"}},
		{"task ratio per response", []string{`"row_id": "qwen-3-32b/gpqa/B200`}, `"energy_per_response_ratio": 24.6`, `"energy_per_response_ratio": 24.5`,
			[]string{"task_comparisons[7] (qwen-3-32b on B200): energy_per_response_ratio is 24.5, recomputed 24.6"}},
		{"task ratio spelled with 4 figures", []string{`"row_id": "qwen-3-32b/gpqa/H100`}, `"energy_per_token_ratio": 2.35`, `"energy_per_token_ratio": 2.350`,
			[]string{"task_comparisons[8] (qwen-3-32b on H100): energy_per_token_ratio is 2.350, recomputed 2.35"}},
		{"gpqa output tokens", []string{`"row_id": "qwen-3-32b/gpqa/B200`}, `"avg_output_tokens": 7035`, `"avg_output_tokens": 7036`,
			[]string{"task_comparisons[7] (qwen-3-32b on B200): problem_solving.avg_output_tokens is 7036, recomputed 7035"}},
		{"load curve fall", []string{`"load_curves"`, `"slug": "qwen-3-32b"`}, `"energy_per_token_fall": 11.0`, `"energy_per_token_fall": 11.1`,
			[]string{"load_curves[28] (qwen-3-32b on B200): energy_per_token_fall is 11.1, recomputed 11.0"}},
		{"load curve power", []string{`"load_curves"`, `"slug": "qwen-3-32b"`}, `"gpu_power_rise_percent": 13`, `"gpu_power_rise_percent": 14`,
			[]string{"load_curves[28] (qwen-3-32b on B200): gpu_power_rise_percent is 14, recomputed 13"}},
		{"load curve past row", []string{`"load_curves"`, `"row_id": "qwen-3-32b/B200/1/512"`}, `"median_itl_ms": 57.6`, `"median_itl_ms": 56.7`,
			[]string{"load_curves[28] (qwen-3-32b on B200): past.median_itl_ms is 56.7, recomputed 57.6"}},
		{"index row", []string{`"slug": "qwen-3-32b"`}, `"wh_per_million_output_tokens": 39.05`, `"wh_per_million_output_tokens": 39.06`,
			[]string{"models[16] (qwen-3-32b): best.B200.wh_per_million_output_tokens is 39.06, recomputed 39.05"}},
		{"configuration count", []string{`"slug": "qwen-3-32b"`}, `"configurations": 22`, `"configurations": 23`,
			[]string{"models[16] (qwen-3-32b): configurations is 23, recomputed 22"}},
		{"task file count", []string{`"task": "gpqa"`}, `"stable_configurations": 187`, `"stable_configurations": 186`,
			[]string{"source.tasks[1] (gpqa): stable_configurations is 186, recomputed 187"}},
		{"details sentence", []string{`"details"`}, `holds the full text`, `holds the text`,
			[]string{"index.json: source.details differs from the recomputed text at character"}},
		{"task name", []string{`"task": "gpqa"`}, `"name": "Problem Solving"`, `"name": "Problem solving"`,
			[]string{`index.json: source.tasks[1] (gpqa): name is "Problem solving", recomputed "Problem Solving"`}},
		{"unit", nil, `"unit": "Wh per million output tokens"`, `"unit": "Wh per million tokens"`,
			[]string{`index.json: unit is "Wh per million tokens", recomputed "Wh per million output tokens"`}},
		{"entry renamed", []string{`"gpu_comparisons"`}, `"slug": "qwen-3-32b"`, `"slug": "qwen-3-32c"`,
			[]string{`index.json: gpu_comparisons[12] (qwen-3-32b): slug is "qwen-3-32c", recomputed "qwen-3-32b"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := idxReplaceOnce(t, b.index, tc.anchors, tc.old, tc.new)
			err := indexFile(t, b.chat, b.gpqa, bad, b.models)
			if err == nil {
				t.Fatalf("index.json with %s altered to %s was accepted", tc.old, tc.new)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the error does not say %q:\n%v", w, err)
				}
			}
		})
	}
}

func TestIndexFileRejectsLayout(t *testing.T) {
	b := idxBuild(t, vtSeed)
	for name, bad := range map[string][]byte{
		"trailing newline": append(append([]byte(nil), b.index...), '\n'),
		"tab indentation":  bytes.ReplaceAll(b.index, []byte("\n  \"updated\""), []byte("\n\t\"updated\"")),
	} {
		err := indexFile(t, b.chat, b.gpqa, bad, b.models)
		if err == nil || !strings.Contains(err.Error(), "index.json: has the recomputed values but not the published layout") {
			t.Errorf("%s: got %v; want a layout error", name, err)
		}
	}
}

// TestIndexLayoutDifferenceLate: a difference of layout late in
// index.json (in its last load curve) is found, on its line.
func TestIndexLayoutDifferenceLate(t *testing.T) {
	t.Parallel()
	b := idxBuild(t, vtSeed)
	i := bytes.LastIndex(b.index, []byte(`"throughput_rise": `))
	if i < 0 {
		t.Fatal("no load curve in index.json")
	}
	bad := append(append(append([]byte(nil), b.index[:i]...), `"throughput_rise":  `...), b.index[i+len(`"throughput_rise": `):]...)
	want := fmt.Sprintf("first difference at line %d, column %d", 1+bytes.Count(b.index[:i], []byte("\n")), i-bytes.LastIndexByte(b.index[:i], '\n')+len(`"throughput_rise": `))
	if err := indexFile(t, b.chat, b.gpqa, b.index, b.models); err != nil {
		t.Errorf("the published index.json: %v", err)
	}
	if err := indexFile(t, b.chat, b.gpqa, bad, b.models); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v; want %q", err, want)
	}
}

// TestIndexFileWithBadTaskRow: the index is computed from the same parsed
// rows as the model files: a bad row of a task file is reported by the
// parser (file, row, field), and the index is not recomputed from it.
func TestIndexFileWithBadTaskRow(t *testing.T) {
	b := idxBuild(t, vtSeed)
	gpqa := bytes.Replace(b.gpqa, []byte(`"max_num_seqs": `), []byte(`"max_num_seqs": "x", "was": `), 1)
	err := indexFile(t, b.chat, gpqa, b.index, b.models)
	if err == nil {
		t.Fatal("a gpqa row without a number of sequences was accepted")
	}
	for _, w := range []string{
		taskOf(taskGPQA).file + ": configurations[0] (", `max_num_seqs is "x", not a number`,
		IndexPath + ": cannot be recomputed: " + taskOf(taskGPQA).file + " has the problems reported above",
	} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("the error does not say %q:\n%v", w, err)
		}
	}
}

// TestIndexFileComparison: the published file is decoded, a top-level
// member at a time, only when its bytes differ; what it finds is named.
func TestIndexFileComparison(t *testing.T) {
	b := idxBuild(t, vtSeed)
	for _, tc := range []struct {
		name     string
		old, new string
		want     string
	}{
		{"extra key", `"version": "1",`, `"version": "1", "x": 1,`, "index.json: x is not a field of the recomputed file"},
		{"key twice", `"version": "1",`, `"version": "1", "version": "1",`, "index.json: version appears more than once"},
		{"key missing", `"version": "1",`, ``, "index.json: version is missing"},
		{"list not a list", `"task_comparisons": [`, `"task_comparisons": {"a": 1}, "x": [`, `index.json: task_comparisons is {"a":1}, recomputed an array of 11 from the archived task files`},
		{"not JSON", `"version": "1",`, `"version": "1",,`, "index.json: is not valid JSON"},
		{"data after", "", "\n{}", "index.json: has data after the top-level value"},
	} {
		data := append(append([]byte(nil), b.index...), tc.new...)
		if tc.old != "" {
			data = bytes.Replace(b.index, []byte(tc.old), []byte(tc.new), 1)
		}
		err := indexFile(t, b.chat, b.gpqa, data, b.models)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v; want %q", tc.name, err, tc.want)
		}
	}
}

// TestIndexFileDroppedEntry: when a list of index.json has fewer entries
// than recomputed, its entries are matched by slug and GPU, so the one
// missing is named and the ones after it are not.
func TestIndexFileDroppedEntry(t *testing.T) {
	b := idxBuild(t, vtSeed)
	start := bytes.Index(b.index, []byte(`"gpu_comparisons"`))
	i := bytes.Index(b.index[start:], []byte("\n    {\n      \"slug\": \"qwen-3-32b\","))
	j := bytes.Index(b.index[start+i:], []byte("\n    },"))
	if start < 0 || i < 0 || j < 0 {
		t.Fatal("no gpu_comparisons entry of qwen-3-32b in index.json")
	}
	bad := append(append([]byte(nil), b.index[:start+i]...), b.index[start+i+j+len("\n    },"):]...)
	err := indexFile(t, b.chat, b.gpqa, bad, b.models)
	if err == nil {
		t.Fatal("index.json without a GPU comparison was accepted")
	}
	want := "validate: index: 2 problems\n" +
		"  index.json: gpu_comparisons has 13 entries, recomputed 14 from the archived task files\n" +
		"  index.json: gpu_comparisons has no entry for qwen-3-32b, recomputed one from the archived task files"
	if err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}
