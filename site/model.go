package site

import (
	"html/template"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/render"
	"github.com/leadgreen/greentokens/site/chart"
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

// shortCell is the most characters a table cell holds and still is kept
// on one line: a date, a GPU ("1 × B200"), a number or a pair of them, so
// "2026-09-26" never breaks at a hyphen.
const shortCell = 12

// short reports whether a table cell is kept on one line (class "nw").
func short(text string) bool { return utf8.RuneCountInString(text) <= shortCell }

// htmlBlock is one block of a model page as the template draws it.
type htmlBlock struct {
	Kind     string // h1, h2, h3, p, table, figs
	ID, Text string
	Close    bool // an h2 that closes the section before it
	Segs     []seg
	Table    *render.Table
	Figs     []template.HTML
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

// modelPage writes the page of slug as HTML from the same render.Doc the
// Markdown page is written from.
func (s *Site) modelPage(slug string) ([]byte, error) {
	d, err := render.Build(s.pages, slug, render.Options{Grids: s.opts.Grids, IndexURL: s.baseURL()})
	if err != nil {
		return nil, err
	}
	e := s.pages.Entry(slug)
	data := modelData{frame: s.frame(e.Name, modelPath(slug), ""), GPUs: render.List(e.GPUs)}
	for _, b := range d.Blocks {
		if p, ok := b.(*render.Para); ok { // the headline
			data.Description = firstSentence(render.Plain(p.Text), len(e.Name))
			break
		}
	}
	if data.Blocks, data.Open, err = htmlBlocks(d); err != nil {
		return nil, err
	}
	hist, err := s.historyBlocks(format.PrimaryTask(), slug, data.Open)
	if err != nil {
		return nil, err
	}
	if len(hist) > 0 {
		data.Blocks, data.Open = append(data.Blocks, hist...), true
	}
	files := []string{format.IndexPath, e.File}
	if s.pages.Grid != nil {
		files = append(files, format.GridPath)
	}
	for _, t := range s.pages.Index.Source.Tasks {
		files = append(files, t.File)
	}
	for _, f := range files {
		data.Files = append(data.Files, fileLink{Name: f, Href: dataHref("../", f)})
	}
	return execute("model.tmpl", data)
}

// htmlBlocks turns a page's blocks into the template's: texts as a reader
// sees them (render.Plain), an h2 opening a section (closing the one before),
// consecutive figures drawn into one grid. open says whether a section is
// left open at the end.
func htmlBlocks(d *render.Doc) (blocks []htmlBlock, open bool, err error) {
	for _, b := range d.Blocks {
		switch b := b.(type) {
		case *render.Heading:
			switch b.Level {
			case 1:
				blocks = append(blocks, htmlBlock{Kind: "h1", Text: render.Plain(b.Text)})
			case 2:
				blocks = append(blocks, htmlBlock{Kind: "h2", ID: b.ID, Text: render.Plain(b.Text), Close: open})
				open = true
			default:
				blocks = append(blocks, htmlBlock{Kind: "h3", ID: b.ID, Text: render.Plain(b.Text)})
			}
		case *render.Para:
			blocks = append(blocks, htmlBlock{Kind: "p", Segs: segs(render.Plain(b.Text))})
		case *render.Table:
			blocks = append(blocks, htmlBlock{Kind: "table", Table: plainTable(b)})
		case *render.Figure:
			h, err := chart.HTML(plainFigure(b))
			if err != nil {
				return nil, false, err
			}
			if n := len(blocks); n > 0 && blocks[n-1].Kind == "figs" {
				blocks[n-1].Figs = append(blocks[n-1].Figs, h)
			} else {
				blocks = append(blocks, htmlBlock{Kind: "figs", Figs: []template.HTML{h}})
			}
		}
	}
	return blocks, open, nil
}

// plainTable is t with its texts as a reader sees them (render.Plain).
func plainTable(t *render.Table) *render.Table {
	c := &render.Table{Caption: render.Plain(t.Caption), Head: plainAll(t.Head)}
	for _, r := range t.Rows {
		c.Rows = append(c.Rows, render.TableRow{Cells: plainAll(r.Cells), Marked: r.Marked})
	}
	return c
}

// plainFigure is f with its texts as a reader sees them (render.Plain).
func plainFigure(f *render.Figure) *render.Figure {
	c := *f
	c.Title, c.XLabel, c.YLabel, c.Alt, c.Note, c.RefLabel = render.Plain(f.Title), render.Plain(f.XLabel), render.Plain(f.YLabel), render.Plain(f.Alt), render.Plain(f.Note), render.Plain(f.RefLabel)
	c.Series = make([]render.Series, len(f.Series))
	for i, s := range f.Series {
		c.Series[i] = render.Series{Name: render.Plain(s.Name), Points: make([]render.Point, len(s.Points))}
		for j, p := range s.Points {
			p.Label = render.Plain(p.Label)
			c.Series[i].Points[j] = p
		}
	}
	c.Bars = make([]render.Bar, len(f.Bars))
	for i, b := range f.Bars {
		b.Label, b.Text = render.Plain(b.Label), render.Plain(b.Text)
		c.Bars[i] = b
	}
	return &c
}

func plainAll(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = render.Plain(x)
	}
	return out
}
