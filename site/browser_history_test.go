package site

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/leadgreen/greentokens/api"
	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/history"
	"github.com/leadgreen/greentokens/history/historytest"

	"net/http/httptest"
)

// TestBrowserHistoryChart loads Qwen 3 32B's page of the site served over
// historytest's six releases, in headless Chromium, at 1280 and 390 px: no
// console error or failed request; the history chart draws a point per
// release and GPU with an index row, rings each release that changed a
// figure, labels its axis with the upstream compiled dates, and the table
// under it lists those releases with why; the chart alone is written as a
// screenshot (history-chart-WIDTH.png, beside the other screenshots).
func TestBrowserHistoryChart(t *testing.T) {
	skipShort(t)
	chromium(t)
	cat, err := catalog.Open(historytest.Store(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(historytest.Cleanup)
	h, err := history.Of(context.Background(), cat.Snapshots(), history.Request{Model: historytest.Model})
	if err != nil {
		t.Fatal(err)
	}
	points, rings := 0, 0
	for _, s := range h.Series {
		for _, p := range s.Points {
			if p.WhPerMillion != nil {
				points++
				if p.Change != nil {
					rings++
				}
			}
		}
	}
	srv := httptest.NewServer(api.New(cat, api.Options{Site: Sites(cat, Options{})}))
	defer srv.Close()
	dir := os.Getenv("GREENTOKENS_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	for _, w := range []int64{1280, 390} {
		b.load(t, srv.URL+"/models/qwen-3-32b.html", w)
		type info struct {
			Points, Rings, Rows int
			Ticks               []string
			Series              []string
			Overflow            bool
		}
		got := eval[info](t, b, `(() => {
  const f = document.querySelector("figure#fig-history");
  if (!f) return {};
  const rows = document.querySelectorAll("section#history table tbody tr").length;
  return {
    Points: f.querySelectorAll("circle.pt").length,
    Rings: f.querySelectorAll("circle.ring").length,
    Rows: rows,
    Ticks: [...f.querySelectorAll("text.tick")].map(t => t.textContent).filter(t => /^\d{4}-/.test(t)),
    Series: [...f.querySelectorAll("g.series")].map(g => g.dataset.series),
    Overflow: f.getBoundingClientRect().right > document.documentElement.clientWidth + 1,
  };
})()`)
		if got.Points != points || got.Rings != rings || got.Rows != rings {
			t.Errorf("%d px: %d points, %d rings, %d table rows; want %d points, %d rings and rows", w, got.Points, got.Rings, got.Rows, points, rings)
		}
		if len(got.Ticks) == 0 || got.Ticks[0] != historytest.Releases[0].Compiled || got.Ticks[len(got.Ticks)-1] != historytest.Releases[5].Compiled {
			t.Errorf("%d px: the date ticks are %v", w, got.Ticks)
		}
		if strings.Join(got.Series, " ") != "B200 H100 H200" {
			t.Errorf("%d px: series %v", w, got.Series)
		}
		if got.Overflow {
			t.Errorf("%d px: the chart is wider than the page", w)
		}
		if err := chromedp.Do(b.ctx, chromedp.ScrollIntoView("figure#fig-history")); err != nil {
			t.Fatal(err)
		}
		png, err := chromedp.Run(b.ctx, chromedp.Screenshot("figure#fig-history"))
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, "history-chart-"+map[int64]string{1280: "1280", 390: "390"}[w]+".png")
		if err := os.WriteFile(name, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s", name)
	}
}
