package main

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/history"
	"github.com/leadgreen/greentokens/history/historytest"
)

// TestHistoryCommand: history reads a folder's releases and a file://
// bucket's alike, prints the history's answer as JSON and as a table, and
// words a request it cannot answer as a usage error.
func TestHistoryCommand(t *testing.T) {
	endToEnd(t)
	dir := historytest.Store(t)
	t.Cleanup(historytest.Cleanup)
	cat, err := catalog.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := history.Of(context.Background(), cat.Snapshots(), history.Request{Model: "qwen-3-32b", GPU: "B200"})
	if err != nil {
		t.Fatal(err)
	}
	wantJSON, err := format.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	for _, from := range []string{dir, historytest.FileBucket(t)} {
		code, out, errOut := runCLI(t, "history", "Qwen 3 32B", "--gpu", "b200", "--snapshots", from, "--json")
		if code != exitOK || out != string(wantJSON)+"\n" {
			t.Errorf("%s: exit %d, stderr %q; the JSON is not the history's:\n%.400s", from, code, errOut, out)
		}
	}
	code, out, _ := runCLI(t, "history", "qwen-3-32b", "--snapshots", dir)
	for _, w := range []string{
		"Qwen 3 32B (qwen-3-32b), Text Conversation, Wh per million output tokens: 6 releases, 2026-03-01 to 2026-04-19",
		"moved +2.0%", "upstream: the leaderboard's tasks/lm-arena-chat.json changed",
		"excluded: 1 x B200 at max_num_seqs 384 excluded", "new-gpu: ", "H200",
	} {
		if code != exitOK || !strings.Contains(out, w) {
			t.Errorf("exit %d; the table lacks %q:\n%s", code, w, out)
		}
	}
	code, out, _ = runCLI(t, "history", "qwen-3-32b", "--task", "gpqa", "--snapshots", dir, "--json")
	var h history.History
	if err := json.Unmarshal([]byte(out), &h); code != exitOK || err != nil || h.TaskName != "Problem Solving" {
		t.Errorf("--task gpqa: exit %d, %v, task %q", code, err, h.TaskName)
	}
	for _, tc := range []struct {
		task, model, key string
		want             []string
	}{
		{historytest.DiffusionTask, "FLUX.1 Dev", `"wh_per_image": 1.6667`, []string{"FLUX.1 Dev (flux-1-dev), Text to Image, Wh per image: 6 releases",
			"Wh/image", historytest.DiffusionNewRowID, "excluded: 1 x B200 at batch_size 1 excluded", "new-gpu: "}},
		{historytest.TokenTask, historytest.TokenModel, `"wh_per_million_output_tokens": 31.7`, []string{"Code Completion, Wh per million output tokens: 6 releases",
			"Wh/M", historytest.TokenRow, "moved +2.0%", "upstream: the leaderboard's tasks/sourcegraph-fim.json changed"}},
	} {
		want, err := history.Of(context.Background(), cat.Snapshots(), history.Request{Model: tc.model, Task: tc.task})
		if err != nil {
			t.Fatal(err)
		}
		wantJSON, _ := format.Marshal(want)
		code, out, errOut := runCLI(t, "history", tc.model, "--task", tc.task, "--snapshots", dir, "--json")
		if code != exitOK || out != string(wantJSON)+"\n" || !strings.Contains(out, tc.key) {
			t.Errorf("--task %s: exit %d, stderr %q; the JSON is not the history's:\n%.400s", tc.task, code, errOut, out)
		}
		code, out, _ = runCLI(t, "history", tc.model, "--task", tc.task, "--snapshots", dir)
		for _, w := range tc.want {
			if code != exitOK || !strings.Contains(out, w) {
				t.Errorf("--task %s: exit %d; the table lacks %q:\n%s", tc.task, code, w, out)
			}
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"history", "qwen-3-33b", "--snapshots", dir}, `nearest: "qwen-3-32b"`},
		{[]string{"history", "qwen-3-32b", "--task", "text-to-audio", "--snapshots", dir},
			`no task "text-to-audio"; the tasks are lm-arena-chat, gpqa, sourcegraph-fim, image-chat, video-chat, text-to-image, text-to-video`},
		{[]string{"history", "qwen-3-32b", "--task", "image-chat", "--snapshots", dir}, `no model "qwen-3-32b" in task image-chat`},
		{[]string{"history", "qwen-3-32b", "--gpu", "A100", "--snapshots", dir}, `it has index rows on B200, H100, H200`},
		{[]string{"history", "qwen-3-32b", "--snapshots", dir + "/nope"}, "no such folder"},
		{[]string{"history", "--snapshots", dir}, "a MODEL"},
	} {
		code, _, errOut := runCLI(t, tc.args...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, errOut, exitUsage, tc.want)
		}
	}
}

// TestSiteHistory: site --history charts each model's releases and lists
// them in feed.atom; a --history folder without the snapshot's release is
// a usage error.
func TestSiteHistory(t *testing.T) {
	endToEnd(t)
	dir := historytest.Store(t)
	t.Cleanup(historytest.Cleanup)
	out := t.TempDir() + "/web"
	snap := dir + "/" + historytest.Releases[4].Date
	code, _, errOut := runCLI(t, "site", "--snapshot", snap, "--out", out, "--history", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	page, err := os.ReadFile(out + "/models/qwen-3-32b.html")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `id="fig-history"`) || !strings.Contains(string(page), "5 releases up to 2026-04-05") {
		t.Errorf("the model page has no history of the 5 releases up to its date")
	}
	// A task model's page charts its task's index rows, in its unit.
	for _, tc := range []struct{ page, want string }{
		{"/tasks/" + historytest.DiffusionTask + "/" + historytest.DiffusionModel + ".html", `Wh/image</th><th scope="col">change</th>`},
		{"/tasks/" + historytest.TokenTask + "/" + historytest.TokenModel + ".html", "moved (2.0%)"},
		{"/tasks/gpqa/qwen-3-32b.html", "No release changed an index row."},
	} {
		page, err := os.ReadFile(out + tc.page)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(page), `id="fig-history"`) || !strings.Contains(string(page), "5 releases up to 2026-04-05") || !strings.Contains(string(page), tc.want) {
			t.Errorf("%s has no history of the 5 releases up to its date with %q", tc.page, tc.want)
		}
	}
	if page, err := os.ReadFile(out + "/tasks/gpqa/deepseek-r1.html"); err != nil || strings.Contains(string(page), `id="fig-history"`) {
		t.Errorf("a Problem Solving model the model files do not publish: %v, or a history", err)
	}
	feed, err := os.ReadFile(out + "/feed.atom")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(feed), "<entry>"); n != 5 {
		t.Errorf("feed.atom has %d entries, want 5", n)
	}
	other := t.TempDir()
	code, _, errOut = runCLI(t, "site", "--snapshot", snap, "--out", t.TempDir()+"/web", "--history", other)
	if code != exitUsage || !strings.Contains(errOut, "does not hold the release 2026-04-05") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}
