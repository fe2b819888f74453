package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/history"
	"github.com/leadgreen/greentokens/history/historytest"
)

// getHistory calls get_history through cs and returns the result and its
// size as JSON.
func getHistory(t *testing.T, cs *mcp.ClientSession, args map[string]any) (*mcp.CallToolResult, int) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_history", Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return res, len(b)
}

// TestGetHistory: get_history's full answer is the history's, its compact
// one the history's Compact, much shorter; a request the history cannot
// answer is a tool error naming what exists; docs/mcp.md's sizes row is
// what it answers on historytest's store.
func TestGetHistory(t *testing.T) {
	if testing.Short() {
		t.Skip("over historytest's six releases: in make scale, not under -short; the history package's own tests run in both")
	}
	cat, err := catalog.Open(historytest.Store(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(historytest.Cleanup)
	cs := inMemory(t, cat)
	want, err := history.Of(context.Background(), cat.Snapshots(), history.Request{Model: "qwen-3-32b"})
	if err != nil {
		t.Fatal(err)
	}
	full, fullSize := getHistory(t, cs, map[string]any{"model": "Qwen 3 32B", "detail": "full"})
	wantFull, _ := format.Marshal(want)
	if full.IsError || full.Content[0].(*mcp.TextContent).Text != string(wantFull) {
		t.Errorf("detail full is not the history's answer:\n%.300s", full.Content[0].(*mcp.TextContent).Text)
	}
	compact, compactSize := getHistory(t, cs, map[string]any{"model": "qwen-3-32b"})
	var c history.Compact
	if err := json.Unmarshal([]byte(compact.Content[0].(*mcp.TextContent).Text), &c); err != nil || compact.IsError {
		t.Fatalf("compact: %v", err)
	}
	wantCompact, _ := json.Marshal(want.Compact())
	gotCompact, _ := json.Marshal(&c)
	if string(gotCompact) != string(wantCompact) {
		t.Errorf("compact is not the history's Compact:\n%s\n%s", gotCompact, wantCompact)
	}
	// B200: the first point and its four changes; H100: first and last.
	if n := len(c.Series[0].Points); c.Series[0].GPU != "B200" || n != 5 || !slices.Equal(c.Series[0].Points[2].Why, []string{"upstream", "excluded", "excluded"}) {
		t.Errorf("compact B200: %+v", c.Series[0])
	}
	if compactSize*2 > fullSize {
		t.Errorf("compact %d bytes, full %d: compact is not under half", compactSize, fullSize)
	}
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"model": "qwen-3-33b"}, `nearest: "qwen-3-32b"`},
		{map[string]any{"model": "qwen-3-32b", "task": "text-to-audio"}, "the tasks are lm-arena-chat, gpqa, sourcegraph-fim, image-chat, video-chat, text-to-image, text-to-video"},
		{map[string]any{"model": "qwen-3-32b", "task": "video-chat"}, `no model "qwen-3-32b" in task video-chat`},
		{map[string]any{"model": "qwen-3-32b", "gpu": "A100"}, "it has index rows on B200, H100, H200"},
		{map[string]any{"model": "qwen-3-32b", "snapshot": "2025-01-01"}, "no snapshot"},
	} {
		res, _ := getHistory(t, cs, tc.args)
		if !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, tc.want) {
			t.Errorf("%v: %+v; want a tool error saying %q", tc.args, res.Content, tc.want)
		}
	}
	// Another task's history, a diffusion task's and a token task's, full
	// and compact, its figures under the task's key.
	for _, tc := range []struct{ model, task, key string }{
		{"FLUX.1 Dev", historytest.DiffusionTask, "wh_per_image"},
		{historytest.TokenModel, historytest.TokenTask, "wh_per_million_output_tokens"},
	} {
		want, err := history.Of(context.Background(), cat.Snapshots(), history.Request{Model: tc.model, Task: tc.task})
		if err != nil {
			t.Fatal(err)
		}
		full, _ := getHistory(t, cs, map[string]any{"model": tc.model, "task": tc.task, "detail": "full"})
		wantFull, _ := format.Marshal(want)
		if full.IsError || full.Content[0].(*mcp.TextContent).Text != string(wantFull) {
			t.Errorf("%s: detail full is not the history's answer:\n%.300s", tc.task, full.Content[0].(*mcp.TextContent).Text)
		}
		compact, _ := getHistory(t, cs, map[string]any{"model": tc.model, "task": tc.task})
		text := compact.Content[0].(*mcp.TextContent).Text
		wantCompact, _ := json.Marshal(want.Compact())
		var got history.Compact
		if err := json.Unmarshal([]byte(text), &got); err != nil || compact.IsError {
			t.Fatalf("%s: compact: %v %s", tc.task, err, text)
		}
		gotCompact, _ := json.Marshal(&got)
		if string(gotCompact) != string(wantCompact) || !strings.Contains(text, `"`+tc.key+`"`) || strings.Count(text, `"wh_per_`) != strings.Count(text, `"`+tc.key+`"`) {
			t.Errorf("%s: compact is not the history's Compact with %s alone:\n%s", tc.task, tc.key, text)
		}
		if len(got.Series[0].Points) < 2 || len(got.Series[0].Points[1].Why) == 0 || got.Series[0].Points[1].Why[0] != history.UpstreamChanged {
			t.Errorf("%s: compact B200: %+v", tc.task, got.Series[0])
		}
	}
	kb := func(n int) string { return strconv.FormatFloat(float64(n)/1000, 'f', 1, 64) + " KB" }
	row := "| `get_history` `qwen-3-32b` (6 releases) | " + kb(compactSize) + " | " + kb(fullSize) + " |"
	doc, err := os.ReadFile("../docs/mcp.md")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(strings.Split(string(doc), "\n"), row) {
		t.Errorf("docs/mcp.md lacks the row %q", row)
	}
}
