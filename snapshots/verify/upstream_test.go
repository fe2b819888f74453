package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/fetch/fetchtest"
	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"
)

// fakeUpstream serves the sources the snapshot dir archives as upstream
// does (the leaderboard's files below /COMMIT/public/data/, GitHub's list
// of commits, Ember's CSV) on 127.0.0.1, and returns the server and the
// options that point Upstream at it.
func fakeUpstream(t *testing.T, dir string) (*fetchtest.Server, UpstreamOptions, string) {
	t.Helper()
	rel := snaptest.Load(t, dir)
	commit := rel.Manifest.Evidence.LastCommitSHA
	lb := filepath.Join(dir, "sources", "leaderboard")
	s := fetchtest.NewServer(t, lb)
	s.MapDir("/"+commit+"/public/data/", lb)
	s.Map(fetchtest.EmberPath, filepath.Join(dir, "sources", "ember", "yearly_full_release_long_format.csv"))
	o := s.Origins()
	o.LeaderboardBase = s.URL + "/" + fetch.CommitPlaceholder + "/public/data/"
	return s, UpstreamOptions{HTTP: fetch.HTTPOptions{Origins: o, AllowHTTP: true, RetryMax: -1}}, commit
}

// served writes data to a file of its own and returns its path, for Map.
func served(t *testing.T, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "served")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func byPath(files []UpstreamFile) map[string]UpstreamFile {
	m := map[string]UpstreamFile{}
	for _, f := range files {
		m[f.Path] = f
	}
	return m
}

// TestUpstream: every archived source is fetched again, the leaderboard's
// at the recorded commit, and compared by sha256; a file upstream gives
// otherwise is named with both hashes and the URL, Ember's as upstream
// having changed since retrieval; GitHub's answer reformatted but naming
// the same commit is the same source; a file that cannot be fetched is
// exit 3, not 5.
func TestUpstream(t *testing.T) {
	dir := snaptest.CopySmallSnapshot(t)
	const (
		index   = "sources/leaderboard/index.json"
		gpqa    = "sources/leaderboard/tasks/gpqa.json"
		commits = "sources/leaderboard/commits.json"
		csv     = "sources/ember/yearly_full_release_long_format.csv"
	)
	read := func(rel string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	run := func(t *testing.T, opts UpstreamOptions) (*Report, map[string]UpstreamFile) {
		t.Helper()
		files, err := Upstream(context.Background(), regfile.DirFS(dir), opts)
		if err != nil {
			t.Fatal(err)
		}
		rep := &Report{Dir: dir, OK: true}
		rep.addUpstream(files)
		return rep, byPath(files)
	}

	t.Run("the same", func(t *testing.T) {
		s, opts, commit := fakeUpstream(t, dir)
		rep, files := run(t, opts)
		if len(files) != 10 || !rep.OK || rep.Err() != nil {
			t.Fatalf("%d files, ok %v, %v; want 10 (index, commits, seven task files, Ember's), all the same: %+v", len(files), rep.OK, rep.Err(), files)
		}
		if f := files[gpqa]; f.Commit != commit || f.URL != s.URL+"/"+commit+"/public/data/tasks/gpqa.json" {
			t.Errorf("gpqa.json fetched from %s at %q; want the commit %s", f.URL, f.Commit, commit)
		}
		var asked string
		for _, r := range s.Requests() {
			if r.Path == fetchtest.CommitsPath {
				asked = r.RawQuery
			}
		}
		if !strings.Contains(asked, "sha="+commit) || !strings.Contains(asked, "path=public/data/tasks") {
			t.Errorf("GitHub's list of commits asked with %q; want it from the commit %s", asked, commit)
		}
	})

	t.Run("a task file upstream gives otherwise", func(t *testing.T) {
		s, opts, commit := fakeUpstream(t, dir)
		s.Map("/"+commit+"/public/data/tasks/gpqa.json", served(t, append(read(gpqa), ' ')))
		rep, files := run(t, opts)
		f := files[gpqa]
		if rep.OK || f.Same || f.Fetched == "" || f.Fetched == f.Stored || !errors.Is(rep.Err(), failure.ErrValidation) {
			t.Fatalf("ok %v, %+v, %v; want a difference, exit 5", rep.OK, f, rep.Err())
		}
		var text strings.Builder
		rep.WriteText(&text)
		want := "  " + gpqa + ": DIFFERS from " + f.URL + " (commit " + commit + "): " + f.Stored + " -> " + f.Fetched
		if !strings.Contains(text.String(), want) || !strings.Contains(rep.Err().Error(), "1 source differing from upstream") {
			t.Errorf("the report does not say %q:\n%s\n%v", want, text.String(), rep.Err())
		}
		for _, p := range []string{index, commits, csv} {
			if !files[p].Same {
				t.Errorf("%s: %+v, want the same", p, files[p])
			}
		}
	})

	t.Run("Ember changed since retrieval", func(t *testing.T) {
		s, opts, _ := fakeUpstream(t, dir)
		s.Map(fetchtest.EmberPath, served(t, bytes.Replace(read(csv), []byte("\n"), []byte("\r\n"), 1)))
		rep, files := run(t, opts)
		if f := files[csv]; rep.OK || f.Same || !strings.Contains(f.Note, "upstream changed since retrieval") || f.URL != s.URL+fetchtest.EmberPath {
			t.Errorf("ok %v, %+v; want a difference, upstream changed since retrieval", rep.OK, f)
		}
	})

	t.Run("GitHub's answer in other bytes, the same commit", func(t *testing.T) {
		s, opts, _ := fakeUpstream(t, dir)
		var v any
		if err := json.Unmarshal(read(commits), &v); err != nil {
			t.Fatal(err)
		}
		compact, _ := json.Marshal(v)
		s.Map(fetchtest.CommitsPath, served(t, compact))
		rep, files := run(t, opts)
		if f := files[commits]; !rep.OK || !f.Same || f.Fetched == f.Stored || !strings.Contains(f.Note, "names the same newest commit") {
			t.Errorf("ok %v, %+v; want the same source, said so", rep.OK, f)
		}
	})

	t.Run("GitHub naming another commit", func(t *testing.T) {
		s, opts, commit := fakeUpstream(t, dir)
		other := strings.Repeat("a", 40)
		s.Map(fetchtest.CommitsPath, served(t, bytes.ReplaceAll(read(commits), []byte(commit), []byte(other))))
		rep, files := run(t, opts)
		if f := files[commits]; rep.OK || f.Same || !strings.Contains(f.Note, other) {
			t.Errorf("ok %v, %+v; want a difference naming %s", rep.OK, f, other)
		}
	})

	t.Run("not on upstream", func(t *testing.T) {
		s, opts, commit := fakeUpstream(t, dir)
		s.Fault("/"+commit+"/public/data/index.json", fetchtest.Fault{Status: 404})
		rep, files := run(t, opts)
		if f := files[index]; rep.OK || f.Same || !strings.Contains(f.Err, "404") || !errors.Is(rep.Err(), failure.ErrUpstream) {
			t.Errorf("ok %v, %+v, %v; want not fetched, exit 3", rep.OK, f, rep.Err())
		}
	})
}
