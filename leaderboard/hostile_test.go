package leaderboard

import (
	"fmt"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/internal/sample"
)

// chatFile is a task file with the given rows, one per line: row i is on
// line i+2.
func chatFile(rows ...string) []byte {
	return []byte(`{"task": "lm-arena-chat", "configurations": [` + "\n" + strings.Join(rows, ",\n") + "\n]}")
}

// goodRow is a stable row of org/m on 1 x H100 at cap 8; edits replace
// "KEY": VALUE pairs in it.
func goodRow(edits ...string) string {
	r := `{"model_id": "org/m", "nickname": "M 7B", "total_params_billions": 7, "activated_params_billions": 7, ` +
		`"architecture": "Dense Transformer", "weight_precision": "bfloat16", "gpu_model": "H100", "num_gpus": 1, ` +
		`"max_num_seqs": 8, "tensor_parallel": 1, "data_parallel": 1, "expert_parallel": 1, "avg_batch_size": 7.5, ` +
		`"energy_per_token_joules": 0.4, "energy_per_request_joules": 240, "avg_power_watts": 600, ` +
		`"median_itl_ms": 20, "p90_itl_ms": 25, "p95_itl_ms": 30, "p99_itl_ms": 40, ` +
		`"output_throughput_tokens_per_sec": 1500, "avg_output_len": 600}`
	for i := 0; i+1 < len(edits); i += 2 {
		key := `"` + edits[i] + `": `
		start := strings.Index(r, key)
		if start < 0 {
			panic(edits[i])
		}
		end := start + len(key) + strings.IndexAny(r[start+len(key):], ",}")
		r = r[:start] + key + edits[i+1] + r[end:]
	}
	return r
}

// TestSyntaxErrorPosition: a NaN or Infinity token (not JSON) is an error
// naming the file and the line and column of the token.
func TestSyntaxErrorPosition(t *testing.T) {
	for _, tok := range []string{"NaN", "Infinity", "-Infinity"} {
		data := chatFile(goodRow(), goodRow("max_num_seqs", "16", "avg_batch_size", "15", "energy_per_token_joules", tok))
		_, err := ParseTask(taskChat, data)
		line3 := strings.Split(string(data), "\n")[2]
		col := strings.Index(line3, tok) + 1
		if tok == "-Infinity" {
			col++ // "-" starts a number; the "I" is the bad character
		}
		want := fmt.Sprintf("leaderboard/tasks/lm-arena-chat.json: not valid JSON at line 3, column %d: invalid character", col)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: got %v; want %s...", tok, err, want)
		}
	}
}

// TestNotUTF8: bytes that are not UTF-8 in any of the three JSON files are
// an error naming the file, line, column and offset, where Go's decoder
// would have turned them into U+FFFD.
func TestNotUTF8(t *testing.T) {
	task := chatFile(goodRow(), goodRow("nickname", "\"M \xff7B\""))
	_, err := ParseTask(taskChat, task)
	wantErr(t, err, "leaderboard/tasks/lm-arena-chat.json: not valid UTF-8 at line 3, column 38 (byte offset 627: 0xff)")
	_, err = ParseIndex([]byte("{\"last_updated\": \"2026-03-02\",\n\"models\": {\"org/m\": {\"nickname\": \"M\xc3\"}}}"))
	wantErr(t, err, "leaderboard/index.json: not valid UTF-8 at line 2, column 36 (byte offset 66: 0xc3)")
	_, err = ParseCommits([]byte("[{\"sha\": \"abc\", \"commit\": {\"message\": \"\xe9\"}}]"))
	wantErr(t, err, "leaderboard/commits.json: not valid UTF-8 at line 1, column 40 (byte offset 39: 0xe9)")
	// A U+FFFD written out in UTF-8 is valid.
	if _, err := ParseTask(taskChat, chatFile(goodRow("nickname", "\"M \uFFFD\""))); err != nil {
		t.Errorf("U+FFFD: %v", err)
	}
}

func wantErr(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v; want an error holding %q", err, want)
	}
}

// TestPlausibility: values no measurement can have are errors naming the
// row and field; the bounds themselves pass.
func TestPlausibility(t *testing.T) {
	const where = "leaderboard/tasks/lm-arena-chat.json: configurations[0] (org/m on 1 x H100, max_num_seqs 8): "
	tests := []struct {
		edits []string
		want  string // "" for success
	}{
		{[]string{"energy_per_token_joules", "100"}, ""},
		{[]string{"energy_per_token_joules", "100.000001"}, `field "energy_per_token_joules": 100.000001 J is above the 100 J plausibility bound`},
		{[]string{"energy_per_token_joules", "1e400"}, `field "energy_per_token_joules": 1e400 is out of the float64 range`},
		{[]string{"avg_power_watts", "2000"}, ""},
		{[]string{"avg_power_watts", "2400", "num_gpus", "2"}, ""},
		{[]string{"avg_power_watts", "2400"}, `field "avg_power_watts": 2400 W is 2400 W per GPU (num_gpus 1), above the 2000 W per GPU plausibility bound`},
		{[]string{"avg_batch_size", "8"}, ""},
		{[]string{"avg_batch_size", "8.01"}, `field "avg_batch_size": 8.01 is above max_num_seqs 8, the cap on the running batch`},
		{[]string{"p90_itl_ms", "20", "p95_itl_ms", "20", "p99_itl_ms", "20"}, ""},
		{[]string{"p90_itl_ms", "19.9"}, `field "p90_itl_ms": 19.9 is below median_itl_ms 20; ITL percentiles cannot decrease`},
		{[]string{"p95_itl_ms", "24"}, `field "p95_itl_ms": 24 is below p90_itl_ms 25`},
		// Zero, negative and missing energy are the stability filter's.
		{[]string{"energy_per_token_joules", "0"}, ""},
		{[]string{"energy_per_token_joules", "-1"}, ""},
		{[]string{"energy_per_token_joules", "null"}, ""},
	}
	for _, tt := range tests {
		_, err := ParseTask(taskChat, chatFile(goodRow(tt.edits...)))
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%v: %v", tt.edits, err)
		case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), where+tt.want)):
			t.Errorf("%v: got %v\nwant %s%s", tt.edits, err, where, tt.want)
		}
	}
}

// TestErrorLabel: a row's error names as much of the row as could be read.
func TestErrorLabel(t *testing.T) {
	_, err := ParseTask(taskChat, chatFile(goodRow(), goodRow("architecture", "null")))
	wantErr(t, err, `leaderboard/tasks/lm-arena-chat.json: configurations[1] (org/m on 1 x H100, max_num_seqs 8): field "architecture": missing`)
	_, err = ParseTask(taskChat, chatFile(goodRow("num_gpus", `"1"`)))
	wantErr(t, err, `leaderboard/tasks/lm-arena-chat.json: configurations[0] (org/m): field "num_gpus": "1" is not a number`)
	_, err = ParseTask(taskChat, chatFile(goodRow("model_id", "7")))
	wantErr(t, err, `leaderboard/tasks/lm-arena-chat.json: configurations[0]: field "model_id": 7 is not a string`)
	_, err = ParseTask(taskChat, chatFile(goodRow(), `[1, 2]`))
	wantErr(t, err, `leaderboard/tasks/lm-arena-chat.json: configurations[1]: not a JSON object`)
}

// TestExactDuplicates: a row equal to an earlier one field for field
// (however keys are ordered and numbers spelled) is excluded as a copy and
// takes no part in the cascade; a row of the same configuration with other
// measurements is a repeat and stays.
func TestExactDuplicates(t *testing.T) {
	respelled := strings.NewReplacer(`"avg_batch_size": 7.5`, `"avg_batch_size": 75e-1`, `"num_gpus": 1`, `"num_gpus": 1.0`).Replace(goodRow())
	rows, err := ParseTask(taskChat, chatFile(
		goodRow(),
		goodRow("max_num_seqs", "16", "avg_batch_size", "10"), // unstable: 10 < 0.85 x 16
		respelled, // a copy of row 0
		goodRow("energy_per_token_joules", "0.41"),            // a repeat of row 0
		goodRow("max_num_seqs", "16", "avg_batch_size", "10"), // a copy of row 1
	))
	if err != nil {
		t.Fatal(err)
	}
	stable, excluded := Stable(rows)
	var got []string
	for _, e := range excluded {
		got = append(got, fmt.Sprintf("%d: %s", e.Row.Index, e.Reason))
	}
	want := []string{
		"1: avg_batch_size 10 is under 0.85 of max_num_seqs 16",
		"2: exact duplicate of configurations[0]",
		"4: exact duplicate of configurations[1]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("excluded:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(stable) != 2 || stable[0].Index != 0 || stable[1].Index != 3 {
		t.Errorf("stable rows %v; want rows 0 and 3", stable)
	}
}

// TestRealRepeatsStay: upstream's real repeats (Qwen 3 30B A3B Instruct on
// 2 x H100 at caps 256 and 512 in Text Conversation, GPT OSS 20B on 1 x H100
// at cap 96 in Problem Solving) are measured twice, not copied: both runs
// stay.
func TestRealRepeatsStay(t *testing.T) {
	for _, tc := range []struct {
		task, nickname string
		numGPUs, cap   int
	}{
		{taskChat, "Qwen 3 30B A3B Instruct", 2, 256},
		{taskChat, "Qwen 3 30B A3B Instruct", 2, 512},
		{taskProblem, "GPT OSS 20B", 1, 96},
	} {
		rows, err := ParseTask(tc.task, sample.Read(t, "upstream", "leaderboard", sample.Version, "tasks", tc.task+".json"))
		if err != nil {
			t.Fatal(err)
		}
		stable, excluded := Stable(rows)
		for _, e := range excluded {
			if strings.HasPrefix(e.Reason, "exact duplicate") {
				t.Errorf("%s: %s", e.Row.Label(), e.Reason)
			}
		}
		n := 0
		for _, r := range stable {
			if r.Nickname == tc.nickname && r.GPU == "H100" && r.NumGPUs == tc.numGPUs && r.MaxNumSeqs == tc.cap {
				n++
			}
		}
		if n != 2 {
			t.Errorf("%s: %s on %d x H100 at cap %d: %d stable rows, want the 2 runs", tc.task, tc.nickname, tc.numGPUs, tc.cap, n)
		}
	}
}

// TestWholeFileErrorsComeFirst: the checks of the whole file run beside the
// reading of the rows, but their error is the one reported, as when they
// ran first: a bad row before a syntax error, invalid UTF-8 or a name given
// twice does not hide it.
func TestWholeFileErrorsComeFirst(t *testing.T) {
	bad := goodRow("num_gpus", `"1"`) // a row error, on line 2
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"syntax", chatFile(bad, goodRow("energy_per_token_joules", "NaN")), "not valid JSON at line 3"},
		{"UTF-8", chatFile(bad, goodRow("nickname", "\"M \xff7B\"")), "not valid UTF-8 at line 3"},
		{"a name twice", chatFile(bad, goodRow("nickname", `"M", "nickname": "N"`)), "nickname"},
		{"the row alone", chatFile(bad, goodRow()), "num_gpus"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseTask(taskChat, tc.data)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v; want an error with %q", err, tc.want)
			}
			if tc.name != "the row alone" && strings.Contains(err.Error(), "num_gpus") {
				t.Errorf("the row's error came first: %v", err)
			}
		})
	}
}

// TestRowErrorsInFileOrder: the rows are parsed on several workers once the
// file is read, but the error reported is the one met first in the file:
// the first bad row, wherever the workers' chunks fall; a bad row before a
// wrong "task" field rather than that; and a wrong "task" before the rows
// rather than a bad row.
func TestRowErrorsInFileOrder(t *testing.T) {
	rows := make([]string, 1000)
	for i := range rows {
		rows[i] = goodRow("max_num_seqs", fmt.Sprint(8+i), "model_id", fmt.Sprintf(`"org/m%d"`, i))
	}
	rows[300] = goodRow("model_id", `"org/bad300"`, "num_gpus", `"1"`)
	rows[700] = goodRow("model_id", `"org/bad700"`, "num_gpus", `"1"`)
	body := strings.Join(rows, ",\n")
	for _, tc := range []struct {
		name, data, want string
	}{
		{"the first of two bad rows", `{"task": "lm-arena-chat", "configurations": [` + body + `]}`, "org/bad300"},
		{"a bad row, then a wrong task", `{"configurations": [` + body + `], "task": "gpqa"}`, "org/bad300"},
		{"a wrong task, then a bad row", `{"task": "gpqa", "configurations": [` + body + `]}`, `field "task"`},
		{"good rows, then a wrong task", `{"configurations": [` + goodRow() + `], "task": "gpqa"}`, `field "task"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseTask(taskChat, []byte(tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v; want an error with %q", err, tc.want)
			}
		})
	}
	// Every row of a good file, in order.
	for i := range rows {
		rows[i] = goodRow("max_num_seqs", fmt.Sprint(8+i), "model_id", fmt.Sprintf(`"org/m%d"`, i))
	}
	got, err := ParseTask(taskChat, chatFile(rows...))
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range got {
		if r.Index != i || r.ModelID != fmt.Sprintf("org/m%d", i) || r.MaxNumSeqs != 8+i {
			t.Fatalf("row %d: index %d, model %s, cap %d", i, r.Index, r.ModelID, r.MaxNumSeqs)
		}
	}
}
