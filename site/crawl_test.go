package site

import (
	"encoding/xml"
	"html"
	"regexp"
	"strings"
	"testing"
)

var descriptionRE = regexp.MustCompile(`<meta name="description" content="([^"]*)">`)

// TestMetaDescriptions: every page has one meta description, made from its
// own content, no two alike.
func TestMetaDescriptions(t *testing.T) {
	s := openSeed(t)
	seen := map[string]string{}
	for _, p := range s.Paths() {
		if !strings.HasSuffix(p, ".html") {
			continue
		}
		b, err := s.Page(p)
		if err != nil {
			t.Fatal(err)
		}
		all := descriptionRE.FindAllStringSubmatch(string(b), -1)
		if len(all) != 1 || all[0][1] == "" {
			t.Errorf("%s: %d meta descriptions %q, want one, not empty", p, len(all), all)
			continue
		}
		d := html.UnescapeString(all[0][1])
		if other, ok := seen[d]; ok {
			t.Errorf("%s has the description of %s: %q", p, other, d)
		}
		seen[d] = p
		// It is the page's own text (the headline, the intro), not a text of its own.
		if p != "sources.html" && p != "grids.html" && !strings.Contains(text(string(b)), strings.TrimSuffix(d, ".")) {
			t.Errorf("%s: the description %q is not text of the page", p, d)
		}
	}
	model, _ := s.Page("models/qwen-3-32b.html")
	want := "Qwen 3 32B uses 39.1 Wh/M on 1 × B200"
	if d := descriptionRE.FindStringSubmatch(string(model)); d == nil || !strings.HasPrefix(html.UnescapeString(d[1]), "Qwen 3 32B uses") ||
		!strings.Contains(html.UnescapeString(d[1]), "Wh/M on 1 × B200") || strings.Contains(d[1], "That is a floor") {
		t.Errorf("the model page's description is %q, want its headline's first sentence (%s...)", d, want)
	}
}

// TestRobotsAndSitemap: robots.txt lets every page be crawled; with a base
// URL the site has sitemap.xml, listing every page at its absolute URL,
// and robots.txt names it.
func TestRobotsAndSitemap(t *testing.T) {
	plain := openSeed(t)
	if b, _ := plain.Page("robots.txt"); string(b) != "User-agent: *\nAllow: /\n" {
		t.Errorf("robots.txt without a base URL:\n%s", b)
	}
	if _, err := plain.Page("sitemap.xml"); err == nil {
		t.Errorf("a site without a base URL has a sitemap")
	}

	s, err := newSeed(t, Options{BaseURL: "https://example.org/greentokens"})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := s.Page("robots.txt"); string(b) != "User-agent: *\nAllow: /\n\nSitemap: https://example.org/greentokens/sitemap.xml\n" {
		t.Errorf("robots.txt:\n%s", b)
	}
	b, err := s.Page("sitemap.xml")
	if err != nil {
		t.Fatal(err)
	}
	var set struct {
		XMLName xml.Name
		URLs    []struct {
			Loc     string `xml:"loc"`
			LastMod string `xml:"lastmod"`
		} `xml:"url"`
	}
	if err := xml.Unmarshal(b, &set); err != nil {
		t.Fatalf("sitemap.xml: %v\n%s", err, b)
	}
	if set.XMLName.Space != "http://www.sitemaps.org/schemas/sitemap/0.9" || set.XMLName.Local != "urlset" {
		t.Errorf("sitemap.xml's root is %v", set.XMLName)
	}
	locs := map[string]bool{}
	for _, u := range set.URLs {
		locs[u.Loc] = true
		if u.LastMod != seedDate {
			t.Errorf("%s: lastmod %q, want the snapshot's date", u.Loc, u.LastMod)
		}
	}
	pages := 0
	for _, p := range s.Paths() {
		if strings.HasSuffix(p, ".html") {
			pages++
		}
	}
	if len(set.URLs) != pages || len(locs) != pages {
		t.Errorf("sitemap.xml lists %d URLs, %d distinct; the site has %d pages", len(set.URLs), len(locs), pages)
	}
	for _, u := range []string{"https://example.org/greentokens/", "https://example.org/greentokens/grids.html",
		"https://example.org/greentokens/sources.html", "https://example.org/greentokens/models/qwen-3-32b.html"} {
		if !locs[u] {
			t.Errorf("sitemap.xml lacks %s", u)
		}
	}

	for _, bad := range []string{"example.org/greentokens", "/greentokens/", "ftp://example.org/", "https://example.org/?q=1", "https://user:pw@example.org/"} {
		if _, err := newSeed(t, Options{BaseURL: bad}); err == nil {
			t.Errorf("base URL %q accepted", bad)
		}
	}
}

var canonicalRE = regexp.MustCompile(`<link rel="canonical" href="([^"]*)">`)

// TestCitationAndCanonicalAtBaseURL: with a base URL, the citation of the
// sources page and of every model page names the site's own address, and
// every page has a canonical link to its absolute URL (the one sitemap.xml
// lists); without one, the citation names the index's documented address
// (sourcetext's index_url) and no page claims an address.
func TestCitationAndCanonicalAtBaseURL(t *testing.T) {
	const index = "https://leadgreen.ai/index/" // docs/site.md: the default address
	const base = "https://example.org/greentokens/"
	for _, tc := range []struct {
		opts     Options
		cites    string
		notCites string
	}{
		{Options{}, index, base},
		{Options{BaseURL: strings.TrimSuffix(base, "/")}, base, index},
	} {
		s, err := newSeed(t, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range s.Paths() {
			if !strings.HasSuffix(p, ".html") {
				continue
			}
			b, err := s.Page(p)
			if err != nil {
				t.Fatal(err)
			}
			page := text(string(b))
			if p == "sources.html" || strings.HasPrefix(p, "models/") {
				if want := tc.cites + ", release " + seedDate + ", retrieved [date]."; !strings.Contains(page, want) {
					t.Errorf("base URL %q: %s does not cite %q", tc.opts.BaseURL, p, want)
				}
				if strings.Contains(page, tc.notCites) {
					t.Errorf("base URL %q: %s names %s", tc.opts.BaseURL, p, tc.notCites)
				}
			}
			got := canonicalRE.FindAllStringSubmatch(string(b), -1)
			want := base + p
			if p == "index.html" {
				want = base
			}
			switch {
			case tc.opts.BaseURL == "" && len(got) != 0:
				t.Errorf("%s: canonical links %q without a base URL", p, got)
			case tc.opts.BaseURL != "" && (len(got) != 1 || got[0][1] != want):
				t.Errorf("%s: canonical links %q, want one to %s", p, got, want)
			}
		}
	}
}
