package site

import (
	"bytes"
	"github.com/leadgreen/greentokens/history"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/leadgreen/greentokens/catalog"
)

// TestSites: over a catalog, "/" is the latest snapshot's site and
// "/DATE/" a dated one's, the same bytes as the site written by Open.
func TestSites(t *testing.T) {
	dir := seedSnapshot(t)
	cat, err := catalog.Open(filepath.Dir(dir), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := cat.Dates(); len(got) != 1 || got[0] != seedDate {
		t.Fatalf("the catalog serves %v", got)
	}
	// Served, a site has the history of the catalog's releases.
	s, err := New(cat.Snapshots()[0], Options{History: history.NewIndex(cat)})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(Sites(cat, Options{}))
	defer srv.Close()
	index, _ := s.Page("index.html")
	model, _ := s.Page("models/qwen-3-32b.html")
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, tc := range []struct {
		path   string
		status int
		body   []byte
	}{
		{"/", 200, index},
		{"/models/qwen-3-32b.html", 200, model},
		{"/" + seedDate + "/", 200, index},
		{"/" + seedDate + "/models/qwen-3-32b.html", 200, model},
		{"/" + seedDate, 301, nil},
		{"/2020-01-01/", 404, nil},
		{"/nothing.html", 404, nil},
		{"/robots.txt", 200, []byte("User-agent: *\nAllow: /\n")}, // what serve answers
	} {
		resp, err := client.Get(srv.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status || (tc.body != nil && !bytes.Equal(body, tc.body)) {
			t.Errorf("GET %s: status %d (want %d), the site's bytes %v", tc.path, resp.StatusCode, tc.status, bytes.Equal(body, tc.body))
		}
		if tc.status == 301 && resp.Header.Get("Location") != "/"+seedDate+"/" {
			t.Errorf("GET %s: redirected to %q", tc.path, resp.Header.Get("Location"))
		}
	}
}

func TestSitesWithoutSnapshots(t *testing.T) {
	cat, err := catalog.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	Sites(cat, Options{}).ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("GET / with no snapshot: %d, want 503", rec.Code)
	}
}
