package site

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"net/url"
	"strings"
)

// The files for search engines: robots.txt in every site, and sitemap.xml
// when Options.BaseURL gives the address the site is published at (a
// sitemap lists absolute URLs).
const (
	robotsName  = "robots.txt"
	sitemapName = "sitemap.xml"
)

// CheckBaseURL says whether u can be a site's Options.BaseURL: an absolute
// http or https URL without a query or fragment.
func CheckBaseURL(u string) error {
	p, err := url.Parse(u)
	if err != nil {
		return fmt.Errorf("base URL %q: %v", u, err)
	}
	if (p.Scheme != "https" && p.Scheme != "http") || p.Host == "" || p.RawQuery != "" || p.Fragment != "" || p.User != nil {
		return fmt.Errorf("base URL %q is not an absolute http or https URL without a query, fragment or credentials", u)
	}
	return nil
}

// baseURL is Options.BaseURL ending in "/", "" when not set.
func (s *Site) baseURL() string {
	if s.opts.BaseURL == "" || strings.HasSuffix(s.opts.BaseURL, "/") {
		return s.opts.BaseURL
	}
	return s.opts.BaseURL + "/"
}

// pageURL is the absolute URL of the site's file at the slash path p under
// Options.BaseURL (index.html is the base URL itself, as the sitemap lists
// it); "" without a base URL, where the site does not know its address.
func (s *Site) pageURL(p string) string {
	base := s.baseURL()
	if base == "" || p == "index.html" {
		return base
	}
	return base + p
}

// robots is robots.txt: every page may be crawled; the sitemap is named
// when there is one.
func (s *Site) robots() []byte {
	b := "User-agent: *\nAllow: /\n"
	if base := s.baseURL(); base != "" {
		b += "\nSitemap: " + base + sitemapName + "\n"
	}
	return []byte(b)
}

// sitemap is sitemap.xml (sitemaps.org 0.9): every HTML page at the base
// URL, each last modified on the snapshot's date.
func (s *Site) sitemap() ([]byte, error) {
	type loc struct {
		Loc     string `xml:"loc"`
		LastMod string `xml:"lastmod"`
	}
	set := struct {
		XMLName xml.Name `xml:"urlset"`
		NS      string   `xml:"xmlns,attr"`
		URLs    []loc    `xml:"url"`
	}{NS: "http://www.sitemaps.org/schemas/sitemap/0.9"}
	for _, p := range s.paths {
		if strings.HasSuffix(p, ".html") {
			set.URLs = append(set.URLs, loc{Loc: s.pageURL(p), LastMod: s.Date()})
		}
	}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(set); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// firstSentence is s up to the end of its first sentence (a full stop
// followed by a space, after skip bytes, which may hold a name with a full
// stop in it); all of s when it has one sentence.
func firstSentence(s string, skip int) string {
	if skip > len(s) {
		skip = len(s)
	}
	if i := strings.Index(s[skip:], ". "); i >= 0 {
		return s[:skip+i+1]
	}
	return s
}
