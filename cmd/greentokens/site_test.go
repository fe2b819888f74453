package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSite(t *testing.T) {
	snap := builtCopy(t, seedDate, "--from-ember", sevenGrids, "--grid-year", "2024")
	out := filepath.Dir(snap)
	web := filepath.Join(t.TempDir(), "web")
	code, stdout, stderr := runCLI(t, "site", "--snapshot", snap, "--out", web)
	if code != exitOK {
		t.Fatalf("site: exit %d: %s", code, stderr)
	}
	if stdout != web+": 85 files\n" {
		t.Errorf("site printed %q", stdout)
	}
	for _, f := range []string{"index.html", "grids.html", "sources.html", "site.css", "site.js", "models/qwen-3-32b.html", "tasks/text-to-video/cogvideox-2b.html", "data/index.json"} {
		if _, err := os.Stat(filepath.Join(web, filepath.FromSlash(f))); err != nil {
			t.Errorf("site did not write %s: %v", f, err)
		}
	}
	page, _ := os.ReadFile(filepath.Join(web, "models", "qwen-3-32b.html"))
	if !strings.Contains(string(page), "27.6") || !strings.Contains(string(page), `data-chart="energy"`) {
		t.Errorf("the model page lacks its carbon figures or its energy chart")
	}
	// Written again, the site replaces itself; a folder of other files is refused.
	if code, _, stderr := runCLI(t, "site", "--snapshot", snap, "--out", web); code != exitOK {
		t.Errorf("site into its earlier output: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "site", "--snapshot", snap, "--out", out); code != exitConflict || !strings.Contains(stderr, "choose a new or empty folder") {
		t.Errorf("site into the snapshots folder: exit %d, want %d: %s", code, exitConflict, stderr)
	}
	_, noGrid := builtSnapshots(t)
	fresh := filepath.Join(t.TempDir(), "fresh")
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"no --out", []string{"site", "--snapshot", snap}},
		{"no --snapshot", []string{"site", "--out", web}},
		{"an argument", []string{"site", "--snapshot", snap, "--out", web, "qwen-3-32b"}},
		{"a display grid the snapshot lacks", []string{"site", "--snapshot", snap, "--out", fresh, "--grids", "India,Atlantis"}},
		{"display grids of a snapshot built --no-grid", []string{"site", "--snapshot", noGrid, "--out", fresh, "--grids", "India"}},
		{"a relative --base-url", []string{"site", "--snapshot", snap, "--out", fresh, "--base-url", "greentokens/"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if code, _, stderr := runCLI(t, tc.args...); code != exitUsage {
				t.Errorf("exit %d, want %d: %s", code, exitUsage, stderr)
			}
		})
	}
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Errorf("a refused site wrote %s: %v", fresh, err)
	}
	// Display grids the snapshot has, in any spelling.
	if code, _, stderr := runCLI(t, "site", "--snapshot", snap, "--out", fresh, "--grids", "ind,norway"); code != exitOK {
		t.Errorf("site --grids ind,norway: exit %d: %s", code, stderr)
	}
	// --base-url adds sitemap.xml, named by robots.txt.
	if code, stdout, stderr := runCLI(t, "site", "--snapshot", snap, "--out", web, "--base-url", "https://example.org/greentokens"); code != exitOK || stdout != web+": 86 files\n" {
		t.Errorf("site --base-url: exit %d, %q: %s", code, stdout, stderr)
	}
	robots, _ := os.ReadFile(filepath.Join(web, "robots.txt"))
	sitemap, _ := os.ReadFile(filepath.Join(web, "sitemap.xml"))
	if !strings.Contains(string(robots), "Sitemap: https://example.org/greentokens/sitemap.xml\n") ||
		!strings.Contains(string(sitemap), "<loc>https://example.org/greentokens/models/qwen-3-32b.html</loc>") {
		t.Errorf("robots.txt or sitemap.xml lack the base URL:\n%s\n%s", robots, sitemap)
	}
}
