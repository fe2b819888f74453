// Package fetchtest runs a fake upstream for tests: an httptest server that
// serves files from a folder at the paths fetch.Origins expects, with faults
// injected per path (error statuses, Retry-After, HTML pages, truncated or
// dropped bodies, delays, stalls, gzip, redirects). NewMemoryServer serves
// the same over in-memory connections, for tests of waits and bounds in a
// testing/synctest bubble.
//
// A fake leaderboard from the repository's sample (package sample), and a
// fake Ember URL:
//
//	s := fetchtest.NewServer(t, sample.Leaderboard())
//	s.Map(fetchtest.EmberPath, sample.Ember())
//	s.Fault(fetchtest.LeaderboardPrefix+"index.json", fetchtest.Fault{Status: 503, Times: 1})
//	src := s.Source(fetch.HTTPOptions{})
//	f, err := fetch.ReadAll(ctx, src, fetch.LeaderboardIndex)
package fetchtest

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leadgreen/greentokens/fetch"
)

// URL paths of the upstream files on a Server, as Origins returns them.
const (
	// LeaderboardPrefix is the folder of index.json and tasks/ (upstream's
	// public/data/).
	LeaderboardPrefix = "/public/data/"
	// CommitsPath is GitHub's list-commits endpoint (its query is ignored).
	CommitsPath = "/repos/ml-energy/leaderboard/commits"
	// EmberPath is Ember's CSV.
	EmberPath = "/ember/yearly_full_release_long_format.csv"
)

// Server serves files from a folder laid out like the leaderboard's
// public/data/ (index.json, tasks/*.json) with commits.json beside them:
//
//	LeaderboardPrefix + P  ← root/P
//	CommitsPath            ← root/commits.json
//	any other path P       ← root/P
//
// Map and MapDir add routes; Fault injects failures. It is closed when the
// test ends.
type Server struct {
	// URL is the server's base URL, "http://127.0.0.1:PORT".
	URL string

	t    testing.TB
	root string
	// dial, for a NewMemoryServer, connects to it; transports are those
	// Source made for it, closed at the end.
	dial       func(ctx context.Context, network, addr string) (net.Conn, error)
	transports []*http.Transport

	mu       sync.Mutex
	files    map[string]string // URL path → file
	dirs     map[string]string // URL prefix ending in "/" → folder
	faults   map[string][]*Fault
	requests []Request
}

// Request is a request the server received.
type Request struct {
	Method   string
	Path     string
	RawQuery string
	Header   http.Header
}

// NewServer starts a server for root (which may be "" to serve only what
// Map and MapDir add), closed when t ends.
func NewServer(t testing.TB, root string) *Server {
	t.Helper()
	s := newServer(t, root)
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = srv.URL
	t.Cleanup(srv.Close)
	return s
}

// newServer is a Server for root, without its listener.
func newServer(t testing.TB, root string) *Server {
	t.Helper()
	if root != "" {
		if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
			t.Fatalf("fetchtest: root %q is not a folder (%v)", root, err)
		}
	}
	s := &Server{
		t:      t,
		root:   root,
		files:  map[string]string{},
		dirs:   map[string]string{},
		faults: map[string][]*Fault{},
	}
	if root != "" {
		s.dirs[LeaderboardPrefix] = root
		s.files[CommitsPath] = filepath.Join(root, "commits.json")
	}
	return s
}

// Map serves urlPath from file (relative to the working directory, or
// absolute).
func (s *Server) Map(urlPath, file string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files[urlPath] = file
}

// MapDir serves the paths below prefix (which ends in "/") from dir.
func (s *Server) MapDir(prefix, dir string) {
	if !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dirs[prefix] = dir
}

// Origins points fetch at this server: the leaderboard below
// LeaderboardPrefix, the GitHub API at the server's root, Ember at
// EmberPath. All three share one host, so a GitHub token would reach them
// all; tests of the token use two servers.
func (s *Server) Origins() fetch.Origins {
	return fetch.Origins{
		LeaderboardBase: s.URL + LeaderboardPrefix,
		GitHubAPI:       s.URL,
		EmberURL:        s.URL + EmberPath,
	}
}

// Source is an HTTP source for this server, for tests: opts as given, but
// with zero fields set to Origins(), AllowHTTP, millisecond retry waits
// (1ms to 20ms), a 5s per-request timeout and a 10s total bound; for a
// NewMemoryServer, a transport that dials it.
func (s *Server) Source(opts fetch.HTTPOptions) *fetch.HTTP {
	if opts.Origins == (fetch.Origins{}) {
		opts.Origins = s.Origins()
	}
	opts.AllowHTTP = true
	if opts.RetryWaitMin == 0 {
		opts.RetryWaitMin = time.Millisecond
	}
	if opts.RetryWaitMax == 0 {
		opts.RetryWaitMax = 20 * time.Millisecond
	}
	if opts.Timeout == 0 {
		opts.Timeout = 5 * time.Second
	}
	if opts.MaxTotalWait == 0 {
		opts.MaxTotalWait = 10 * time.Second
	}
	if s.dial != nil && opts.Transport == nil {
		opts.Transport = s.memoryTransport(opts.Timeout)
	}
	return fetch.NewHTTP(opts)
}

// Requests returns the requests received so far, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Hits counts the requests received for urlPath.
func (s *Server) Hits(urlPath string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.requests {
		if r.Path == urlPath {
			n++
		}
	}
	return n
}

// file finds the file for a URL path, "" when there is none.
func (s *Server) file(urlPath string) string {
	if f, ok := s.files[urlPath]; ok {
		return f
	}
	clean := path.Clean("/" + urlPath) // no way above the folder
	best := ""
	for prefix := range s.dirs {
		if strings.HasPrefix(clean+"/", prefix) && len(prefix) > len(best) {
			best = prefix
		}
	}
	if best != "" {
		return filepath.Join(s.dirs[best], filepath.FromSlash(strings.TrimPrefix(clean, best)))
	}
	if s.root == "" {
		return ""
	}
	return filepath.Join(s.root, filepath.FromSlash(clean))
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery, Header: r.Header.Clone()})
	fault := s.nextFault(r.URL.Path)
	file := s.file(r.URL.Path)
	s.mu.Unlock()

	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if fault != nil {
		fault.serve(w, r, file)
		return
	}
	(&Fault{}).serve(w, r, file)
}

// readFile reads a served file; ok is false when it is missing or a folder.
func readFile(file string) (data []byte, ok bool) {
	if file == "" {
		return nil, false
	}
	if fi, err := os.Stat(file); err != nil || fi.IsDir() {
		return nil, false
	}
	data, err := os.ReadFile(file)
	return data, err == nil
}

func contentType(name string) string {
	switch {
	case strings.HasSuffix(name, ".json"):
		return "application/json; charset=utf-8"
	case strings.HasSuffix(name, ".csv"):
		return "text/csv; charset=utf-8"
	}
	return "application/octet-stream"
}
