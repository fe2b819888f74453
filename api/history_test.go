package api

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/history"
	"github.com/leadgreen/greentokens/history/historytest"
)

// overReleases skips under -short (make test) a test of an endpoint over
// historytest's six releases, which builds them: make scale runs it; the
// history package's own tests run in both.
func overReleases(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("over historytest's six releases: in make scale, not under -short")
	}
}

// TestHistory: /v1/{date}/history/{model} is the history's answer, over
// every release served or those up to a date, and refuses what it cannot
// answer as problem+json naming the parameter.
func TestHistory(t *testing.T) {
	overReleases(t)
	dir := historytest.Store(t)
	base, _ := server(t, dir)
	cat, err := catalog.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path  string
		until int // releases
		req   history.Request
	}{
		{"/v1/latest/history/Qwen%2FQwen3-32B", 6, history.Request{Model: "qwen-3-32b"}},
		{"/v1/latest/history/qwen-3-32b?gpu=b200&task=lm-arena-chat", 6, history.Request{Model: "qwen-3-32b", GPU: "B200"}},
		{"/v1/2026-03-22/history/qwen-3-32b?task=gpqa", 4, history.Request{Model: "qwen-3-32b", Task: "gpqa"}},
		{"/v1/latest/history/FLUX.1%20Dev?task=text-to-image", 6, history.Request{Model: "flux-1-dev", Task: "text-to-image"}},
		{"/v1/2026-04-05/history/qwen-3-coder-30b-a3b?task=sourcegraph-fim&gpu=B200", 5, history.Request{Model: "qwen-3-coder-30b-a3b", Task: "sourcegraph-fim", GPU: "B200"}},
		{"/v1/latest/history/zai-org%2FCogVideoX-2b?task=text-to-video", 6, history.Request{Model: "zai-org/CogVideoX-2b", Task: "text-to-video"}},
	} {
		want, err := history.Of(context.Background(), cat.Snapshots()[:tc.until], tc.req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := format.Marshal(want)
		a := get(t, base+tc.path)
		if a.status != 200 || a.body != string(b) || a.header.Get("Cache-Control") != cacheShort {
			t.Errorf("%s: %d %s; not the history's answer:\n%.300s", tc.path, a.status, a.header.Get("Cache-Control"), a.body)
		}
		// The figures are under the task's key alone.
		if task, _ := format.LookupTask(want.Task); !strings.Contains(a.body, `"`+task.EnergyKey()+`": `) || strings.Count(a.body, `"wh_per_`) != strings.Count(a.body, `"`+task.EnergyKey()+`"`) {
			t.Errorf("%s: the figures are not under %s alone", tc.path, task.EnergyKey())
		}
	}
	for _, tc := range []struct {
		path   string
		status int
		param  string
		detail string
	}{
		{"/v1/latest/history/qwen-3-33b", 404, "model", `nearest: "qwen-3-32b"`},
		{"/v1/latest/history/qwen-3-32b?gpu=A100", 404, "gpu", "it has index rows on B200, H100, H200"},
		{"/v1/latest/history/qwen-3-32b?task=text-to-audio", 400, "task",
			"the tasks are lm-arena-chat, gpqa, sourcegraph-fim, image-chat, video-chat, text-to-image, text-to-video"},
		{"/v1/latest/history/qwen-3-32b?task=image-chat", 404, "model", `no model "qwen-3-32b" in task image-chat`},
		{"/v1/latest/history/qwen-3-32b?grid=NOR", 400, "grid", "the parameters are gpu, task"},
		{"/v1/latest/history/qwen-3-32b?gpu=B200&gpu=H100", 400, "gpu", "more than once"},
		{"/v1/latest/history/%20", 400, "model", "a model is required"},
		{"/v1/2026-01-01/history/qwen-3-32b", 404, "snapshot", "no snapshot"},
		{"/v1/latest/history/" + url.PathEscape(strings.Repeat("x", catalog.MaxNameBytes+1)), 400, "model", "at most 200"},
	} {
		a := get(t, base+tc.path)
		var p Problem
		if err := json.Unmarshal([]byte(a.body), &p); err != nil || a.status != tc.status || p.Parameter != tc.param || !strings.Contains(p.Detail, tc.detail) {
			t.Errorf("%.80s: %d %+v; want %d naming %s, %q", tc.path, a.status, p, tc.status, tc.param, tc.detail)
		}
		if a.header.Get("Content-Type") != "application/problem+json" {
			t.Errorf("%.80s: %s", tc.path, a.header.Get("Content-Type"))
		}
	}
	if a := do(t, http.MethodPost, base+"/v1/latest/history/qwen-3-32b"); a.status != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", a.status)
	}
}

// TestFeed: /v1/feed.atom is the history's feed of the releases served.
func TestFeedEndpoint(t *testing.T) {
	overReleases(t)
	dir := historytest.Store(t)
	base, _ := server(t, dir)
	cat, err := catalog.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := history.Feed(context.Background(), cat.Snapshots(), history.FeedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a := get(t, base+"/v1/feed.atom")
	if a.status != 200 || a.body != string(want) || a.header.Get("Content-Type") != "application/atom+xml" {
		t.Errorf("%d %s:\n%.300s", a.status, a.header.Get("Content-Type"), a.body)
	}
	if a := get(t, base+"/v1/feed.atom?x=1"); a.status != 400 {
		t.Errorf("a query: %d", a.status)
	}
}
