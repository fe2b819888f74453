package api

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/catalog/catalogtest"
	"github.com/leadgreen/greentokens/mcpserver/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// start runs Serve on 127.0.0.1:0 and returns its base URL and a function
// that stops it (cancelling its context) and returns Serve's error.
func start(t *testing.T, opts ServeOptions) (string, func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	opts.Addr = "127.0.0.1:0"
	loaded := make(chan struct{})
	opts.Listening = func(a string) { addr <- a }
	opts.Loaded = func() { close(loaded) }
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, opts) }()
	select {
	case a := <-addr:
		select {
		case <-loaded:
			return "http://" + a, func() error { cancel(); return <-done }
		case err := <-done:
			cancel()
			t.Fatalf("Serve: %v", err)
		}
	case err := <-done:
		cancel()
		t.Fatalf("Serve: %v", err)
	}
	return "", nil
}

// TestServeSiteAndMCP: the site handler gets / and /DATE/ (and nothing
// under /v1/), and the MCP server answers at /mcp.
func TestServeSiteAndMCP(t *testing.T) {
	root := catalogtest.Shared(t)
	site := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "site:"+r.URL.Path)
	})
	url, stop := start(t, ServeOptions{Snapshots: root, Site: func(*catalog.Catalog) http.Handler { return site }})
	for path, want := range map[string]string{
		"/":                                    "site:/",
		"/" + catalogtest.Date + "/":           "site:/" + catalogtest.Date + "/",
		"/" + catalogtest.Date + "/qwen-3-32b": "site:/" + catalogtest.Date + "/qwen-3-32b",
	} {
		if a := get(t, url+path); a.status != 200 || a.body != want {
			t.Errorf("%s: %d %q, want the site's %q", path, a.status, a.body, want)
		}
	}
	if a := get(t, url+"/v1/nothing"); a.status != 404 || a.header.Get("Content-Type") != "application/problem+json" {
		t.Errorf("/v1/nothing reached the site: %d %s", a.status, a.body)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	mcptest.Check(t, cs, root)
	cs.Close()
	if err := stop(); err != nil {
		t.Errorf("Serve returned %v after its context ended", err)
	}
}

// TestGracefulShutdown: a request in flight when the context ends gets
// its whole answer, and Serve then returns nil; new connections are
// refused.
func TestGracefulShutdown(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	site := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-release
		io.WriteString(w, "finished")
	})
	url, stop := start(t, ServeOptions{Snapshots: catalogtest.Shared(t), Site: func(*catalog.Catalog) http.Handler { return site }})
	got := make(chan string, 1)
	go func() {
		resp, err := http.Get(url + "/slow")
		if err != nil {
			got <- err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		got <- resp.Status + " " + string(b)
	}()
	<-entered
	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()
	// Serve waits for the request in flight.
	select {
	case err := <-stopped:
		t.Fatalf("Serve returned (%v) with a request in flight", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	if a := <-got; a != "200 OK finished" {
		t.Errorf("the request in flight got %q", a)
	}
	if err := <-stopped; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if _, err := http.Get(url + "/healthz"); err == nil {
		t.Error("a new request was answered after shutdown")
	}
}
