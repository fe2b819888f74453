package history

import (
	"context"
	"encoding/xml"
	"fmt"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/internal/plural"
)

// The Atom feed of a store's releases (RFC 4287), written with
// encoding/xml: a dozen elements whose every byte this package decides
// (no clock, no generated id), so that the same releases give the same
// bytes.

// FeedID is the feed's atom:id, a tag URI (RFC 4151) of the index's domain:
// stable whatever serves the feed.
const FeedID = "tag:leadgreen.ai,2026:greentokens/releases"

// EntryID is a release's atom:id: its date and the sha256 of its manifest,
// which fixes every byte it holds, so that a release of the same date with
// other bytes is another entry.
func EntryID(date, manifestSHA256 string) string {
	return "tag:leadgreen.ai,2026:greentokens/release/" + date + "/" + manifestSHA256
}

// FeedOptions say where the feed and its releases are published.
type FeedOptions struct {
	// Self is the feed's own absolute URL (link rel="self"); "" for none.
	Self string
	// Link, when set, makes each entry's alternate link Link(date).
	Link func(date string) string
}

type atomFeed struct {
	XMLName xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	ID      string      `xml:"id"`
	Title   string      `xml:"title"`
	Updated string      `xml:"updated"`
	Author  atomAuthor  `xml:"author"`
	Links   []atomLink  `xml:"link"`
	Entries []atomEntry `xml:"entry"`
}

type atomAuthor struct {
	Name string `xml:"name"`
	URI  string `xml:"uri"`
}

type atomLink struct {
	Rel  string `xml:"rel,attr"`
	Href string `xml:"href,attr"`
	Type string `xml:"type,attr,omitempty"`
}

type atomText struct {
	Type string `xml:"type,attr"`
	Text string `xml:",chardata"`
}

type atomEntry struct {
	ID      string     `xml:"id"`
	Title   string     `xml:"title"`
	Updated string     `xml:"updated"`
	Links   []atomLink `xml:"link"`
	Summary atomText   `xml:"summary"`
	Content atomText   `xml:"content"`
}

// Feed writes the releases served up to and including until ("" or
// catalog.Latest: every one) as an Atom feed, newest first, each entry
// with its diff's summary against the release before it.
func (x *Index) Feed(ctx context.Context, until string, opts FeedOptions) ([]byte, error) {
	snaps, err := x.upTo(until)
	if err != nil {
		return nil, err
	}
	return feed(ctx, snaps, opts, x)
}

// Feed writes snaps, by ascending date, as an Atom feed.
func Feed(ctx context.Context, snaps []*catalog.Snapshot, opts FeedOptions) ([]byte, error) {
	return feed(ctx, snaps, opts, direct{})
}

func feed(ctx context.Context, snaps []*catalog.Snapshot, opts FeedOptions, src source) ([]byte, error) {
	f := atomFeed{ID: FeedID, Title: "Green Tokens index: releases", Entries: []atomEntry{},
		Author: atomAuthor{Name: "Green Tokens", URI: "https://leadgreen.ai/index/"}}
	if opts.Self != "" {
		f.Links = append(f.Links, atomLink{Rel: "self", Href: opts.Self, Type: "application/atom+xml"})
	}
	for i := len(snaps) - 1; i >= 0; i-- {
		s := snaps[i]
		ri := info(s)
		summary := fmt.Sprintf("first release: %s", plural.Count(ri.Models, "model"))
		if i > 0 {
			pd, err := src.why(ctx, snaps[i-1], s)
			if err != nil {
				return nil, err
			}
			summary = pd.report.Summary + " (since " + snaps[i-1].Date + ")"
		}
		e := atomEntry{
			ID: EntryID(ri.Date, ri.ManifestSHA256), Title: "Release " + ri.Date + ": " + summary,
			Updated: ri.Date + "T00:00:00Z", Summary: atomText{Type: "text", Text: summary},
			Content: atomText{Type: "text", Text: fmt.Sprintf("%s. Upstream data compiled %s; leaderboard %s; built by %s; manifest.json sha256 %s.",
				summary, ri.Compiled, orNone(ri.LeaderboardVersion), ri.Generator, ri.ManifestSHA256)},
		}
		if opts.Link != nil {
			e.Links = []atomLink{{Rel: "alternate", Href: opts.Link(ri.Date)}}
		}
		f.Entries = append(f.Entries, e)
	}
	f.Updated = "1970-01-01T00:00:00Z" // a feed of no release
	if len(f.Entries) > 0 {
		f.Updated = f.Entries[0].Updated
	}
	b, err := xml.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), append(b, '\n')...), nil
}
