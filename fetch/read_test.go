package fetch_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/fetch/fetchtest"
)

// ReadAll over HTTP checks that .json files hold JSON.
func TestReadAllChecksJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		source  string
		path    string
		fault   fetchtest.Fault
		wantErr string // URL replaced by "URL"; "" for success
		wantIs  error
	}{
		{name: "HTML page with status 200", source: fetch.LeaderboardIndex, path: indexPath,
			fault:   fetchtest.Fault{Body: []byte(fetchtest.HTMLPage)},
			wantErr: `fetch URL: status 200 but the body is not JSON (starts "<!DOCTYPE html>\n<html><head><title>Servi…")`,
			wantIs:  fetch.ErrNotJSON},
		{name: "HTML page after white space, served as JSON", source: fetch.LeaderboardIndex, path: indexPath,
			fault:   fetchtest.Fault{Body: []byte("\n  <html>"), ContentType: "application/json"},
			wantErr: `fetch URL: status 200 but the body is not JSON (starts "<html>")`, wantIs: fetch.ErrNotJSON},
		{name: "cut JSON", source: fetch.LeaderboardIndex, path: indexPath,
			fault:   fetchtest.Fault{Body: []byte(`{"tasks": [`)},
			wantErr: `fetch URL: status 200 but the body is not JSON (starts "{\"tasks\": ["): line 1, column 12: unexpected end of JSON input`, wantIs: fetch.ErrNotJSON},
		{name: "empty body", source: fetch.LeaderboardIndex, path: indexPath,
			fault: fetchtest.Fault{Body: []byte{}}, wantErr: "fetch URL: status 200 with an empty body", wantIs: fetch.ErrEmpty},
		{name: "white space only", source: fetch.LeaderboardIndex, path: indexPath,
			fault:   fetchtest.Fault{Body: []byte(" \n\t")},
			wantErr: "fetch URL: status 200 with an empty body (3 bytes of white space)", wantIs: fetch.ErrEmpty},
		{name: "JSON with status 203", source: fetch.LeaderboardCommits, path: fetchtest.CommitsPath,
			fault: fetchtest.Fault{Status: 203}},
		{name: "the CSV is not checked", source: fetch.EmberYearly, path: fetchtest.EmberPath,
			fault: fetchtest.Fault{Body: []byte("<not json>")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newServer(t)
			s.Fault(tt.path, tt.fault)
			f, err := fetch.ReadAll(t.Context(), s.Source(fetch.HTTPOptions{}), tt.source)
			if got := s.Hits(tt.path); got != 1 {
				t.Errorf("server saw %d requests; a bad body with a good status is not fetched again", got)
			}
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if f.Name != tt.source || len(f.Data) == 0 {
					t.Errorf("got %+v", f)
				}
				return
			}
			want := strings.ReplaceAll(tt.wantErr, "URL", s.URL+tt.path)
			if err == nil || err.Error() != want {
				t.Fatalf("error:\n got %v\nwant %s", err, want)
			}
			if !errors.Is(err, tt.wantIs) {
				t.Errorf("errors.Is(%v, %v) = false", err, tt.wantIs)
			}
		})
	}
}

// ReadAll over another Source: Dir.
func TestReadAllDir(t *testing.T) {
	t.Parallel()
	origins := fetch.Origins{LeaderboardBase: "https://lb.example/data/", GitHubAPI: "https://api.example", EmberURL: "https://ember.example/x.csv"}
	root := writeTree(t, map[string]string{
		"leaderboard/index.json":                    indexJSON,
		"leaderboard/tasks/empty.json":              "",
		"leaderboard/tasks/html.json":               fetchtest.HTMLPage,
		"ember/yearly_full_release_long_format.csv": "Area,Year\n",
	})
	src := fetch.Dir{Root: root, Origins: origins}
	tests := []struct {
		name    string
		source  string
		want    *fetch.File
		wantErr string
	}{
		{name: "index", source: fetch.LeaderboardIndex,
			want: &fetch.File{Name: fetch.LeaderboardIndex, URL: "https://lb.example/data/index.json",
				Local: filepath.Join(root, "leaderboard/index.json"), Data: []byte(indexJSON)}},
		{name: "CSV", source: fetch.EmberYearly,
			want: &fetch.File{Name: fetch.EmberYearly, URL: "https://ember.example/x.csv",
				Local: filepath.Join(root, "ember/yearly_full_release_long_format.csv"), Data: []byte("Area,Year\n")}},
		{name: "empty JSON", source: fetch.LeaderboardTask("empty"),
			wantErr: "fetch: reading leaderboard/tasks/empty.json (from " + filepath.Join(root, "leaderboard/tasks/empty.json") + "): empty body"},
		{name: "HTML as JSON", source: fetch.LeaderboardTask("html"),
			wantErr: "fetch: reading leaderboard/tasks/html.json (from " + filepath.Join(root, "leaderboard/tasks/html.json") + `): the body is not JSON (starts "<!DOCTYPE html>`},
		{name: "missing", source: fetch.LeaderboardTask("gpqa"),
			wantErr: "fetch: reading leaderboard/tasks/gpqa.json: stat " + filepath.Join(root, "leaderboard/tasks/gpqa.json") + ": no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := fetch.ReadAll(t.Context(), src, tt.source)
			if tt.wantErr != "" {
				wantErr(t, err, tt.wantErr)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, f); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if f.Retrieved != (time.Time{}) {
				t.Errorf("Dir knows no retrieval time, got %v", f.Retrieved)
			}
		})
	}
}

// sizedSource serves fixed bytes with a Size that may be wrong.
type sizedSource struct {
	data []byte
	size int64
}

func (s sizedSource) Open(ctx context.Context, name string) (*fetch.Body, error) {
	return &fetch.Body{ReadCloser: io.NopCloser(bytes.NewReader(s.data)), URL: "https://example/" + name, Size: s.size}, nil
}

// A body whose size is known in advance (a Dir file, an HTTP answer with a
// Content-Length) is read into a buffer made once at that size; a wrong
// size is only a hint: the body is read whole all the same.
func TestReadAllSize(t *testing.T) {
	t.Parallel()
	big := `{"x": "` + strings.Repeat("a", 300<<10) + `"}`
	whole := func(t *testing.T, f *fetch.File, err error, want string) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if string(f.Data) != want {
			t.Fatalf("read %d bytes, want %d", len(f.Data), len(want))
		}
	}

	t.Run("Dir", func(t *testing.T) {
		root := writeTree(t, map[string]string{"leaderboard/index.json": big})
		src := fetch.Dir{Root: root, Origins: fetch.DefaultOrigins()}
		b, err := src.Open(t.Context(), fetch.LeaderboardIndex)
		if err != nil {
			t.Fatal(err)
		}
		b.Close()
		if b.Size != int64(len(big)) {
			t.Errorf("Dir: Size %d, want the file's %d bytes", b.Size, len(big))
		}
		f, err := fetch.ReadAll(t.Context(), src, fetch.LeaderboardIndex)
		whole(t, f, err, big)
		if cap(f.Data) != len(big)+1 {
			t.Errorf("the buffer has room for %d bytes; want it made once, for the %d bytes and one more", cap(f.Data), len(big))
		}
	})

	t.Run("HTTP", func(t *testing.T) {
		for _, tc := range []struct {
			name  string
			fault fetchtest.Fault
			size  int64
		}{
			{"Content-Length", fetchtest.Fault{Body: []byte(big)}, int64(len(big))},
			{"chunked", fetchtest.Fault{Body: []byte(big), Chunked: true}, 0},
			{"gzip", fetchtest.Fault{Body: []byte(big), Gzip: true}, 0},
		} {
			t.Run(tc.name, func(t *testing.T) {
				s := newServer(t)
				s.Fault(indexPath, tc.fault)
				src := s.Source(fetch.HTTPOptions{})
				b, err := src.Open(t.Context(), fetch.LeaderboardIndex)
				if err != nil {
					t.Fatal(err)
				}
				io.Copy(io.Discard, b)
				b.Close()
				if b.Size != tc.size {
					t.Errorf("Open: Size %d, want %d", b.Size, tc.size)
				}
				f, err := fetch.ReadAll(t.Context(), src, fetch.LeaderboardIndex)
				whole(t, f, err, big)
				if tc.size > 0 && cap(f.Data) != len(big)+1 {
					t.Errorf("the buffer has room for %d bytes; want it made once, for the %d bytes and one more", cap(f.Data), len(big))
				}
			})
		}
	})

	t.Run("wrong size", func(t *testing.T) {
		for _, size := range []int64{1, int64(len(big)) - 1, int64(len(big)) + 1, 10 * int64(len(big))} {
			f, err := fetch.ReadAll(t.Context(), sizedSource{data: []byte(big), size: size}, fetch.LeaderboardIndex)
			whole(t, f, err, big)
		}
	})
}
