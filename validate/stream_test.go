package validate

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// The streaming readers (a schema checked one list entry at a time, a task
// file decoded one row at a time, UTF-8 checked a chunk at a time) must
// find exactly what their whole-file forms find.

// TestStreamedSchemaMatchesWhole: for edits of the seed's index.json and of
// a model file, checking the file one list entry at a time against the split
// schema, streamed (validateStream) or in memory (validateBytes), gives the
// problems of the whole schema on the whole file.
func TestStreamedSchemaMatchesWhole(t *testing.T) {
	t.Parallel() // independent of the other tests, and long: the package ends make test
	b := idxBuild(t, vtSeed)
	model := b.models["models/qwen-3-32b.json"]
	for _, tc := range []struct {
		name, schema string
		data         []byte
		old, new     string // "" old: data as is
	}{
		{"index as built", "index.schema.json", b.index, "", ""},
		{"index: string figure in a load curve", "index.schema.json", b.index, `"energy_per_token_fall": 11.0`, `"energy_per_token_fall": "11.0"`},
		{"index: missing key in a model entry", "index.schema.json", b.index, `"architecture": "Dense Transformer",`, ``},
		{"index: bad GPU key in best", "index.schema.json", b.index, `"best": {
        "B200": {`, `"best": {
        "B/200": {`},
		{"index: extra top-level key", "index.schema.json", b.index, `"version": "1",`, `"version": "1", "x": [1],`},
		{"index: a list as an object", "index.schema.json", b.index, `"task_comparisons": [`, `"task_comparisons": {"a": 1}, "x": [`},
		{"index: no models", "index.schema.json", []byte(`{"models": [], "load_curves": [1]}`), "", ""},
		{"index: not an object", "index.schema.json", []byte(`[{"models": []}]`), "", ""},
		{"index: not an object, cut short", "index.schema.json", []byte(`[{"models": [`), "", ""},
		{"index: data after the value", "index.schema.json", b.index, "", "x"},
		{"index: cut short", "index.schema.json", b.index[:len(b.index)/2], "", ""},
		{"model: zero GPUs", "model.schema.json", model, `"num_gpus": 1,`, `"num_gpus": 0,`},
		{"model: string figure", "model.schema.json", model, `"wh_per_million_output_tokens": 429.18,`, `"wh_per_million_output_tokens": "429.18",`},
		{"model: escapes and non-ASCII in a key and a value", "model.schema.json", model, `"version": "1",`, `"version": "1", "caf\u00e9 \"q\"": "é \ud83d\ude00 \\ \/",`},
		{"model: invalid UTF-8", "model.schema.json", model, `"version": "1",`, "\"version\": \"1\xff\","},
		{"model: a repeated key, the last wrong", "model.schema.json", model, `"version": "1",`, `"version": "1", "version": "2",`},
		{"model: spacing", "model.schema.json", model, `"num_gpus": 1,`, "\"num_gpus\" :\t\r\n-1 ,\n"},
		{"model: a list entry not an object", "model.schema.json", model, `"configurations": [`, `"configurations": [ [ ], true, null, 1e3, {} ,`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := tc.data
			switch {
			case tc.old != "":
				if !bytes.Contains(data, []byte(tc.old)) {
					t.Fatalf("no %q in the file", tc.old)
				}
				data = bytes.Replace(data, []byte(tc.old), []byte(tc.new), 1)
			case tc.new != "":
				data = append(append([]byte(nil), data...), tc.new...)
			}
			schs, errs := compiledSchemas()
			st := compiled.streams[tc.schema]
			if len(errs) != 0 || st == nil {
				t.Fatalf("%s is not split (%v)", tc.schema, errs)
			}
			whole := validateSchema(schs[tc.schema], tc.schema, "f.json", data)
			streamed := validateStream(st, tc.schema, "f.json", iotest.HalfReader(bytes.NewReader(data)))
			if diff := cmp.Diff(whole, streamed); diff != "" {
				t.Errorf("problems (-whole +streamed):\n%s", diff)
			}
			if (tc.old != "" || tc.new != "" || !strings.Contains(tc.name, "as built")) && len(whole) == 0 {
				t.Errorf("the edit was accepted")
			}
		})
	}
}

// taskStructures are task files whose structure (keys, null, repeated
// keys, types, syntax) must be read as json.Unmarshal reads it.
var taskStructures = []string{
	``, `null`, `{}`, `[]`, `"gpqa"`, `{"task": "gpqa"}`,
	`{"Task": "gpqa", "CONFIGURATIONS": [{}]}`,
	`{"task": "a", "task": "b", "configurations": [1, null, {}], "configurations": [{}]}`,
	`{"task": null, "configurations": null}`,
	`{"task": 1, "configurations": [{}]}`,
	`{"task": {"a": [1]}, "configurations": [{}]}`,
	`{"configurations": {}}`,
	`{"configurations": "x"}`,
	`{"x": [1, {"y": [[], {}]}], "task": "t", "z": null, "configurations": [[], "s", {"a": 1}]}`,
	`{"task": "t"} x`, `{"task": "t"} {}`, `{"task": "t"`, `{"task": "t",}`,
	`{"task": 1, "configurations": [NaN]}`,
	"\n{\"task\": \"t\", \"configurations\": [{}]}\n\t ",
}

// TestParseTaskStructures: a task file whose structure json.Unmarshal
// refuses is reported as not decoded, and one it accepts is not.
func TestParseTaskStructures(t *testing.T) {
	for _, in := range taskStructures {
		var doc struct {
			Task           *string           `json:"task"`
			Configurations []json.RawMessage `json:"configurations"`
		}
		wantErr := json.Unmarshal([]byte(in), &doc)
		ps := &problems{file: "f"}
		parseTask(ps, "t", []byte(in))
		decoded := len(ps.list) == 0 || !strings.HasPrefix(ps.list[0].Msg, "cannot be decoded")
		if decoded != (wantErr == nil) {
			t.Errorf("%q: problems %v; json.Unmarshal says %v", in, ps.list, wantErr)
		}
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
		IndexProblemTask + ": configurations[0] (", `max_num_seqs is "x", not a number`,
		IndexPath + ": cannot be recomputed: " + IndexProblemTask + " has the problems reported above",
	} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("the error does not say %q:\n%v", w, err)
		}
	}
}

// TestIndexFileStreamedComparison: the published file is compared one entry
// at a time only when its bytes differ; what it finds is named.
func TestIndexFileStreamedComparison(t *testing.T) {
	b := idxBuild(t, vtSeed)
	for _, tc := range []struct {
		name     string
		old, new string
		want     string
	}{
		{"extra key", `"version": "1",`, `"version": "1", "x": 1,`, "index.json: x is not a key of index.json"},
		{"list not a list", `"task_comparisons": [`, `"task_comparisons": {"a": 1}, "x": [`, "index.json: task_comparisons is an object, want an array"},
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
