package validate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/internal/sample"
	"github.com/leadgreen/greentokens/transform"
)

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
		Chat: b.chat, ChatURL: "https://raw.githubusercontent.com/ml-energy/leaderboard/master/public/data/tasks/lm-arena-chat.json",
	}, "2026-09-27", "2026-09-26")
	if err != nil {
		return b, err
	}
	models, err := transform.Models(lb)
	if err != nil {
		return b, err
	}
	b.models = map[string][]byte{}
	for _, m := range models {
		data, err := transform.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		b.models["models/"+m.Slug+".json"] = data
	}
	idx, err := transform.BuildIndex(lb, models, b.gpqa)
	if err != nil {
		t.Fatal(err) // the model files were built: the index must be too
	}
	if b.index, err = transform.Marshal(idx); err != nil {
		t.Fatal(err)
	}
	return b, nil
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
			if err := IndexFile(b.chat, b.gpqa, b.index, b.models); err != nil {
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
			[]string{"index.json", "gpu_comparisons, model qwen-3-32b", "energy_per_token_ratio is", "is 1.64, recomputed 1.63"}},
		{"task ratio per response", []string{`"row_id": "qwen-3-32b/gpqa/B200`}, `"energy_per_response_ratio": 24.6`, `"energy_per_response_ratio": 24.5`,
			[]string{"task_comparisons, model qwen-3-32b on B200", "energy_per_response_ratio is", "is 24.5, recomputed 24.6"}},
		{"task ratio spelled with 4 figures", []string{`"row_id": "qwen-3-32b/gpqa/H100`}, `"energy_per_token_ratio": 2.35`, `"energy_per_token_ratio": 2.350`,
			[]string{"task_comparisons, model qwen-3-32b on H100", "is 2.350, recomputed 2.35"}},
		{"gpqa output tokens", []string{`"row_id": "qwen-3-32b/gpqa/B200`}, `"avg_output_tokens": 7035`, `"avg_output_tokens": 7036`,
			[]string{"task_comparisons, model qwen-3-32b on B200", "problem_solving.avg_output_tokens is", "is 7036, recomputed 7035"}},
		{"load curve fall", []string{`"load_curves"`, `"slug": "qwen-3-32b"`}, `"energy_per_token_fall": 11.0`, `"energy_per_token_fall": 11.1`,
			[]string{"load_curves, model qwen-3-32b on B200", "energy_per_token_fall is"}},
		{"load curve power", []string{`"load_curves"`, `"slug": "qwen-3-32b"`}, `"gpu_power_rise_percent": 13`, `"gpu_power_rise_percent": 14`,
			[]string{"load_curves, model qwen-3-32b on B200", "gpu_power_rise_percent is", "is 14, recomputed 13"}},
		{"load curve past row", []string{`"load_curves"`, `"row_id": "qwen-3-32b/B200/1/512"`}, `"median_itl_ms": 57.6`, `"median_itl_ms": 56.7`,
			[]string{"load_curves, model qwen-3-32b on B200", "past.median_itl_ms is"}},
		{"index row", []string{`"slug": "qwen-3-32b"`}, `"wh_per_million_output_tokens": 39.05`, `"wh_per_million_output_tokens": 39.06`,
			[]string{"models, model qwen-3-32b", "best.B200.wh_per_million_output_tokens is", "is 39.06, recomputed 39.05"}},
		{"configuration count", []string{`"slug": "qwen-3-32b"`}, `"configurations": 22`, `"configurations": 23`,
			[]string{"models, model qwen-3-32b", "configurations is"}},
		{"task file count", []string{`"task": "gpqa"`}, `"stable_configurations": 187`, `"stable_configurations": 186`,
			[]string{"source.tasks[task gpqa].stable_configurations is"}},
		{"dropped entry", []string{`"gpu_comparisons"`}, `"slug": "qwen-3-32b"`, `"slug": "qwen-3-32c"`,
			[]string{"index.json: gpu_comparisons, model qwen-3-32b: is missing", "index.json: gpu_comparisons, model qwen-3-32c: is an entry the task files do not give"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := idxReplaceOnce(t, b.index, tc.anchors, tc.old, tc.new)
			err := IndexFile(b.chat, b.gpqa, bad, b.models)
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
		err := IndexFile(b.chat, b.gpqa, bad, b.models)
		if err == nil || !strings.Contains(err.Error(), "layout differs") {
			t.Errorf("%s: got %v; want a layout error", name, err)
		}
	}
}

func TestIndexFileRejectsModelFileDisagreement(t *testing.T) {
	b := idxBuild(t, vtSeed)
	models := map[string][]byte{}
	for k, v := range b.models {
		models[k] = v
	}
	const path = "models/qwen-3-32b.json"
	models[path] = bytes.Replace(models[path], []byte(`"architecture": "Dense Transformer"`), []byte(`"architecture": "MoE"`), 1)
	err := IndexFile(b.chat, b.gpqa, b.index, models)
	if err == nil || !strings.Contains(err.Error(), path+": architecture is \"MoE\"") {
		t.Errorf("got %v; want an error naming %s and the field", err, path)
	}
	// One configuration fewer, or none, than the task file's stable rows.
	for _, keep := range []int{-1, 0} {
		var m map[string]any
		dec := json.NewDecoder(bytes.NewReader(b.models[path]))
		dec.UseNumber()
		if err := dec.Decode(&m); err != nil {
			t.Fatal(err)
		}
		cs := m["configurations"].([]any)
		want := fmt.Sprintf("%s: configurations has %d rows, but", path, len(cs)-1)
		if keep == 0 {
			m["configurations"], want = nil, path+": configurations has 0 rows, but"
		} else {
			m["configurations"] = cs[:len(cs)-1] // the last: not a best row of the seed's model
		}
		edited, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		models[path] = edited
		if err := IndexFile(b.chat, b.gpqa, b.index, models); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("configurations cut: got %v; want %q", err, want)
		}
	}
	delete(models, path)
	if err := IndexFile(b.chat, b.gpqa, b.index, models); err == nil || !strings.Contains(err.Error(), "qwen-3-32b") {
		t.Errorf("without %s: got %v; want an error naming the model", path, err)
	}
}

// TestIdxFirstDiff: a model file's entry that differs from the index's
// recomputation is reported at the first differing value, not as "an
// object" against "an object".
func TestIdxFirstDiff(t *testing.T) {
	obj := func(wh string) map[string]any {
		return map[string]any{"B200": map[string]any{"row_id": "m/B200/1/8", "wh_per_million_output_tokens": json.Number(wh)}}
	}
	for _, tc := range []struct {
		name      string
		got, want any
		field     string
		g, w      string
	}{
		{"nested number", obj("39.06"), obj("39.05"), "best.B200.wh_per_million_output_tokens", "39.06", "39.05"},
		{"key only in the file", map[string]any{"H100": "x", "B200": "y"}, map[string]any{"B200": "y"}, "best.H100", `"x"`, "null"},
		{"array element", []any{"B200", "H100"}, []any{"B200", "A100"}, "best[1]", `"H100"`, `"A100"`},
		{"array length", []any{"B200"}, []any{"B200", "H100"}, "best", "an array of 1", "an array of 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			field, g, w := idxFirstDiff("best", tc.got, tc.want)
			if field != tc.field || idxShow(g) != tc.g || idxShow(w) != tc.w {
				t.Errorf("idxFirstDiff = %s, %s, %s; want %s, %s, %s", field, idxShow(g), idxShow(w), tc.field, tc.g, tc.w)
			}
		})
	}
}

// TestIndexFileNamesTheFirstModelFileThatDisagrees: with every model file
// but the first disagreeing, the error names the second, in slug order,
// however the files are shared out among the workers that read them
// (eight runs).
func TestIndexFileNamesTheFirstModelFileThatDisagrees(t *testing.T) {
	b := idxBuild(t, vtSeed)
	paths := slices.Sorted(maps.Keys(b.models))
	if len(paths) < 3 {
		t.Fatalf("only %d model files", len(paths))
	}
	models := map[string][]byte{paths[0]: b.models[paths[0]]}
	for _, p := range paths[1:] {
		models[p] = regexp.MustCompile(`"architecture": "[^"]*"`).ReplaceAll(b.models[p], []byte(`"architecture": "Other"`))
	}
	for range 8 {
		err := IndexFile(b.chat, b.gpqa, b.index, models)
		if err == nil || !strings.Contains(err.Error(), "1 problem\n  "+paths[1]+": architecture is \"Other\"") {
			t.Fatalf("got %v; want an error naming %s first", err, paths[1])
		}
	}
}

// TestIndexChunksPrintAsInTurn: index.json's lists printed in chunks of
// any size on a worker per CPU (idxchunks.go) are the published bytes,
// and a difference late in the file is found on its line, whatever the
// chunks. (Not parallel: it sets idxChunkModels.)
func TestIndexChunksPrintAsInTurn(t *testing.T) {
	b := idxBuild(t, vtSeed)
	defer func(n int) { idxChunkModels = n }(idxChunkModels)
	// A layout change in the last load curve, past every chunk of every
	// size below.
	i := bytes.LastIndex(b.index, []byte(`"throughput_rise": `))
	if i < 0 {
		t.Fatal("no load curve in index.json")
	}
	bad := append(append(append([]byte(nil), b.index[:i]...), `"throughput_rise":  `...), b.index[i+len(`"throughput_rise": `):]...)
	want := fmt.Sprintf("line %d: the layout differs", 1+bytes.Count(b.index[:i], []byte("\n")))
	for _, size := range []int{1, 2, 7, 128} {
		idxChunkModels = size
		if err := IndexFile(b.chat, b.gpqa, b.index, b.models); err != nil {
			t.Errorf("chunks of %d models: the published index.json: %v", size, err)
		}
		if err := IndexFile(b.chat, b.gpqa, bad, b.models); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("chunks of %d models: got %v; want %q", size, err, want)
		}
	}
}

// TestIndexModelFilesComparedAsText: a model file's members the index
// repeats are compared as text when they are printed as the index check
// prints them (every member of every built model file), and as values
// when they are not (another indentation: still no problem). Not
// parallel: it reads idxValueCompares.
func TestIndexModelFilesComparedAsText(t *testing.T) {
	b := idxBuild(t, vtSeed)
	idxValueCompares.Store(0)
	if err := IndexFile(b.chat, b.gpqa, b.index, b.models); err != nil {
		t.Fatal(err)
	}
	if n := idxValueCompares.Load(); n != 0 {
		t.Errorf("%d members of the built model files were compared as values, not as text", n)
	}
	const path = "models/qwen-3-32b.json"
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(b.models[path]))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	tabs, err := json.MarshalIndent(m, "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	models := maps.Clone(b.models)
	models[path] = tabs
	if err := IndexFile(b.chat, b.gpqa, b.index, models); err != nil {
		t.Errorf("%s indented with tabs: %v", path, err)
	}
	if n := idxValueCompares.Load(); n == 0 {
		t.Errorf("%s indented with tabs: no member compared as a value", path)
	}
}

// TestIndexChunksStop: eachChunk stops at the first error of emit, at the
// first chunk, the second and the last, for every list, and returns it,
// its workers done (a review's test). Not parallel: it sets
// idxChunkModels.
func TestIndexChunksStop(t *testing.T) {
	b := idxBuild(t, vtSeed)
	src := &idxSource{
		chat:      parseTaskData(taskChat, IndexChatTask, b.chat),
		gpqa:      parseTaskData(taskGPQA, IndexProblemTask, b.gpqa),
		readModel: func(p string) ([]byte, error) { return b.models[p], nil },
	}
	src.models = slices.Sorted(maps.Keys(b.models))
	pl, err := idxPrepare(src)
	if err != nil {
		t.Fatal(err)
	}
	defer func(n int) { idxChunkModels = n }(idxChunkModels)
	idxChunkModels = 1
	stop := errors.New("stop")
	for _, at := range []int{0, 1, len(pl.ids) - 1} {
		for _, list := range idxLists {
			calls := 0
			err := pl.eachChunk(list, func([]byte) error {
				calls++
				if calls > at {
					return stop
				}
				return nil
			})
			if err != stop || calls != at+1 {
				t.Errorf("%s, stopped at chunk %d: %v after %d chunks; want %v after %d", list, at, err, calls, stop, at+1)
			}
		}
	}
}
