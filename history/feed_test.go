package history

import (
	"bytes"
	"context"
	"encoding/xml"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/leadgreen/greentokens/history/historytest"
)

// TestFeed: the feed is valid Atom by RFC 4287's required elements (the
// feed's id, title, updated and author; each entry's id, title, updated
// and its content or an alternate link), ids are tag: or https URIs and
// dates RFC 3339, an entry per release, newest first, each with its diff's
// summary; the same releases give the same bytes, served or not.
func TestFeed(t *testing.T) {
	c := served(t)
	ctx := context.Background()
	b, err := Feed(ctx, c.Snapshots(), FeedOptions{Self: "https://example.org/feed.atom", Link: func(d string) string { return "https://example.org/" + d + "/" }})
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		XMLName xml.Name
		ID      string `xml:"id"`
		Title   string `xml:"title"`
		Updated string `xml:"updated"`
		Author  []struct {
			Name string `xml:"name"`
		} `xml:"author"`
		Entries []struct {
			ID      string `xml:"id"`
			Title   string `xml:"title"`
			Updated string `xml:"updated"`
			Content struct {
				Type string `xml:"type,attr"`
				Text string `xml:",chardata"`
			} `xml:"content"`
			Summary string `xml:"summary"`
			Links   []struct {
				Rel  string `xml:"rel,attr"`
				Href string `xml:"href,attr"`
			} `xml:"link"`
		} `xml:"entry"`
	}
	if err := xml.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if f.XMLName.Space != "http://www.w3.org/2005/Atom" || f.XMLName.Local != "feed" {
		t.Errorf("root %v", f.XMLName)
	}
	uri := func(where, id string) {
		u, err := url.Parse(id)
		if err != nil || (u.Scheme != "tag" && u.Scheme != "https") || (u.Scheme == "tag" && !strings.HasPrefix(id, "tag:leadgreen.ai,2026:")) {
			t.Errorf("%s: id %q is no tag: or https URI", where, id)
		}
	}
	date := func(where, d string) time.Time {
		tm, err := time.Parse(time.RFC3339, d)
		if err != nil {
			t.Errorf("%s: updated %q is not RFC 3339", where, d)
		}
		return tm
	}
	uri("feed", f.ID)
	if f.Title == "" || len(f.Author) != 1 || f.Author[0].Name == "" {
		t.Errorf("feed title %q, authors %v", f.Title, f.Author)
	}
	if len(f.Entries) != len(historytest.Releases) {
		t.Fatalf("%d entries", len(f.Entries))
	}
	seen := map[string]bool{}
	var last time.Time
	for i, e := range f.Entries {
		where := "entry " + e.ID
		uri(where, e.ID)
		if seen[e.ID] {
			t.Errorf("%s twice", e.ID)
		}
		seen[e.ID] = true
		tm := date(where, e.Updated)
		if i > 0 && !tm.Before(last) {
			t.Errorf("%s: not newest first", where)
		}
		last = tm
		if e.Title == "" || e.Content.Text == "" || e.Content.Type != "text" || e.Summary == "" {
			t.Errorf("%s: title %q, content %q (%s), summary %q", where, e.Title, e.Content.Text, e.Content.Type, e.Summary)
		}
		if len(e.Links) != 1 || e.Links[0].Rel != "alternate" || !strings.HasPrefix(e.Links[0].Href, "https://example.org/2026-") {
			t.Errorf("%s: links %v", where, e.Links)
		}
	}
	if date("feed", f.Updated) != date("newest", f.Entries[0].Updated) {
		t.Errorf("the feed's updated %s is not its newest entry's %s", f.Updated, f.Entries[0].Updated)
	}
	if s := f.Entries[3].Summary; !strings.Contains(s, "index row") || !strings.Contains(s, "since 2026-03-08") {
		t.Errorf("the 2026-03-15 entry's summary: %q", s)
	}
	if s := f.Entries[len(f.Entries)-1].Summary; s != "first release: 3 models" {
		t.Errorf("the first release's summary: %q", s)
	}
	again, err := NewIndex(c).Feed(ctx, "", FeedOptions{Self: "https://example.org/feed.atom", Link: func(d string) string { return "https://example.org/" + d + "/" }})
	if err != nil || !bytes.Equal(b, again) {
		t.Errorf("the served index's feed differs from Feed's: %v", err)
	}
}
