package site

import (
	"html/template"
	"regexp"
	"strings"

	"github.com/leadgreen/greentokens/site/chart"
	"github.com/leadgreen/greentokens/transform/grid"
	"github.com/leadgreen/greentokens/transform/page"
)

// seg is a run of text, a link when URL is set.
type seg struct{ Text, URL string }

var urlRE = regexp.MustCompile(`https?://[^\s<>"]+`)

// segs splits text into plain runs and links: every http(s) URL in it,
// without the punctuation that ends a sentence after it. The template
// escapes both, and html/template vets the URLs.
func segs(text string) []seg {
	var out []seg
	last := 0
	for _, m := range urlRE.FindAllStringIndex(text, -1) {
		u := strings.TrimRight(text[m[0]:m[1]], ".,;:)")
		if last < m[0] {
			out = append(out, seg{Text: text[last:m[0]]})
		}
		out = append(out, seg{Text: u, URL: u})
		last = m[0] + len(u)
	}
	if last < len(text) {
		out = append(out, seg{Text: text[last:]})
	}
	return out
}

// htmlBlock is one block of a model page as the template draws it.
type htmlBlock struct {
	Kind        string // h1, h2, h3, p, table, figs
	ID, Text    string
	Close       bool // an h2 that closes the section before it
	Segs        []seg
	Table       *page.Table
	Figs        []template.HTML
	Open        bool
	Description string
}

type fileLink struct{ Name, Href string }

type modelData struct {
	frame
	GPUs   string
	Blocks []htmlBlock
	// Open is true when a section is left open at the end.
	Open  bool
	Files []fileLink
}

// modelPage writes the page of slug as HTML from the same page.Doc the
// Markdown page is written from.
func (s *Site) modelPage(slug string) ([]byte, error) {
	d, err := page.Build(s.pages, slug, page.Options{Grids: s.opts.Grids})
	if err != nil {
		return nil, err
	}
	e := s.entry(slug)
	data := modelData{frame: s.frame(d.Name, "../", ""), GPUs: page.List(e.GPUs)}
	data.Title = d.Name
	open := false
	for _, b := range d.Blocks {
		switch b := b.(type) {
		case *page.Heading:
			switch b.Level {
			case 1:
				data.Blocks = append(data.Blocks, htmlBlock{Kind: "h1", Text: b.Text})
			case 2:
				data.Blocks = append(data.Blocks, htmlBlock{Kind: "h2", ID: b.ID, Text: b.Text, Close: open})
				open = true
			default:
				data.Blocks = append(data.Blocks, htmlBlock{Kind: "h3", ID: b.ID, Text: b.Text})
			}
		case *page.Para:
			data.Blocks = append(data.Blocks, htmlBlock{Kind: "p", Segs: segs(b.Text)})
		case *page.Table:
			data.Blocks = append(data.Blocks, htmlBlock{Kind: "table", Table: b})
		case *page.Figure:
			h, err := chart.HTML(b)
			if err != nil {
				return nil, err
			}
			// Consecutive figures share one grid.
			if n := len(data.Blocks); n > 0 && data.Blocks[n-1].Kind == "figs" {
				data.Blocks[n-1].Figs = append(data.Blocks[n-1].Figs, h)
			} else {
				data.Blocks = append(data.Blocks, htmlBlock{Kind: "figs", Figs: []template.HTML{h}})
			}
		}
	}
	data.Open = open
	files := []string{"index.json", e.File}
	if s.pages.Grid != nil {
		files = append(files, grid.FileName)
	}
	for _, t := range s.pages.Index.Source.Tasks {
		files = append(files, t.File)
	}
	for _, f := range files {
		data.Files = append(data.Files, fileLink{Name: f, Href: dataHref("../", f)})
	}
	return execute("model.tmpl", data)
}
