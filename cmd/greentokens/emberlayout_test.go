package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/fetch/fetchtest"
)

// TestBuildJulyLayoutOverHTTP: a download in Ember's July 2026 layout is
// archived under that layout's name, with the URL fetched and the layout
// and header in its manifest entry, and verifies.
func TestBuildJulyLayoutOverHTTP(t *testing.T) {
	const path = "/public-downloads/generation/outputs/release_generation_yearly_global.csv"
	srv := fetchtest.NewServer(t, smallLB(t))
	srv.Map(path, sevenGridsJuly)
	origins := srv.Origins()
	out := t.TempDir()
	code, _, stderr := runCLI(t, "build", "--date", seedDate, "--allow-http", "--out", out,
		"--leaderboard-url", origins.LeaderboardBase, "--github-api-url", origins.GitHubAPI, "--ember-url", srv.URL+path)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var m struct {
		Sources []struct {
			Path, Name, URL, Layout string
			Header                  []string
		}
	}
	if b, err := os.ReadFile(filepath.Join(out, seedDate, "manifest.json")); err != nil || json.Unmarshal(b, &m) != nil {
		t.Fatalf("reading the manifest: %v", err)
	}
	found := false
	for _, s := range m.Sources {
		if !fetch.IsEmber(s.Name) {
			continue
		}
		found = true
		if s.Name != fetch.EmberGlobal || s.Path != "sources/"+fetch.EmberGlobal || s.URL != srv.URL+path || s.Layout != "july-2026" || len(s.Header) != 24 {
			t.Errorf("Ember's entry: %+v", s)
		}
	}
	if !found {
		t.Error("no Ember entry in the manifest")
	}
	if code, stdout, stderr := runCLI(t, "verify", filepath.Join(out, seedDate)); code != exitOK {
		t.Errorf("verify: exit %d\n%s%s", code, stdout, stderr)
	}
}
