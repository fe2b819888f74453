package validate

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSnapshotUpstreamRules: Check itself (not only the hostile
// fixtures' mirror of its parse) reports a key given twice in an archived
// task file, and a Problem Solving row whose model index.json does not
// list, each on the file at fault, with the archived bytes' sha256 fixed in
// the manifest so that only the rule can catch them.
func TestSnapshotUpstreamRules(t *testing.T) {
	tests := []struct {
		name, file, old, new string
		want                 Problem
	}{
		{
			name: "duplicate key in a task file",
			file: vtChat, old: `"median_itl_ms": `, new: `"median_itl_ms": 1.0, "median_itl_ms": `,
			want: Problem{File: vtChat, Where: "configurations[0]", Msg: `has the key "median_itl_ms" twice (the second at line `},
		},
		{
			name: "duplicate key in index.json",
			file: "sources/leaderboard/index.json", old: `"last_updated": `, new: `"last_updated": "2026-01-01", "last_updated": `,
			want: Problem{File: "sources/leaderboard/index.json", Msg: `has the key "last_updated" twice (the second at line `},
		},
		{
			name: "gpqa model not in index.json",
			file: "sources/leaderboard/tasks/gpqa.json", old: `"model_id": "Qwen/Qwen3-14B"`, new: `"model_id": "Nobody/Unlisted-1B"`,
			want: Problem{File: "sources/leaderboard/index.json", Field: "models", Msg: `has no model "Nobody/Unlisted-1B" (gpqa configurations[0] (Nobody/Unlisted-1B on 1 x B200, max_num_seqs 8))`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := vtBuild(t, vtFixture{leaderboard: vtSeed, tasks: []string{taskChat, taskGPQA}})
			vtEditFile(t, dir, tt.file, true, vtReplace(t, tt.old, tt.new))
			got := vtReport(t, dir)
			for _, p := range got {
				if p.File == tt.want.File && p.Where == tt.want.Where && p.Field == tt.want.Field && strings.HasPrefix(p.Msg, tt.want.Msg) {
					return
				}
			}
			t.Errorf("no problem %+v among:\n%s", tt.want, (&Report{Dir: dir, Problems: got}).Error())
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
