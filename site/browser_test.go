package site

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/render"
)

// skipShort skips a browser test under -short (make test): the browser
// tests run in make scale, which CI runs.
func skipShort(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs Chromium: in make scale, not under -short")
	}
}

// chromium finds Debian's Chromium, or skips the test saying how to get it.
func chromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/usr/bin/chromium", "chromium", "chromium-browser"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	t.Skip("Chromium is not installed, so the browser tests cannot run: install Debian's package with `apt-get install -y chromium` (.ci/run does so)")
	return ""
}

// browser is one headless Chromium for a test, with what it reports.
type browser struct {
	ctx context.Context
	mu  sync.Mutex
	// problems are console errors and warnings, uncaught exceptions, log
	// entries (CSP violations among them), failed requests and responses
	// of status 400 or more, since the last take.
	problems []string
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	exe := chromium(t)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe), chromedp.Flag("headless", true), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()))
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	b := &browser{ctx: ctx}
	report := func(format string, a ...any) {
		b.mu.Lock()
		b.problems = append(b.problems, fmt.Sprintf(format, a...))
		b.mu.Unlock()
	}
	if err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				report("console %s: %s", ev.Type, strings.Join(args, " "))
			}
		case *runtime.EventExceptionThrown:
			report("exception: %s", ev.ExceptionDetails.Text)
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError || ev.Entry.Level == log.EntryLevelWarning {
				report("log %s (%s): %s %s", ev.Entry.Level, ev.Entry.Source, ev.Entry.Text, ev.Entry.URL)
			}
		case *network.EventLoadingFailed:
			report("request failed: %s %s", ev.ErrorText, ev.BlockedReason)
		case *network.EventResponseReceived:
			if ev.Response.Status >= 400 {
				report("status %d: %s", ev.Response.Status, ev.Response.URL)
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	return b
}

func (b *browser) take() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.problems
	b.problems = nil
	return p
}

// load opens url at the viewport's width and fails the test on anything
// the browser reports while it loads.
func (b *browser) load(t *testing.T, u string, width int64) {
	t.Helper()
	b.take()
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(width, 900), chromedp.Navigate(u), chromedp.WaitReady("body")); err != nil {
		t.Fatalf("%s: %v", u, err)
	}
	b.settle(t)
	for _, p := range b.take() {
		t.Errorf("%s: %s", u, p)
	}
}

// settle lets late reports (a favicon, a violation) arrive.
func (b *browser) settle(t *testing.T) {
	t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`new Promise(r => setTimeout(() => r(true), 50))`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}
}

func eval[T any](t *testing.T, b *browser, js string) T {
	t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%v\n%s", err, js)
	}
	return v
}

// overflowJS lists what sticks out of the viewport, but for the insides
// of the scrolling table wrappers.
const overflowJS = `(() => {
  const w = document.documentElement.clientWidth, bad = [];
  if (document.documentElement.scrollWidth > w) bad.push("the page scrolls: " + document.documentElement.scrollWidth + " > " + w);
  for (const e of document.querySelectorAll("body *")) {
    if (e.parentElement && e.parentElement.closest(".table-wrap")) continue;
    const r = e.getBoundingClientRect();
    if (r.width > 0 && (r.right > w + 0.5 || r.left < -0.5))
      bad.push(e.tagName + "." + (e.getAttribute("class") || "") + " " + Math.round(r.left) + ".." + Math.round(r.right));
  }
  return bad.slice(0, 10);
})()`

// wideTablesJS lists the tables that scroll sideways in their wrappers.
const wideTablesJS = `Array.from(document.querySelectorAll(".table-wrap")).filter(w => w.scrollWidth > w.clientWidth).map(w => w.getAttribute("aria-label") + " " + w.scrollWidth + " > " + w.clientWidth)`

// minChartText is the least size, in CSS pixels on the screen, of a
// chart's text at a 390 px wide viewport.
const minChartText = 12

// chartTextJS lists the chart texts drawn smaller than minChartText.
var chartTextJS = fmt.Sprintf(`Array.from(document.querySelectorAll("figure.chart svg")).flatMap(s => {
  const k = s.clientWidth / s.viewBox.baseVal.width;
  return Array.from(s.querySelectorAll("text")).map(e => [e, parseFloat(getComputedStyle(e).fontSize) * k]).filter(([e, px]) => px < %v).map(([e, px]) => s.closest("figure").id + " " + e.getAttribute("class") + " " + JSON.stringify(e.textContent) + " " + px.toFixed(1));
}).slice(0, 5)`, minChartText)

// TestBrowser loads every page of the seed snapshot's site (of the task
// model pages, one per task) in headless Chromium, over HTTP (the Handler)
// and from file://, and checks what a reader sees: no console error or failed request, the charts' points and
// index rows, the calculator, sorting, and a 390 px wide phone screen.
func TestBrowser(t *testing.T) {
	skipShort(t)
	chromium(t)
	s := openSeed(t)
	srv := httptest.NewServer(s)
	defer srv.Close()
	out := t.TempDir()
	if err := s.WriteDir(out); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)

	// Every page, but of the task model pages (one template over 44 pages)
	// the first of each task: TestBrowserTasks reads two of them closely.
	var pages []string
	tasks := map[string]bool{}
	for _, p := range s.Paths() {
		if !strings.HasSuffix(p, ".html") {
			continue
		}
		if task, _, ok := strings.Cut(strings.TrimPrefix(p, "tasks/"), "/"); ok && strings.HasPrefix(p, "tasks/") {
			if tasks[task] {
				continue
			}
			tasks[task] = true
		}
		pages = append(pages, p)
	}
	t.Run("load", func(t *testing.T) { checkLoad(t, b, s, srv.URL, out, pages) })
	t.Run("reports", func(t *testing.T) { checkReports(t, b, srv.URL) })
	t.Run("phone", func(t *testing.T) { checkPhone(t, b, srv.URL, pages) })
	t.Run("robots", func(t *testing.T) { checkRobots(t, b, srv.URL) })
	t.Run("calculator", func(t *testing.T) { checkCalculator(t, b, s, srv.URL) })
	t.Run("sort", func(t *testing.T) { checkSort(t, b, s, srv.URL) })
	t.Run("screenshots", func(t *testing.T) { checkScreenshots(t, b, srv.URL) })
}

// checkLoad loads every page over HTTP, with its charts, and a page of each
// kind from file:// in out (the CSP lets the site's own files load there
// too).
func checkLoad(t *testing.T, b *browser, s *Site, base, out string, pages []string) {
	for _, p := range pages {
		b.load(t, base+"/"+p, 1280)
		if bad := eval[[]string](t, b, overflowJS); len(bad) > 0 {
			t.Errorf("%s at 1280 px: %v", p, bad)
		}
		// On a desktop screen every table fits: none scrolls sideways.
		if bad := eval[[]string](t, b, wideTablesJS); len(bad) > 0 {
			t.Errorf("%s at 1280 px: tables wider than the page: %v", p, bad)
		}
		checkCharts(t, b, s, p)
	}
	for _, p := range []string{"index.html", "sources.html", "models/qwen-3-32b.html", "grids.html"} {
		b.load(t, (&url.URL{Scheme: "file", Path: filepath.Join(out, p)}).String(), 1280)
	}
	if !eval[bool](t, b, `document.getElementById("calc").classList.contains("ready")`) {
		t.Errorf("grids.html from file://: the calculator's script did not run")
	}
}

// checkReports: the checks of the other pages would see a failure, as a
// missing page is reported.
func checkReports(t *testing.T, b *browser, base string) {
	b.take()
	chromedp.Do(b.ctx, chromedp.Navigate(base+"/models/no-such-model.html"))
	b.settle(t)
	if p := b.take(); len(p) == 0 || !strings.Contains(strings.Join(p, " "), "status 404") {
		t.Errorf("a 404 was not reported: %q", p)
	}
}

// checkPhone loads every page on a phone's screen.
func checkPhone(t *testing.T, b *browser, base string, pages []string) {
	for _, p := range pages {
		b.load(t, base+"/"+p, 390)
		if bad := eval[[]string](t, b, overflowJS); len(bad) > 0 {
			t.Errorf("%s at 390 px: %v", p, bad)
		}
		// Chart text, scaled down with its chart, stays readable.
		if bad := eval[[]string](t, b, chartTextJS); len(bad) > 0 {
			t.Errorf("%s at 390 px: chart text under %v px: %v", p, minChartText, bad)
		}
		// A sha256 in a table stays on one line (the table scrolls)
		// rather than standing one character a line.
		if bad := eval[[]string](t, b, `Array.from(document.querySelectorAll("td code")).filter(c => c.getClientRects().length > 1).map(c => c.textContent)`); len(bad) > 0 {
			t.Errorf("%s at 390 px: %d hashes broken over lines, such as %q", p, len(bad), bad[0])
		}
	}
}

// checkRobots: a page's own origin answers robots.txt to a script, as an
// audit tool run in the page (Lighthouse) asks for it; another origin stays
// refused.
func checkRobots(t *testing.T, b *browser, base string) {
	b.load(t, base+"/index.html", 1280)
	got, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`fetch("robots.txt").then(r => r.text(), e => "refused: " + e)`, chromedp.EvalAwaitPromise))
	if err != nil || got != "User-agent: *\nAllow: /\n" {
		t.Errorf("robots.txt fetched from the index: %q, %v", got, err)
	}
	// The same server under another name is another origin.
	elsewhere := strings.Replace(base, "127.0.0.1", "localhost", 1) + "/robots.txt"
	other, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`fetch("`+elsewhere+`", {mode: "no-cors"}).then(() => "fetched", () => "refused")`, chromedp.EvalAwaitPromise))
	if err != nil || other != "refused" {
		t.Errorf("a request to another origin: %q, %v", other, err)
	}
	b.take() // the refusal above is reported as a violation; it was asked for
}

// checkScreenshots takes screenshots of a page of each kind, wide and
// narrow, into $GREENTOKENS_SCREENSHOTS (or a temporary folder), and checks
// that a page follows the reader's dark scheme.
func checkScreenshots(t *testing.T, b *browser, base string) {
	dir := os.Getenv("GREENTOKENS_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"index.html", "models/qwen-3-32b.html", "grids.html", "sources.html"} {
		for _, w := range []int64{1280, 390} {
			b.load(t, base+"/"+p, w)
			screenshot(t, b, filepath.Join(dir, fmt.Sprintf("%s-%d.png", strings.TrimSuffix(filepath.Base(p), ".html"), w)))
			if p == "grids.html" { // the calculator at a running batch
				setCalc(t, b, "qwen-3-32b", "1 × B200", "30", "India", "")
				screenshot(t, b, filepath.Join(dir, fmt.Sprintf("grids-batch-%d.png", w)))
			}
		}
	}
	// The dark scheme: the page follows the reader's setting.
	light := eval[string](t, b, `getComputedStyle(document.body).backgroundColor`)
	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}}); err != nil {
		t.Fatal(err)
	}
	b.load(t, base+"/models/qwen-3-32b.html", 1280)
	if dark := eval[string](t, b, `getComputedStyle(document.body).backgroundColor`); dark == light || dark != "rgb(18, 22, 20)" {
		t.Errorf("dark scheme: background %s (light %s)", dark, light)
	}
	screenshot(t, b, filepath.Join(dir, "qwen-3-32b-1280-dark.png"))
}

// screenshot writes the whole page, as shown, to the PNG file name.
func screenshot(t *testing.T, b *browser, name string) {
	t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", name)
}

type chartInfo struct {
	Points, Over, Bars int
	Rings              int
	Index              [][]any // series name, data-x of the point
	Title, Desc        string
	Labels             []string
	HollowFill, Fill   string
}

const chartsJS = `(() => {
  const out = {};
  for (const f of document.querySelectorAll("figure[data-chart]")) {
    const pt = f.querySelector("circle.pt:not(.over)"), over = f.querySelector("circle.pt.over");
    out[f.dataset.chart] = {
      Points: f.querySelectorAll("circle.pt").length,
      Over: f.querySelectorAll("circle.pt.over").length,
      Bars: f.querySelectorAll("rect.bar").length,
      Rings: Array.from(f.querySelectorAll("circle.ring")).filter(r => {
        const p = r.nextElementSibling; return p.matches("circle.pt.index") && p.getAttribute("cx") === r.getAttribute("cx") && p.getAttribute("cy") === r.getAttribute("cy");
      }).length,
      Index: Array.from(f.querySelectorAll("circle.pt.index")).map(c => [c.closest("g.series").dataset.series, Number(c.dataset.x)]),
      Title: f.querySelector("svg > title").textContent,
      Desc: f.querySelector("svg > desc").textContent,
      Labels: Array.from(f.querySelectorAll("text.label")).map(t => t.textContent),
      Fill: pt ? getComputedStyle(pt).fill : "",
      HollowFill: over ? getComputedStyle(over).fill : "",
    };
  }
  return out;
})()`

// checkCharts checks the charts of the page p, loaded: a model page's
// points, index rows and marks against its model file, the index's GPU
// comparison and task pairs against index.json.
func checkCharts(t *testing.T, b *browser, s *Site, p string) {
	t.Helper()
	if p == "index.html" {
		got := eval[map[string]chartInfo](t, b, chartsJS)
		if c := got["gpu-ratio"]; c.Bars != 14 || c.Bars != len(s.pages.Index.GPUComparisons) {
			t.Errorf("GPU comparison chart: %d bars, want 14", c.Bars)
		}
		if n := eval[int](t, b, `document.querySelectorAll("#tasks tbody tr").length`); n != 11 {
			t.Errorf("%d task pairs, want 11", n)
		}
		return
	}
	slug, ok := strings.CutPrefix(strings.TrimSuffix(p, ".html"), "models/")
	if !ok {
		return
	}
	e := *s.pages.Entry(slug)
	got := eval[map[string]chartInfo](t, b, chartsJS)
	m, ok := s.snap.Published[e.Slug]
	if !ok {
		t.Fatalf("no model %s", e.Slug)
	}
	over := 0
	for _, c := range m.Configurations {
		if !c.UnderITLDeadline {
			over++
		}
	}
	var wantIndex [][]any
	for _, gpu := range sortedKeys(m.Best) {
		r, err := s.pages.IndexRow(&e, gpu)
		if err != nil {
			t.Fatal(err)
		}
		wantIndex = append(wantIndex, []any{render.On(m.Best[gpu].NumGPUs, gpu), r.AvgBatch})
	}
	for _, id := range []string{"energy", "throughput", "power"} {
		c, ok := got[id]
		switch {
		case !ok:
			t.Errorf("%s: no %s chart", e.Slug, id)
			continue
		case c.Points != len(m.Configurations) || c.Over != over:
			t.Errorf("%s %s: %d points, %d over the deadline; want %d and %d", e.Slug, id, c.Points, c.Over, len(m.Configurations), over)
		case fmt.Sprint(c.Index) != fmt.Sprint(wantIndex) || c.Rings != len(wantIndex):
			t.Errorf("%s %s: index points %v with %d rings; want %v", e.Slug, id, c.Index, c.Rings, wantIndex)
		case c.Title == "" || len(c.Desc) < 40 || len(c.Labels) != 2 || !strings.Contains(c.Labels[0], "Running batch") || !strings.Contains(c.Labels[1], ")"):
			t.Errorf("%s %s: title %q, text alternative %q, axis labels %q", e.Slug, id, c.Title, c.Desc, c.Labels)
		case over > 0 && c.HollowFill == c.Fill:
			t.Errorf("%s %s: a point over the deadline is drawn like the others (fill %s)", e.Slug, id, c.Fill)
		}
	}
	if slug == "qwen-3-32b" {
		// No row of the seed data is over the deadline: the marks of one are
		// checked on a copy of a point and of a line.
		got := eval[[]string](t, b, `(() => {
  const f = document.querySelector('figure[data-chart="energy"]'), pt = f.querySelector("circle.pt"), line = f.querySelector("path.line");
  const p2 = pt.cloneNode(), l2 = line.cloneNode();
  p2.setAttribute("class", "pt over"); l2.setAttribute("class", "line over");
  pt.parentNode.append(p2, l2);
  const out = [getComputedStyle(pt).fill, getComputedStyle(p2).fill, getComputedStyle(line).strokeDasharray, getComputedStyle(l2).strokeDasharray];
  p2.remove(); l2.remove();
  return out;
})()`)
		if len(got) != 4 || got[0] == got[1] || got[2] != "none" || got[3] == "none" {
			t.Errorf("a point over the deadline is not hollow, or its line not dashed: fill %q", got)
		}
	}
	if len(m.Best) > 0 {
		if c := got["carbon"]; c.Bars != len(render.DefaultGrids()) || !strings.Contains(c.Labels[0], "kg CO2e") {
			t.Errorf("%s: carbon chart with %d bars and axis label %q; want %d bars", e.Slug, c.Bars, c.Labels, len(render.DefaultGrids()))
		}
	}
}

func checkCalculator(t *testing.T, b *browser, s *Site, base string) {
	// The controls are wide enough to read, inside the calculator's box.
	for _, w := range []int64{390, 1280} {
		b.load(t, base+"/grids.html", w)
		bad := eval[[]string](t, b, `(() => {
  const box = document.getElementById("calc").getBoundingClientRect(), bad = [];
  for (const e of document.querySelectorAll("#calc select, #calc input")) {
    const r = e.getBoundingClientRect();
    if (r.width < 200 || r.left < box.left || r.right > box.right) bad.push(e.id + " " + Math.round(r.left) + ".." + Math.round(r.right) + " in " + Math.round(box.left) + ".." + Math.round(box.right));
  }
  return bad;
})()`)
		if len(bad) > 0 {
			t.Errorf("grids.html at %d px: calculator controls too narrow or outside their box: %v", w, bad)
		}
	}
	b.load(t, base+"/grids.html", 1280)
	for _, tc := range []struct {
		model, gpu, batch, grid, own string
		wh, kg, config               string
	}{
		{"qwen-3-32b", "1 × B200", "", "Saudi Arabia", "", "39.1", "27.0", "Index row: 1 × B200, cap 384, running batch 383."},
		{"qwen-3-32b", "1 × B200", "30", "Norway", "", "131.5", "3.9", "Nearest to a running batch of 30: 1 × B200, cap 32, running batch 32."},
		{"qwen-3-32b", "1 × B200", "500", "Norway", "", "41.9", "1.3", "Nearest to a running batch of 500: 1 × B200, cap 512, running batch 456."},
		{"qwen-3-32b", "1 × B200", "", "Norway", "", "39.1", "1.2", ""},
		{"qwen-3-32b", "2 × H100", "", "India", "", "63.5", "44.9", ""},
		{"qwen-3-32b", "1 × B200", "", "own", "100", "39.1", "3.9", ""},
		{"qwen-3-32b", "1 × B200", "", "own", "", "39.1", "–", ""},
		{"qwen-3-32b", "1 × B200", "", "own", "-100", "39.1", "–", ""},
		{"qwen-3-32b", "1 × B200", "", "own", "2001", "39.1", "–", ""},
		{"qwen-3-32b", "1 × B200", "", "own", "2000", "39.1", "78.1", ""},
		{"qwen-3-32b", "1 × B200", "0", "India", "", "–", "–", "Type a running batch from 0.000001 to 100,000, or leave it empty for the index row."},
		{"qwen-3-32b", "1 × B200", "100001", "India", "", "–", "–", ""},
		{"qwen-3-32b", "1 × B200", "-3", "India", "", "–", "–", ""},
	} {
		got := setCalc(t, b, tc.model, tc.gpu, tc.batch, tc.grid, tc.own)
		if got.Wh != tc.wh || got.Kg != tc.kg || tc.config != "" && got.Config != tc.config {
			t.Errorf("%s on %s, batch %q, grid %s %s: got %+v, want Wh/M %s, %s kg, %q", tc.model, tc.gpu, tc.batch, tc.grid, tc.own, got, tc.wh, tc.kg, tc.config)
		}
	}

	// Every model and index row on the seed page's seven grids, and at
	// running batches: the page's figures are Go's pricing's, the API's
	// answer (catalog's Price, as /carbon and carbon --json give it).
	d := calcJSON(t, s)
	var cases []calcCase
	for _, m := range d.Models {
		for _, r := range m.Rows {
			cases = append(cases, calcCase{m.Slug, r.Label, ""})
			for _, b := range batchesToTry(r.Batches) {
				cases = append(cases, calcCase{m.Slug, r.Label, b})
			}
		}
	}
	var want []string
	for _, c := range cases {
		want = append(want, goCalc(t, s, d, c))
	}
	caseJSON, _ := json.Marshal(cases)
	got := eval[[]string](t, b, `((cases) => {
  const data = JSON.parse(document.getElementById("calc-data").textContent);
  const model = document.getElementById("calc-model"), gpu = document.getElementById("calc-gpu"), batch = document.getElementById("calc-batch"), grid = document.getElementById("calc-grid");
  const set = (e, v, ev) => { e.value = v; e.dispatchEvent(new Event(ev)); };
  return cases.map(([slug, label, b]) => {
    set(model, slug, "change");
    set(gpu, Array.from(gpu.options).find(o => o.textContent === label).value, "change");
    set(batch, b, "input");
    const out = [slug, label, b, document.getElementById("calc-wh").value, (document.getElementById("calc-config").value.match(/cap \d+/) || [""])[0]];
    for (const a of grid.options) {
      if (a.value === "own") continue;
      set(grid, a.value, "change");
      out.push(data.grids[Number(a.value)].name + " " + document.getElementById("calc-kg").value);
    }
    return out.join("|");
  });
})(`+string(caseJSON)+`)`)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the calculator's figures differ from Go's (-Go +page):\n%s", diff)
	}
	if batched := len(cases) - len(d.Models); len(want) < 300 || batched < 200 {
		t.Errorf("only %d cases, %d of them at a running batch", len(want), batched)
	}

	// The model pages' carbon tables: the calculator gives the same figure
	// at the index row each page prices.
	for _, m := range d.Models {
		b.load(t, base+"/models/"+m.Slug+".html", 1280)
		page := eval[[]string](t, b, `(() => {
  const c = document.querySelector("#carbon p.caption").textContent.match(/on (\d+ × \S+), priced/);
  return Array.from(document.querySelectorAll("#carbon table tbody tr")).map(r => c[1] + "|" + r.cells[0].textContent + " " + r.cells[2].textContent);
})()`)
		if len(page) != len(render.DefaultGrids()) {
			t.Errorf("%s: carbon table %q, want %d grids", m.Slug, page, len(render.DefaultGrids()))
			continue
		}
		label, _, _ := strings.Cut(page[0], "|")
		line := goCalc(t, s, d, calcCase{m.Slug, label, ""})
		for _, p := range page {
			_, cell, _ := strings.Cut(p, "|")
			if !strings.Contains(line, "|"+cell) {
				t.Errorf("%s: the page's carbon table has %q, the calculator %s", m.Slug, cell, line)
			}
		}
	}
}

// calcCase is a model, an index row's label and a running batch ("" for
// the index row) to set the calculator to.
type calcCase [3]string

// setCalc sets the calculator's controls and returns what it shows.
func setCalc(t *testing.T, b *browser, model, gpu, batch, grid, own string) (shown struct{ Wh, Kg, Config string }) {
	t.Helper()
	js := fmt.Sprintf(`((model, gpu, batch, grid, own) => {
  const set = (id, v, ev) => { const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event(ev)); };
  set("calc-model", model, "change");
  const g = Array.from(document.getElementById("calc-gpu").options).find(o => o.textContent === gpu);
  set("calc-gpu", g ? g.value : "-1", "change");
  set("calc-batch", batch, "input");
  const a = Array.from(document.getElementById("calc-grid").options).find(o => o.textContent.startsWith(grid + " (") || o.value === grid);
  set("calc-grid", a ? a.value : "-1", "change");
  set("calc-own", own, "input");
  return {Wh: document.getElementById("calc-wh").value, Kg: document.getElementById("calc-kg").value, Config: document.getElementById("calc-config").value};
})(%q, %q, %q, %q, %q)`, model, gpu, batch, grid, own)
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[struct{ Wh, Kg, Config string }](js))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// batchesToTry are the running batches the calculator is checked at for
// an index row's configurations: each one's own unrounded batch, each
// midpoint between two (a tie, which goes to the smaller), one below and
// one above them all, and the bounds of a batch.
func batchesToTry(cs []calcConfig) []string {
	var bs []float64
	for _, c := range cs {
		bs = append(bs, c.Batch)
	}
	sort.Float64s(bs)
	out := []float64{1e-6, 100000, bs[0] / 2, bs[len(bs)-1] * 2}
	for i, b := range bs {
		out = append(out, b)
		if i > 0 && b != bs[i-1] {
			out = append(out, (bs[i-1]+b)/2)
		}
	}
	texts := make([]string, len(out))
	for i, b := range out {
		texts[i] = strconv.FormatFloat(b, 'g', -1, 64)
	}
	return texts
}

// goCalc is what the calculator must show for c, from Go's pricing: the
// model's price on the seed page's seven grids (render.DefaultGrids()) at
// the index row, or at the batch, as catalog's Price answers the API.
func goCalc(t *testing.T, s *Site, d calcData, c calcCase) string {
	t.Helper()
	slug, label, batch := c[0], c[1], c[2]
	_, gpu, _ := strings.Cut(label, " × ")
	req := catalog.PriceRequest{Model: slug, GPU: gpu, Grids: render.DefaultGrids()}
	if batch != "" {
		b, err := strconv.ParseFloat(batch, 64)
		if err != nil {
			t.Fatal(err)
		}
		req.Batch = &b
	}
	ans, err := s.snap.Price(req)
	if err != nil {
		t.Fatalf("%v: %v", req, err)
	}
	if len(ans.Rows) != len(render.DefaultGrids()) {
		t.Fatalf("%v: %d rows", req, len(ans.Rows))
	}
	kg := map[string]string{}
	for _, r := range ans.Rows {
		kg[r.Grid] = render.Dec1(float64(r.KgPerBillion))
	}
	r := ans.Rows[0]
	out := []string{slug, label, batch, render.Dec1(r.WhPerMillionUnrounded), fmt.Sprintf("cap %d", r.MaxNumSeqs)}
	for _, g := range d.Grids { // the page's grids, in its order
		k, ok := kg[g.Name]
		if !ok {
			t.Fatalf("%v: no price on %s, a grid of the page", req, g.Name)
		}
		out = append(out, g.Name+" "+k)
	}
	return strings.Join(out, "|")
}

func checkSort(t *testing.T, b *browser, s *Site, base string) {
	b.load(t, base+"/index.html", 1280)
	type row struct {
		slug string
		wh   float64
	}
	var want []row
	var without []string
	for _, e := range s.pages.Index.Models {
		if _, ok := e.Best["B200"]; !ok {
			without = append(without, e.Slug)
			continue
		}
		r, err := s.pages.IndexRow(&e, "B200")
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, row{e.Slug, r.WhPerMillion()})
	}
	sort.Slice(want, func(i, j int) bool { return want[i].wh < want[j].wh })
	const rowsJS = `Array.from(document.querySelectorAll("#index-table tbody tr")).map(r => r.dataset.slug)`
	if err := chromedp.Do(b.ctx, chromedp.Click(`th[data-key="b200-wh"] button`)); err != nil {
		t.Fatal(err)
	}
	got := eval[[]string](t, b, rowsJS)
	var wantSlugs []string
	for _, r := range want {
		wantSlugs = append(wantSlugs, r.slug)
	}
	wantSlugs = append(wantSlugs, without...)
	if fmt.Sprint(got) != fmt.Sprint(wantSlugs) {
		t.Errorf("sorted by B200 Wh/M:\n got %v\nwant %v", got, wantSlugs)
	}
	if len(got) == 0 || got[0] != want[0].slug {
		t.Errorf("the lowest B200 Wh/M (%s) is not first", want[0].slug)
	}
	if a := eval[string](t, b, `document.querySelector('th[data-key="b200-wh"]').getAttribute("aria-sort")`); a != "ascending" {
		t.Errorf("aria-sort %q after one click", a)
	}
	if err := chromedp.Do(b.ctx, chromedp.Click(`th[data-key="b200-wh"] button`)); err != nil {
		t.Fatal(err)
	}
	if got := eval[[]string](t, b, rowsJS); len(got) == 0 || got[0] != want[len(want)-1].slug || got[len(got)-1] != wantSlugs[len(wantSlugs)-1] {
		t.Errorf("sorted by B200 Wh/M, descending: %v; want %s first and the models without B200 last", got, want[len(want)-1].slug)
	}
}
