// Package site turns a snapshot into a static website: index.html (every
// model's index rows in a sortable table, the GPU comparison as a chart,
// the task pairs), models/SLUG.html (the model's page, made by
// transform/page like the Markdown page, with charts drawn by site/chart),
// grids.html (every area, and a calculator), sources.html (sources,
// licences, the manifest, links to every JSON file), one stylesheet, one
// script, and the snapshot's JSON files under data/.
//
// Every page is html/template output, self-contained (no CDN, font or
// third-party script; a strict Content-Security-Policy), readable from
// file:// and from any web server, and deterministic: the same snapshot
// gives the same bytes. A Site is also an http.Handler serving the same
// files.
package site

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/leadgreen/greentokens/snapshots"
	"github.com/leadgreen/greentokens/transform"
	"github.com/leadgreen/greentokens/transform/page"
)

//go:embed templates/*.tmpl
var templateFS embed.FS

//go:embed assets/site.css assets/site.js assets/favicon.svg
var assetFS embed.FS

// CSP is the Content-Security-Policy of every page (a meta element, and a
// header when served): nothing but the site's own stylesheet, script and
// icon, no inline script or style, no form submission. Requests from a page
// may go to its own origin only (connect-src), where a tool that audits the
// page from inside it reads robots.txt.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'"

var templates = template.Must(template.New("site").Funcs(template.FuncMap{
	"csp":   func() string { return CSP },
	"links": segs,
	"short": short,
}).ParseFS(templateFS, "templates/*.tmpl"))

// Options configure a site.
type Options struct {
	// Grids are the display grids of the model pages' carbon sections, as
	// page.Options.Grids (nil: page.DefaultGrids).
	Grids []string
	// BaseURL is the absolute URL the site is published at
	// ("https://example.org/greentokens/"); when set, the site has a
	// sitemap.xml of its pages at that address, named by robots.txt. See
	// CheckBaseURL.
	BaseURL string
}

// Site is a snapshot's website. Its overview pages and assets are made by
// Open; a model page is made when it is asked for (Page, WriteDir,
// ServeHTTP), one at a time.
type Site struct {
	snap  *snapshots.Snapshot
	pages *page.Snapshot
	opts  Options
	// fixed holds the pages and assets made by Open, by path.
	fixed map[string][]byte
	// data maps data/PATH to the snapshot file PATH.
	data map[string]string
	// paths lists every file of the site, sorted.
	paths []string
	// bySlug finds a model's index entry.
	bySlug map[string]*transform.IndexEntry
}

// Open reads the snapshot folder dir, after checking every file against its
// manifest (snapshots.Load: an error wraps snapshots.ErrValidation), and
// makes the overview pages.
func Open(dir string, opts Options) (*Site, error) {
	snap, err := snapshots.Load(dir)
	if err != nil {
		return nil, err
	}
	ps, err := page.LoadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("reading the snapshot %s: %w", dir, err)
	}
	s := &Site{snap: snap, pages: ps, opts: opts, fixed: map[string][]byte{}, data: map[string]string{},
		bySlug: make(map[string]*transform.IndexEntry, len(ps.Index.Models))}
	for i := range ps.Index.Models {
		s.bySlug[ps.Index.Models[i].Slug] = &ps.Index.Models[i]
	}
	for _, a := range []string{"site.css", "site.js", "favicon.svg"} {
		b, err := assetFS.ReadFile("assets/" + a)
		if err != nil {
			return nil, err
		}
		s.fixed[a] = b
	}
	s.data["data/"+snapshots.ManifestName] = snapshots.ManifestName
	for _, f := range snap.Manifest.Outputs {
		s.data["data/"+f.Path] = f.Path
	}
	for _, src := range snap.Manifest.Sources {
		if strings.HasSuffix(src.Path, ".json") {
			s.data["data/"+src.Path] = src.Path
		}
	}
	for name, make := range map[string]func() ([]byte, error){
		"index.html": s.indexPage, "grids.html": s.gridsPage, "sources.html": s.sourcesPage,
	} {
		b, err := make()
		if err != nil {
			return nil, fmt.Errorf("site: %s: %w", name, err)
		}
		s.fixed[name] = b
	}
	s.fixed[robotsName] = s.robots()
	for p := range s.fixed {
		s.paths = append(s.paths, p)
	}
	for p := range s.data {
		s.paths = append(s.paths, p)
	}
	for _, e := range ps.Index.Models {
		s.paths = append(s.paths, modelPath(e.Slug))
	}
	sort.Strings(s.paths)
	if opts.BaseURL != "" {
		if err := CheckBaseURL(opts.BaseURL); err != nil {
			return nil, fmt.Errorf("site: %w", err)
		}
		b, err := s.sitemap()
		if err != nil {
			return nil, fmt.Errorf("site: %s: %w", sitemapName, err)
		}
		s.fixed[sitemapName] = b
		s.paths = append(s.paths, sitemapName)
		sort.Strings(s.paths)
	}
	return s, nil
}

// Date is the snapshot's date (its manifest's).
func (s *Site) Date() string { return s.snap.Manifest.Date }

// Paths lists every file of the site, slash-separated, sorted.
func (s *Site) Paths() []string { return append([]string(nil), s.paths...) }

func modelPath(slug string) string { return "models/" + slug + ".html" }

// ErrNotFound is Page's error for a path the site does not have.
var ErrNotFound = fmt.Errorf("site: no such file")

// Page returns the bytes of the site's file p ("index.html",
// "models/qwen-3-32b.html", "data/index.json"). A data file is read from the
// snapshot again and checked against the manifest.
func (s *Site) Page(p string) ([]byte, error) {
	if b, ok := s.fixed[p]; ok {
		return b, nil
	}
	if src, ok := s.data[p]; ok {
		if src == snapshots.ManifestName {
			return os.ReadFile(filepath.Join(s.snap.Dir, snapshots.ManifestName))
		}
		b, ok := s.snap.Bytes(src)
		if !ok {
			return nil, fmt.Errorf("%w: snapshot %s: %s no longer matches the manifest", snapshots.ErrValidation, s.snap.Dir, src)
		}
		return b, nil
	}
	if slug, ok := strings.CutPrefix(p, "models/"); ok {
		if slug, ok := strings.CutSuffix(slug, ".html"); ok && s.hasModel(slug) {
			return s.modelPage(slug)
		}
	}
	return nil, fmt.Errorf("%w: %s", ErrNotFound, p)
}

func (s *Site) hasModel(slug string) bool { return s.bySlug[slug] != nil }

// frame is what every page's layout needs. Description is the page's
// meta description, from its own content.
type frame struct {
	Title, Description, Root, Nav, Date, Credit string
	Script                                      bool
}

func (s *Site) frame(title, root, nav string) frame {
	credit := fmt.Sprintf("%s %s, data compiled %s.", s.pages.Index.Source.Name, leaderboardVersion(s.pages.Index.Source.Version), page.LongDate(s.pages.Index.Source.Compiled))
	if g := s.pages.Grid; g != nil {
		credit += fmt.Sprintf(" Grid intensity: %s, %d.", g.Source.Name, g.Year)
	}
	return frame{Title: title, Root: root, Nav: nav, Date: page.LongDate(s.snap.Manifest.Date), Credit: credit}
}

func execute(name string, data any) ([]byte, error) {
	var b bytes.Buffer
	if err := templates.ExecuteTemplate(&b, name, data); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// dataHref is the link from a page at root to a snapshot file.
func dataHref(root, file string) string { return root + "data/" + path.Clean(file) }

// entry finds a model's index entry, nil when there is none.
func (s *Site) entry(slug string) *transform.IndexEntry { return s.bySlug[slug] }
