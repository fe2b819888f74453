package site

import (
	"net/http/httptest"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/leadgreen/greentokens/api"
	"github.com/leadgreen/greentokens/catalog"
)

// TestBrowserDatePrefix loads a model page of the site served under its
// snapshot's date, /DATE/, in headless Chromium, through the handler that
// serve mounts (the API with Sites at /): no console error and no failed
// request, and its stylesheet, script and favicon come from under /DATE/
// (a path that escaped the prefix would load the latest snapshot's files).
func TestBrowserDatePrefix(t *testing.T) {
	skipShort(t)
	chromium(t)
	cat, err := catalog.Open(filepath.Dir(seedSnapshot(t)), nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(api.New(cat, api.Options{Site: Sites(cat, Options{})}))
	defer srv.Close()
	b := newBrowser(t)
	var mu sync.Mutex
	status := map[string]int64{} // path of each response -> its status
	if err := chromedp.Listen(b.ctx, func(ev any) {
		if ev, ok := ev.(*network.EventResponseReceived); ok && strings.HasPrefix(ev.Response.URL, srv.URL) {
			mu.Lock()
			status[strings.TrimPrefix(ev.Response.URL, srv.URL)] = ev.Response.Status
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}

	prefix := "/" + seedDate + "/"
	for _, p := range []string{"models/qwen-3-32b.html", ""} {
		b.load(t, srv.URL+prefix+p, 1280)
	}
	if got := eval[string](t, b, `getComputedStyle(document.querySelector("header, body")).fontFamily`); got == "" || strings.Contains(got, "Times") {
		t.Errorf("the stylesheet did not apply: font %q", got)
	}
	if n := eval[int](t, b, `document.querySelectorAll("figure[data-chart] circle.pt, figure[data-chart] rect.bar").length`); n == 0 {
		t.Error("the index page under the date prefix shows no chart marks")
	}
	// Headless Chromium asks for a page's favicon when it gets to it, if at
	// all: the page fetches what its icon link names instead, through the
	// same server (a missing one fails below).
	if icon := eval[string](t, b, `document.querySelector("link[rel~=icon]").href`); icon != srv.URL+prefix+"favicon.svg" {
		t.Errorf("the icon link names %q, want %q", icon, srv.URL+prefix+"favicon.svg")
	}
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](`fetch(document.querySelector("link[rel~=icon]").href).then(r => r.status)`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	var paths []string
	for p := range status {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, want := range []string{"models/qwen-3-32b.html", "site.css", "site.js", "favicon.svg"} {
		if s, ok := status[prefix+want]; !ok || s != 200 && s != 304 {
			t.Errorf("%s%s: status %d (requested %v); requests: %v", prefix, want, s, ok, paths)
		}
	}
	for _, p := range paths {
		if !strings.HasPrefix(p, prefix) {
			t.Errorf("%s is requested outside %s", p, prefix)
		}
	}
}
