// Package site turns a snapshot into a static website: index.html (every
// model's index rows in a sortable table, the GPU comparison as a chart,
// the task pairs), models/SLUG.html (the model's page, made by
// the render package like the Markdown page, with charts drawn by site/chart),
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
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"html/template"
	"log/slog"
	"path"
	"sort"
	"strings"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/history"
	"github.com/leadgreen/greentokens/render"
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
	// render.Options.Grids (nil: render.DefaultGrids()).
	Grids []string
	// BaseURL is the absolute URL the site is published at
	// ("https://example.org/greentokens/"); when set, the site has a
	// sitemap.xml of its pages at that address, named by robots.txt, each
	// page a canonical link to its URL there, and the citation of the
	// sources page and the model pages names it. Without it the citation
	// names the index's own address (internal/sourcetext's index_url) and
	// no page claims an address. See CheckBaseURL.
	BaseURL string
	// Logger receives the errors of a served site (Sites); nil discards
	// them.
	Logger *slog.Logger
	// History, when set, holds the releases of the store the snapshot is
	// one of: each model page gets a chart of its index rows across the
	// releases up to the snapshot's date, with why each changed, and
	// feed.atom lists those releases. Without it, feed.atom lists the
	// snapshot alone and the pages have no such chart. Sites sets it to
	// the catalog's releases.
	History *history.Index
}

func (o Options) log() *slog.Logger {
	if o.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return o.Logger
}

// Site is a snapshot's website. Its overview pages and assets are made by
// New; a model page is made when it is asked for (Page, WriteDir,
// ServeHTTP), one at a time. Every file it serves comes from the snapshot
// held in memory (catalog.Snapshot), checked when it was loaded.
type Site struct {
	snap  *catalog.Snapshot
	pages *render.Snapshot
	opts  Options
	// fixed holds the pages and assets made by New, by path, with their
	// ETags.
	fixed map[string]servedFile
	// data maps data/PATH to the snapshot file PATH.
	data map[string]string
	// paths lists every file of the site, sorted.
	paths []string
}

// servedFile is a file's bytes and the ETag it is served with.
type servedFile struct {
	b    []byte
	etag string
}

// New makes the site of a snapshot held in memory: nothing is read from
// disk, then or later.
func New(snap *catalog.Snapshot, opts Options) (*Site, error) {
	ps, err := render.Load(snap.FS())
	if err != nil {
		return nil, fmt.Errorf("reading the snapshot %s: %w", snap.Date, err)
	}
	s := &Site{snap: snap, pages: ps, opts: opts, fixed: map[string]servedFile{}, data: map[string]string{}}
	for _, a := range []string{"site.css", "site.js", "favicon.svg"} {
		b, err := assetFS.ReadFile("assets/" + a)
		if err != nil {
			return nil, err
		}
		s.fixed[a] = servedFile{b, etagOf(b)}
	}
	for _, p := range snap.Paths() {
		s.data["data/"+p] = p
	}
	for name, make := range map[string]func() ([]byte, error){
		"index.html": s.indexPage, "grids.html": s.gridsPage, "sources.html": s.sourcesPage,
	} {
		b, err := make()
		if err != nil {
			return nil, fmt.Errorf("site: %s: %w", name, err)
		}
		s.fixed[name] = servedFile{b, etagOf(b)}
	}
	feed, err := s.feed()
	if err != nil {
		return nil, fmt.Errorf("site: %s: %w", feedName, err)
	}
	s.fixed[feedName] = servedFile{feed, etagOf(feed)}
	robots := s.robots()
	s.fixed[robotsName] = servedFile{robots, etagOf(robots)}
	for p := range s.fixed {
		s.paths = append(s.paths, p)
	}
	for p := range s.data {
		s.paths = append(s.paths, p)
	}
	for _, e := range ps.Index.Models {
		s.paths = append(s.paths, modelPath(e.Slug))
	}
	s.paths = append(s.paths, s.taskPages()...)
	sort.Strings(s.paths)
	if opts.BaseURL != "" {
		if err := CheckBaseURL(opts.BaseURL); err != nil {
			return nil, fmt.Errorf("site: %w", err)
		}
		b, err := s.sitemap()
		if err != nil {
			return nil, fmt.Errorf("site: %s: %w", sitemapName, err)
		}
		s.fixed[sitemapName] = servedFile{b, etagOf(b)}
		s.paths = append(s.paths, sitemapName)
		sort.Strings(s.paths)
	}
	return s, nil
}

// Date is the snapshot's date (its manifest's).
func (s *Site) Date() string { return s.snap.Date }

// Paths lists every file of the site, slash-separated, sorted.
func (s *Site) Paths() []string { return append([]string(nil), s.paths...) }

func modelPath(slug string) string { return "models/" + slug + ".html" }

// ErrNotFound is Page's error for a path the site does not have.
var ErrNotFound = fmt.Errorf("site: no such file")

// Page returns the bytes of the site's file p ("index.html",
// "models/qwen-3-32b.html", "data/index.json"). A data file is the
// snapshot's bytes held in memory: the caller must not change them.
func (s *Site) Page(p string) ([]byte, error) {
	f, err := s.file(p)
	return f.b, err
}

// file is Page with the file's ETag: a data file's is its sha256 (as the
// API's), a page's or asset's a digest of its bytes.
func (s *Site) file(p string) (servedFile, error) {
	if f, ok := s.fixed[p]; ok {
		return f, nil
	}
	if src, ok := s.data[p]; ok {
		f, _ := s.snap.File(src)
		return servedFile{f.Bytes, `"` + f.SHA256 + `"`}, nil
	}
	if slug, ok := strings.CutPrefix(p, "models/"); ok {
		if slug, ok := strings.CutSuffix(slug, ".html"); ok && s.hasModel(slug) {
			b, err := s.modelPage(slug)
			return servedFile{b, etagOf(b)}, err
		}
	}
	if t, m, ok := s.taskOfPage(p); ok {
		b, err := s.taskModelPage(t, m)
		return servedFile{b, etagOf(b)}, err
	}
	return servedFile{}, fmt.Errorf("%w: %s", ErrNotFound, p)
}

// etagOf is the ETag of a page or asset: the first 16 bytes of its sha256.
func etagOf(b []byte) string {
	sum := sha256.Sum256(b)
	return `"` + hex.EncodeToString(sum[:16]) + `"`
}

func (s *Site) hasModel(slug string) bool { return s.pages.Entry(slug) != nil }

// frame is what every page's layout needs. Description is the page's
// meta description, from its own content. Canonical is the page's absolute
// URL under Options.BaseURL, "" without one.
type frame struct {
	Title, Description, Root, Nav, Date, Credit, Canonical string
	Script                                                 bool
}

// frame is the frame of the site's page at the slash path page
// ("index.html", "models/qwen-3-32b.html"): its links are relative to it.
func (s *Site) frame(title, page, nav string) frame {
	root := strings.Repeat("../", strings.Count(page, "/"))
	credit := fmt.Sprintf("%s %s, data compiled %s.", s.pages.Index.Source.Name, leaderboardVersion(s.pages.Index.Source.Version), render.LongDate(s.pages.Index.Source.Compiled))
	if g := s.pages.Grid; g != nil {
		credit += fmt.Sprintf(" Grid intensity: %s, %d.", g.Source.Name, g.Year)
	}
	return frame{Title: title, Root: root, Nav: nav, Date: render.LongDate(s.snap.Date), Credit: credit, Canonical: s.pageURL(page)}
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
