package site

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/leadgreen/greentokens/render"
)

// TestBrowserTasks loads the index's task sections and the pages of a
// text-to-image and a text-to-video model in headless Chromium: a section
// per task with a row per model, the H100 against B200 chart of each task
// with a bar per compared model, and each diffusion page's chart of
// energy against batch size with a point per configuration, the index
// rows ringed and the rows over the latency ceiling hollow. Screenshots
// at 1280 and 390 px go to $GREENTOKENS_SCREENSHOTS (or a temporary
// folder): index-tasks-WIDTH.png and the pages' SLUG-WIDTH.png.
func TestBrowserTasks(t *testing.T) {
	skipShort(t)
	chromium(t)
	s := openSeed(t)
	hs := httptest.NewServer(s)
	defer hs.Close()
	srv := hs.URL
	b := newBrowser(t)
	dir := os.Getenv("GREENTOKENS_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}

	b.load(t, srv+"/index.html", 1280)
	charts := eval[map[string]chartInfo](t, b, chartsJS)
	tasks := s.snap.Tasks()
	if len(tasks) != 6 {
		t.Fatalf("%d tasks beside Text Conversation, want 6", len(tasks))
	}
	for _, tk := range tasks {
		sel := "#task-" + tk.ID
		if n := eval[int](t, b, `document.querySelectorAll("`+sel+` table")[0].querySelectorAll("tbody tr").length`); n != len(s.snap.TaskModels(tk.ID)) {
			t.Errorf("%s: %d rows, want %d models", tk.ID, n, len(s.snap.TaskModels(tk.ID)))
		}
		links := eval[[]string](t, b, `Array.from(document.querySelectorAll("`+sel+` table")[0].querySelectorAll("tbody a")).map(a => a.getAttribute("href"))`)
		for i, m := range s.snap.TaskModels(tk.ID) {
			if i >= len(links) || links[i] != taskModelPath(tk.ID, m.Slug) {
				t.Errorf("%s: row %d links %v, want %s", tk.ID, i, links, taskModelPath(tk.ID, m.Slug))
				break
			}
		}
		cmps, err := s.taskComparisons(tk)
		if err != nil {
			t.Fatal(err)
		}
		if c := charts["gpu-ratio-"+tk.ID]; c.Bars != len(cmps) {
			t.Errorf("%s: H100 against B200 chart with %d bars, want %d", tk.ID, c.Bars, len(cmps))
		}
	}
	for _, w := range []int64{1280, 390} {
		b.load(t, srv+"/index.html", w)
		shot(t, b, filepath.Join(dir, fmt.Sprintf("index-tasks-%d.png", w)), "#task-text-to-image")
	}

	for _, p := range []struct{ task, slug string }{{"text-to-image", "stable-diffusion-3-5-medium"}, {"text-to-video", "wan-2-1-14b"}} {
		page := taskModelPath(p.task, p.slug)
		b.load(t, srv+"/"+page, 1280)
		m := s.snap.TaskDiffusion(p.task, p.slug)
		over := 0
		for _, c := range m.Configurations {
			if !c.UnderLatencyCeiling {
				over++
			}
		}
		c := eval[map[string]chartInfo](t, b, chartsJS)["energy"]
		switch {
		case c.Points != len(m.Configurations) || c.Over != over:
			t.Errorf("%s: %d points, %d over the ceiling; want %d and %d", page, c.Points, c.Over, len(m.Configurations), over)
		case c.Rings != len(m.Best) || len(c.Index) != len(m.Best):
			t.Errorf("%s: %d index points, %d rings; want %d", page, len(c.Index), c.Rings, len(m.Best))
		case len(c.Labels) != 2 || !strings.Contains(c.Labels[0], "Batch size") || !strings.Contains(c.Labels[1], "Wh/"):
			t.Errorf("%s: axis labels %q", page, c.Labels)
		case over > 0 && c.HollowFill == c.Fill:
			t.Errorf("%s: a point over the ceiling is drawn like the others", page)
		}
		if n, want := eval[int](t, b, `document.querySelectorAll("#carbon tbody tr").length`), len(render.DefaultGrids())*len(m.Best); n != want {
			t.Errorf("%s: %d carbon rows, want %d (every grid at each index row)", page, n, want)
		}
		for _, w := range []int64{1280, 390} {
			b.load(t, srv+"/"+page, w)
			shot(t, b, filepath.Join(dir, fmt.Sprintf("%s-%d.png", p.slug, w)), "")
		}
	}
}

// shot writes the element sel ("" for the whole page), as shown, to the
// PNG file name.
func shot(t *testing.T, b *browser, name, sel string) {
	t.Helper()
	if sel == "" {
		screenshot(t, b, name)
		return
	}
	png, err := chromedp.Run(b.ctx, chromedp.Screenshot(sel))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", name)
}
