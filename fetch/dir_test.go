package fetch_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/fetch"
)

func TestDir(t *testing.T) {
	t.Parallel()
	origins := fetch.Origins{LeaderboardBase: "https://lb.example/public/data", GitHubAPI: "https://api.example/", EmberURL: "https://ember.example/y.csv"}
	root := writeTree(t, map[string]string{
		"leaderboard/index.json":                    indexJSON,
		"leaderboard/commits.json":                  commitsJSON,
		"leaderboard/tasks/gpqa.json":               gpqaJSON,
		"ember/yearly_full_release_long_format.csv": "Area,Year\n",
		"x": "outside",
	})
	upstream := writeTree(t, map[string]string{"index.json": `{"upstream":true}`, "tasks/gpqa.json": `{}`})

	type got struct{ URL, Data string }
	tests := []struct {
		name        string
		leaderboard string
		source      string
		want        got
		wantErr     string
	}{
		{name: "index", source: fetch.LeaderboardIndex,
			want: got{"https://lb.example/public/data/index.json", indexJSON}},
		{name: "task", source: fetch.LeaderboardTask("gpqa"),
			want: got{"https://lb.example/public/data/tasks/gpqa.json", gpqaJSON}},
		{name: "commits", source: fetch.LeaderboardCommits,
			want: got{"https://api.example/repos/ml-energy/leaderboard/commits?path=public/data/tasks&per_page=1", commitsJSON}},
		{name: "ember", source: fetch.EmberYearly,
			want: got{"https://ember.example/y.csv", "Area,Year\n"}},
		{name: "leaderboard folder as upstream lays it out", leaderboard: upstream, source: fetch.LeaderboardIndex,
			want: got{"https://lb.example/public/data/index.json", `{"upstream":true}`}},
		{name: "ember beside an upstream leaderboard folder", leaderboard: upstream, source: fetch.EmberYearly,
			want: got{"https://ember.example/y.csv", "Area,Year\n"}},
		// A snapshot archives Ember's CSV under the name of its layout;
		// asked for under the other, the folder hands out the one it has.
		{name: "ember under its other name", source: fetch.EmberGlobal,
			want: got{"https://ember.example/y.csv", "Area,Year\n"}},
		{name: "parent folder", source: "../x", wantErr: `fetch: bad source name "../x"`},
		{name: "parent inside", source: "leaderboard/../x", wantErr: `fetch: bad source name "leaderboard/../x"`},
		{name: "absolute", source: "/etc/passwd", wantErr: `fetch: bad source name "/etc/passwd"`},
		{name: "unknown", source: "x", wantErr: `fetch: no upstream for source "x"`},
		{name: "missing", source: fetch.LeaderboardTask("nope"), wantErr: "fetch: reading leaderboard/tasks/nope.json: stat "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := fetch.Dir{Root: root, Origins: origins, Leaderboard: tt.leaderboard}
			body, err := d.Open(t.Context(), tt.source)
			if tt.wantErr != "" {
				wantErr(t, err, tt.wantErr)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer body.Close()
			data, err := io.ReadAll(body)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got{body.URL, string(data)}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if !body.Retrieved.IsZero() {
				t.Errorf("Retrieved = %v, want zero", body.Retrieved)
			}
		})
	}

	t.Run("cancelled context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if _, err := (fetch.Dir{Root: root, Origins: origins}).Open(ctx, fetch.LeaderboardIndex); err != context.Canceled {
			t.Errorf("error = %v, want context.Canceled", err)
		}
	})
}

// TestDirCaps: an offline source has the caps of a download (16 MiB JSON,
// 256 MiB CSV by default; smaller here), refuses what is not a regular
// file without blocking on it, and its errors name the local file, not
// the upstream URL.
func TestDirCaps(t *testing.T) {
	t.Parallel()
	origins := fetch.Origins{LeaderboardBase: "https://lb.example/public/data/", GitHubAPI: "https://api.example", EmberURL: "https://ember.example/y.csv"}
	root := writeTree(t, map[string]string{
		"leaderboard/index.json":                    `{"a":"` + strings.Repeat("x", 100) + `"}`,
		"leaderboard/commits.json":                  "<html>not json</html>",
		"leaderboard/tasks/gpqa.json":               "",
		"ember/yearly_full_release_long_format.csv": strings.Repeat("Area,Year\n", 30), // 300 bytes
	})
	fifo := filepath.Join(root, "leaderboard", "tasks", "lm-arena-chat.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	local := func(name string) string { return filepath.Join(root, filepath.FromSlash(name)) }
	d := fetch.Dir{Root: root, Origins: origins, MaxBytes: 64, MaxBytesCSV: 200}
	tests := []struct {
		name     string
		source   string
		wantIs   error
		wantErr  []string
		notInErr string
	}{
		{"JSON over its cap", fetch.LeaderboardIndex, fetch.ErrTooLarge,
			[]string{local(fetch.LeaderboardIndex), "file of 108 bytes is larger than the 64 bytes cap"}, "https://"},
		{"CSV over its cap", fetch.EmberYearly, fetch.ErrTooLarge,
			[]string{local(fetch.EmberYearly), "file of 300 bytes is larger than the 200 bytes cap"}, "https://"},
		{"not JSON", fetch.LeaderboardCommits, fetch.ErrNotJSON,
			[]string{"reading leaderboard/commits.json (from " + local(fetch.LeaderboardCommits) + "): the body is not JSON"}, "https://"},
		{"empty", fetch.LeaderboardTask("gpqa"), fetch.ErrEmpty,
			[]string{"(from " + local(fetch.LeaderboardTask("gpqa")) + "): empty body"}, "https://"},
		{"a FIFO", fetch.LeaderboardTask("lm-arena-chat"), nil,
			[]string{fifo + " is a named pipe (FIFO), not a regular file"}, "https://"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := fetch.ReadAll(t.Context(), d, tt.source)
			wantErr(t, err, tt.wantErr...)
			if tt.wantIs != nil && !errors.Is(err, tt.wantIs) {
				t.Errorf("error %v is not %v", err, tt.wantIs)
			}
			if strings.Contains(err.Error(), tt.notInErr) {
				t.Errorf("error %q names the URL; want the local file only", err)
			}
		})
	}

	t.Run("a file that grows past its cap while read", func(t *testing.T) {
		d := fetch.Dir{Root: root, Origins: origins, MaxBytesCSV: 400}
		body, err := d.Open(t.Context(), fetch.EmberYearly)
		if err != nil {
			t.Fatal(err)
		}
		defer body.Close()
		if body.Local != local(fetch.EmberYearly) || body.FinalURL != "" {
			t.Errorf("Local, FinalURL = %q, %q; want the file and empty", body.Local, body.FinalURL)
		}
		f, err := os.OpenFile(local(fetch.EmberYearly), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(strings.Repeat("y", 200)))
		f.Close()
		data, err := io.ReadAll(body)
		wantErr(t, err, local(fetch.EmberYearly)+": file larger than the 400 bytes cap")
		if !errors.Is(err, fetch.ErrTooLarge) || len(data) != 400 {
			t.Errorf("read %d bytes, error %v; want 400 and ErrTooLarge", len(data), err)
		}
	})
}

// TestEmberOrigin: a local copy of Ember's CSV read with the default URL of
// the other layout claims its own layout's default; any other URL the build
// was given stands.
func TestEmberOrigin(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ url, name, want string }{
		{fetch.DefaultEmberURL, fetch.EmberYearly, fetch.LongEmberURL},
		{fetch.DefaultEmberURL, fetch.EmberGlobal, fetch.DefaultEmberURL},
		{fetch.LongEmberURL, fetch.EmberYearly, fetch.LongEmberURL},
		{fetch.LongEmberURL, fetch.EmberGlobal, fetch.DefaultEmberURL},
		{"https://mirror.example/ember.csv", fetch.EmberYearly, "https://mirror.example/ember.csv"},
		{"https://mirror.example/ember.csv", fetch.EmberGlobal, "https://mirror.example/ember.csv"},
	} {
		if got := fetch.EmberOrigin(tc.url, tc.name); got != tc.want {
			t.Errorf("EmberOrigin(%q, %q) = %q, want %q", tc.url, tc.name, got, tc.want)
		}
	}
	if u, err := fetch.DefaultOrigins().URL(fetch.EmberGlobal); err != nil || u != fetch.DefaultEmberURL {
		t.Errorf("the default URL of %s is %q (%v)", fetch.EmberGlobal, u, err)
	}
}
