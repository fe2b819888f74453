package api

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/catalog/catalogtest"
	"github.com/leadgreen/greentokens/site"
)

// The hostile cases below run against a server on 127.0.0.1, a bounded
// number of requests each: a snapshots folder changed under a running
// server, names and numbers built to cost work, and connections held idle.

// siteServer serves the API and the website over the snapshots under root
// on 127.0.0.1 with the production server's limits, from a catalog the
// test rescans; it returns the URL, the catalog and the log.
func siteServer(t *testing.T, root string) (string, *catalog.Catalog, *syncBuffer) {
	t.Helper()
	var logs syncBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	cat, err := catalog.Open(root, log)
	if err != nil {
		t.Fatal(err)
	}
	h := New(cat, Options{Site: site.Sites(cat, site.Options{Logger: log})})
	ts := httptest.NewUnstartedServer(h)
	ts.Config = NewServer(h)
	ts.Start()
	t.Cleanup(ts.Close)
	return ts.URL, cat, &logs
}

// TestSiteServesVerifiedBytes: a served snapshot's manifest.json replaced by
// a symbolic link to /etc/passwd changes nothing the site or the API
// answers: both give the manifest verified at load, before and after a
// rescan, and the change is logged.
func TestSiteServesVerifiedBytes(t *testing.T) {
	out := t.TempDir()
	dir := catalogtest.Copy(t, filepath.Join(catalogtest.Shared(t), catalogtest.Date), out)
	url, cat, logs := siteServer(t, out)
	want := string(snapFile(t, "manifest.json"))
	m := filepath.Join(dir, "manifest.json")
	if err := os.Remove(m); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", m); err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		for _, path := range []string{"/" + catalogtest.Date + "/data/manifest.json", "/data/manifest.json", "/v1/" + catalogtest.Date + "/manifest"} {
			if a := get(t, url+path); a.status != 200 || a.body != want {
				t.Errorf("%s, %s: status %d, %d bytes; want the verified manifest", when, path, a.status, len(a.body))
			}
		}
	}
	check("before a rescan")
	if _, err := cat.Rescan(); err != nil {
		t.Fatal(err)
	}
	check("after a rescan")
	if !strings.Contains(logs.String(), "manifest.json is a symbolic link") {
		t.Errorf("the change is not logged:\n%s", logs)
	}
}

// TestSiteAndAPIAgree: a served dated folder swapped for a symbolic link to
// another date's folder changes neither the API's nor the site's answer for
// that date; a deleted folder is gone from both (404 on both, never a 500,
// and no body names a server path).
func TestSiteAndAPIAgree(t *testing.T) {
	out := t.TempDir()
	dir := catalogtest.Copy(t, filepath.Join(catalogtest.SharedSmall(t), catalogtest.Date), out)
	other := catalogtest.BuildSmall(t, out, "2026-10-04", "")
	url, cat, _ := siteServer(t, out)
	d := "/" + catalogtest.Date
	before := get(t, url+d+"/sources.html").body
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, dir); err != nil {
		t.Fatal(err)
	}
	cat.Rescan()
	if a := get(t, url+"/v1"+d+"/manifest"); a.status != 200 || a.body != string(smallSnapFile(t, "manifest.json")) {
		t.Errorf("the API's manifest of %s changed: %d", catalogtest.Date, a.status)
	}
	if a := get(t, url+d+"/sources.html"); a.status != 200 || a.body != before {
		t.Errorf("the site's page of %s changed: %d", catalogtest.Date, a.status)
	}
	if err := os.RemoveAll(other); err != nil {
		t.Fatal(err)
	}
	cat.Rescan()
	for _, path := range []string{"/v1/2026-10-04/manifest", "/2026-10-04/", "/2026-10-04/data/manifest.json", "/v1/2026-10-04/models/qwen-3-32b"} {
		a := get(t, url+path)
		if a.status != 404 {
			t.Errorf("%s after its folder was deleted: status %d", path, a.status)
		}
		if strings.Contains(a.body, out) {
			t.Errorf("%s: the body names a server path:\n%s", path, a.body)
		}
	}
}

// TestDatesImmutable: a served date replaced on disk (build --replace) keeps
// its verified answers, so the year-long immutable Cache-Control of a dated
// answer is true; /v1/snapshots still lists the first copy, and the log says
// a restart serves the new one.
func TestDatesImmutable(t *testing.T) {
	out := t.TempDir()
	dir := catalogtest.Copy(t, filepath.Join(catalogtest.SharedSmall(t), catalogtest.Date), out)
	url, cat, logs := siteServer(t, out)
	first := get(t, url+"/v1/snapshots").body
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	catalogtest.BuildSmall(t, out, catalogtest.Date, "") // no grid.json: another manifest
	cat.Rescan()
	if a := get(t, url+"/v1/snapshots"); a.body != first {
		t.Errorf("/v1/snapshots changed after the replacement:\n%s", a.body)
	}
	a := get(t, url+"/v1/"+catalogtest.Date+"/grid")
	if a.status != 200 || a.header.Get("Cache-Control") != cacheImmutable || a.body != string(snapFile(t, "grid.json")) {
		t.Errorf("grid of %s after the replacement: %d, Cache-Control %q", catalogtest.Date, a.status, a.header.Get("Cache-Control"))
	}
	if !strings.Contains(logs.String(), "restart") {
		t.Errorf("the log does not say a restart serves the replacement:\n%s", logs)
	}
}

// TestUnknownPaths: an unknown path under the API's prefixes answers
// problem+json; one under the site's paths the site's HTML 404 page.
func TestUnknownPaths(t *testing.T) {
	url, _, _ := siteServer(t, catalogtest.Shared(t))
	for path, ct := range map[string]string{
		"/v1/nothing":                         "application/problem+json",
		"/v1/latest/models/qwen-3-32b/x":      "application/problem+json",
		"/nothing":                            "text/html; charset=utf-8",
		"/" + catalogtest.Date + "/nothing":   "text/html; charset=utf-8",
		"/2026-01-01/":                        "text/html; charset=utf-8",
		"/" + catalogtest.Date + "/models/x/": "text/html; charset=utf-8",
	} {
		a := get(t, url+path)
		if a.status != 404 || a.header.Get("Content-Type") != ct {
			t.Errorf("%s: %d %q, want 404 %s", path, a.status, a.header.Get("Content-Type"), ct)
		}
		if ct == "text/html; charset=utf-8" && !strings.Contains(a.body, "<h1>Page not found</h1>") {
			t.Errorf("%s: not the site's 404 page:\n%s", path, a.body)
		}
	}
}

// TestModelIDs: a model path resolves a name or model id as the command
// line does, with the slug's URL in Content-Location; a name far from
// every model gets no suggestion.
func TestModelIDs(t *testing.T) {
	url, _ := server(t, catalogtest.Shared(t))
	want := string(snapFile(t, "models/qwen-3-32b.json"))
	for _, path := range []string{"/v1/latest/models/Qwen%2FQwen3-32B", "/v1/latest/models/Qwen%203%2032B", "/v1/" + catalogtest.Date + "/models/qwen%2Fqwen3-32b"} {
		a := get(t, url+path)
		if a.status != 200 || a.body != want || !strings.HasSuffix(a.header.Get("Content-Location"), "/models/qwen-3-32b") {
			t.Errorf("%s: %d, Content-Location %q", path, a.status, a.header.Get("Content-Location"))
		}
	}
	for _, path := range []string{"/v1/latest/models/gpt-4", "/v1/latest/carbon?model=gpt-4&grid=IND"} {
		a := get(t, url+path)
		if p := problemOf(t, a); a.status != 404 || len(p.Nearest) != 0 {
			t.Errorf("%s: %d, nearest %q; want 404 without a suggestion", path, a.status, p.Nearest)
		}
	}
}

// TestLongNames: a name over catalog.MaxNameBytes is a 400 with no
// suggestion and a short body, in a path or a parameter; a path over
// MaxPathBytes is a 414 before any routing; a 60 KB name is refused by the
// server's header cap (431) before it is read whole.
func TestLongNames(t *testing.T) {
	url, _ := server(t, catalogtest.Shared(t))
	long := strings.Repeat("qwen-3-32b", 6<<10) // 60 KB
	for _, tc := range []struct {
		path   string
		status int
	}{
		{"/v1/latest/models/" + long[:MaxPathBytes-64], 400},
		{"/v1/latest/carbon?model=" + long[:MaxQueryBytes-64], 400},
		{"/v1/latest/carbon?model=qwen-3-32b&grid=" + long[:MaxQueryBytes-64], 400},
		{"/v1/latest/carbon?model=qwen-3-32b&gpu=" + long[:MaxQueryBytes-64], 400},
		{"/v1/" + long[:300] + "/models", 400},
		{"/v1/latest/models/" + strings.Repeat("x", catalog.MaxNameBytes+1), 400},
		{"/v1/latest/models/" + long[:MaxPathBytes], 414},
		{"/v1/latest/models/" + long, http.StatusRequestHeaderFieldsTooLarge},
		{"/v1/latest/carbon?model=" + long, http.StatusRequestHeaderFieldsTooLarge},
	} {
		a := get(t, url+tc.path)
		if a.status != tc.status || len(a.body) > 1024 {
			t.Errorf("%.60s...: %d, %d bytes; want a short %d", tc.path, a.status, len(a.body), tc.status)
		}
		if tc.status == 400 {
			if p := problemOf(t, a); len(p.Nearest) != 0 {
				t.Errorf("%.60s...: nearest %q", tc.path, p.Nearest)
			}
		}
	}
}

// TestHeaderCap: a request whose header, request line and final blank line
// included, is MaxHeaderBytes long is answered; one byte more gets
// net/http's 431. The requests are written on raw connections, so that
// their length is exact.
func TestHeaderCap(t *testing.T) {
	url, _ := server(t, catalogtest.Shared(t))
	addr := strings.TrimPrefix(url, "http://")
	for _, tc := range []struct {
		size, status int
	}{
		{MaxHeaderBytes - 1, 200},
		{MaxHeaderBytes, 200},
		{MaxHeaderBytes + 1, http.StatusRequestHeaderFieldsTooLarge},
		{MaxHeaderBytes + 4096, http.StatusRequestHeaderFieldsTooLarge},
	} {
		head := "GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nX-Pad: "
		end := "\r\n\r\n"
		req := head + strings.Repeat("x", tc.size-len(head)-len(end)) + end
		if len(req) != tc.size {
			t.Fatalf("a request of %d bytes, want %d", len(req), tc.size)
		}
		if got := rawStatus(t, addr, req); got != tc.status {
			t.Errorf("a header of %d bytes: status %d, want %d", tc.size, got, tc.status)
		}
	}
}

// rawStatus writes req on a new connection to addr and returns the status
// of the answer.
func rawStatus(t *testing.T, addr, req string) int {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// TestNumbers: a number parameter is decimal, within range, and echoed
// short; -0 is 0; the unknown parameter named is always the same.
func TestNumbers(t *testing.T) {
	url, _ := server(t, catalogtest.Shared(t))
	for _, q := range []string{"batch=1_000", "batch=0x1p4", "batch=0x10", "batch=1e309", "batch=1e-320", "intensity=1e-320", "batch=" + strings.Repeat("1", 40)} {
		a := get(t, url+"/v1/latest/carbon?model=qwen-3-32b&"+q)
		if a.status != 400 || len(a.body) > 1024 {
			t.Errorf("%s: status %d, %d bytes; want a short 400:\n%s", q, a.status, len(a.body), a.body)
		}
	}
	// A blank model, alone, is a bad request naming the parameter, in the
	// query and in the path alike: no model is looked up by a blank name.
	for _, path := range []string{"/v1/latest/carbon?model=%20", "/v1/latest/carbon?model=", "/v1/latest/models/%20", "/v1/latest/models/%20%09"} {
		a := get(t, url+path)
		p := problemOf(t, a)
		if a.status != 400 || p.Parameter != "model" || !strings.Contains(p.Detail, "model") ||
			!(strings.Contains(p.Detail, "required") || strings.Contains(p.Detail, "blank")) {
			t.Errorf("%s: status %d, parameter %q, detail %q; want 400 naming model as required or blank", path, a.status, p.Parameter, p.Detail)
		}
	}
	if p := problemOf(t, get(t, url+"/v1/latest/carbon?model=qwen-3-32b&batch=1e309")); !strings.Contains(p.Detail, "out of range") {
		t.Errorf("1e309: %q", p.Detail)
	}
	a := get(t, url+"/v1/latest/carbon?model=qwen-3-32b&gpu=B200&intensity=-0")
	if a.status != 200 || strings.Contains(a.body, "-0.0") || !strings.Contains(a.body, `"g_co2e_per_kwh": 0.0`) {
		t.Errorf("intensity=-0: %d\n%s", a.status, a.body)
	}
	for range 10 {
		if p := problemOf(t, get(t, url+"/v1/latest/carbon?model=qwen-3-32b&zz=1&bb=1&yy=1&cc=1")); p.Parameter != "bb" {
			t.Fatalf("several unknown parameters: %q named, want bb", p.Parameter)
		}
	}
}

// TestBindFirst: Serve on a port in use fails before it loads a snapshot.
func TestBindFirst(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var logs syncBuffer
	err = Serve(context.Background(), ServeOptions{Snapshots: catalogtest.Shared(t), Addr: ln.Addr().String(),
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err == nil || !strings.Contains(err.Error(), "address already in use") {
		t.Fatalf("Serve on a port in use: %v", err)
	}
	if strings.Contains(logs.String(), "snapshot served") {
		t.Errorf("the snapshots were loaded before the port was tried:\n%s", logs.String())
	}
}

// TestConnectionCap: with the cap reached by idle keep-alive connections
// and by connections that never send a request, a new client is still
// answered: the longest idle goes first, then the oldest silent one.
func TestConnectionCap(t *testing.T) {
	const max = 8
	cat, err := catalog.Open(catalogtest.Shared(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	limit := newConnLimiter(ln, max)
	srv := NewServer(New(cat, Options{}))
	srv.ConnState = limit.track
	go srv.Serve(limit)
	defer srv.Close()
	addr := ln.Addr().String()
	// Idle keep-alives: each has had one answer and stays open.
	var idle []net.Conn
	for range max {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		idle = append(idle, c)
	}
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	healthz := func(when string) {
		t.Helper()
		resp, err := client.Get("http://" + addr + "/healthz")
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("%s: /healthz: %v", when, err)
		}
		resp.Body.Close()
	}
	healthz("at the cap with idle connections")
	// The first idle connection was closed for it.
	if _, err := idle[0].Read(make([]byte, 1)); err == nil {
		t.Error("the longest idle connection is still open")
	}
	// Silent connections: connected, never a request.
	for range 2 * max {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	healthz("at the cap with silent connections")
}

// TestServerErrorsLogged: net/http's own error lines (a failed Accept) go
// to the server's log in its format.
func TestServerErrorsLogged(t *testing.T) {
	var logs syncBuffer
	srv := NewServer(http.NotFoundHandler())
	setErrorLog(srv, slog.New(slog.NewJSONHandler(&logs, nil)))
	ln := &failingListener{}
	srv.Serve(ln)
	line, _, _ := strings.Cut(logs.String(), "\n")
	if !strings.HasPrefix(line, "{") || !strings.Contains(line, "Accept error") {
		t.Errorf("the Accept error is not a JSON log line: %q", logs.String())
	}
}

// failingListener fails its first Accept with a temporary error (net/http
// logs it and retries), then ends.
type failingListener struct{ n int }

func (l *failingListener) Accept() (net.Conn, error) {
	l.n++
	if l.n == 1 {
		return nil, tempError{}
	}
	return nil, net.ErrClosed
}
func (l *failingListener) Close() error   { return nil }
func (l *failingListener) Addr() net.Addr { return &net.TCPAddr{} }

type tempError struct{}

func (tempError) Error() string   { return "too many open files" }
func (tempError) Timeout() bool   { return false }
func (tempError) Temporary() bool { return true }
