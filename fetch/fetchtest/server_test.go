package fetchtest_test

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/fetch/fetchtest"
	"github.com/leadgreen/greentokens/internal/sample"
)

// The repository's sample of upstream data.
var (
	sampleLeaderboard = sample.Leaderboard()
	sampleEmber       = sample.Ember()
)

// A fake leaderboard and Ember from the sample, fetched the way the
// pipeline fetches them.
func TestServerSampleLeaderboard(t *testing.T) {
	t.Parallel()
	s := fetchtest.NewServer(t, sampleLeaderboard)
	s.Map(fetchtest.EmberPath, sampleEmber)
	src := s.Source(fetch.HTTPOptions{})

	tests := []struct{ source, file string }{
		{fetch.LeaderboardIndex, filepath.Join(sampleLeaderboard, "index.json")},
		{fetch.LeaderboardTask("lm-arena-chat"), filepath.Join(sampleLeaderboard, "tasks", "lm-arena-chat.json")},
		{fetch.LeaderboardTask("gpqa"), filepath.Join(sampleLeaderboard, "tasks", "gpqa.json")},
		{fetch.LeaderboardCommits, filepath.Join(sampleLeaderboard, "commits.json")},
		{fetch.EmberYearly, sampleEmber},
	}
	for _, tt := range tests {
		t.Run(tt.source, func(t *testing.T) {
			want, err := os.ReadFile(tt.file)
			if err != nil {
				t.Fatal(err)
			}
			f, err := fetch.ReadAll(t.Context(), src, tt.source)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(want, f.Data) {
				t.Errorf("%s: got %d bytes that differ from the %d of %s", tt.source, len(f.Data), len(want), tt.file)
			}
			wantURL, _ := s.Origins().URL(tt.source)
			if f.URL != wantURL {
				t.Errorf("URL = %q, want %q", f.URL, wantURL)
			}
		})
	}
}

func TestServerRoutes(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write(t, filepath.Join(root, "index.json"), `{"root":1}`)
	write(t, filepath.Join(root, "commits.json"), `[]`)
	write(t, filepath.Join(root, "other", "a.txt"), `a`)
	extra := t.TempDir()
	write(t, filepath.Join(extra, "b.csv"), `b`)
	write(t, filepath.Join(extra, "deep", "c.json"), `{}`)
	outside := filepath.Join(t.TempDir(), "secret")
	write(t, outside, "secret")

	s := fetchtest.NewServer(t, root)
	s.Map("/single", filepath.Join(extra, "b.csv"))
	s.MapDir("/extra", extra)

	type answer struct {
		Status      int
		ContentType string
		Body        string
	}
	tests := []struct {
		path string
		want answer
	}{
		{"/public/data/index.json", answer{200, "application/json; charset=utf-8", `{"root":1}`}},
		{"/repos/ml-energy/leaderboard/commits?path=x&per_page=1", answer{200, "application/json; charset=utf-8", `[]`}},
		{"/other/a.txt", answer{200, "application/octet-stream", "a"}},
		{"/single", answer{200, "text/csv; charset=utf-8", "b"}},
		{"/extra/deep/c.json", answer{200, "application/json; charset=utf-8", "{}"}},
		{"/extra/", answer{404, "text/plain; charset=utf-8", "404 page not found\n"}},
		{"/public/data/missing.json", answer{404, "text/plain; charset=utf-8", "404 page not found\n"}},
		{"/public/data/../../" + filepath.Base(filepath.Dir(outside)) + "/secret", answer{404, "text/plain; charset=utf-8", "404 page not found\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			resp, err := http.Get(s.URL + tt.path)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, answer{resp.StatusCode, resp.Header.Get("Content-Type"), string(body)}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if got := s.Hits("/single"); got != 1 {
		t.Errorf("Hits(/single) = %d", got)
	}
}

func TestServerFaults(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write(t, filepath.Join(root, "index.json"), `{}`)
	s := fetchtest.NewServer(t, root)
	const p = fetchtest.LeaderboardPrefix + "index.json"
	s.FailWith(p, 503, 429)
	s.Fault(p,
		fetchtest.Fault{Status: 403, Header: http.Header{"X-Ratelimit-Remaining": {"0"}}, RetryAfter: "7", Times: 2},
		fetchtest.Fault{Body: []byte(fetchtest.HTMLPage), Times: 1},
	)
	type answer struct {
		Status     int
		RetryAfter string
		Remaining  string
		Body       string
	}
	var got []answer
	for range 7 {
		resp, err := http.Get(s.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got = append(got, answer{resp.StatusCode, resp.Header.Get("Retry-After"), resp.Header.Get("X-Ratelimit-Remaining"), string(body)})
	}
	want := []answer{
		{503, "", "", "503 Service Unavailable\n"},
		{429, "", "", "429 Too Many Requests\n"},
		{403, "7", "0", "403 Forbidden\n"},
		{403, "7", "0", "403 Forbidden\n"},
		{200, "", "", fetchtest.HTMLPage},
		{200, "", "", "{}"},
		{200, "", "", "{}"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
	if n := s.Hits(p); n != 7 {
		t.Errorf("Hits = %d, want 7", n)
	}

	// A fault with Times 0 answers every request, until cleared.
	s.Fault(p, fetchtest.Fault{Status: 500})
	for range 3 {
		if resp, err := http.Get(s.URL + p); err != nil || resp.StatusCode != 500 {
			t.Fatalf("got %v, %v; want 500", resp, err)
		}
	}
	s.ClearFaults(p)
	if resp, err := http.Get(s.URL + p); err != nil || resp.StatusCode != 200 {
		t.Fatalf("got %v, %v; want 200", resp, err)
	}
}

// Cut bodies fail any client, not only fetch's.
func TestServerCutBodies(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write(t, filepath.Join(root, "index.json"), `{"a":"0123456789"}`)
	s := fetchtest.NewServer(t, root)
	const p = fetchtest.LeaderboardPrefix + "index.json"
	for _, f := range []fetchtest.Fault{{Truncate: 5}, {Drop: 5}, {Gzip: true, Truncate: 12}} {
		s.Fault(p, fetchtest.Fault{Truncate: f.Truncate, Drop: f.Drop, Gzip: f.Gzip, Times: 1})
		req, _ := http.NewRequest("GET", s.URL+p, nil)
		req.Header.Set("Accept-Encoding", "identity") // see the raw bytes
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("%+v: read error %v, want unexpected EOF", f, err)
		}
	}
}

func write(t *testing.T, file, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
