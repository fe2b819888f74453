package render

import (
	"bytes"
	"strings"
)

// Doc is a model's page as a structure, independent of its output format:
// headings, paragraphs, tables and figures, in order. Render writes it as
// Markdown (Doc.Markdown); the site package writes the same Doc as HTML, so
// both formats carry the same figures and the same sentences.
type Doc struct {
	Slug string
	// Name is the model's name; Title is the page's first heading.
	Name, Title string
	Blocks      []Block
}

// Block is one block of a page: *Heading, *Para, *Table or *Figure.
type Block interface{ Kind() string }

// Heading is a section heading. Level 1 is the page title.
type Heading struct {
	Level int
	// ID names the section (configurations, gpus, carbon, tasks,
	// questions, sources, or a GPU and count); the Markdown does not show it.
	ID   string
	Text string
}

// Para is a paragraph of plain text.
type Para struct{ Text string }

// Table is a table with a header row.
type Table struct {
	Head []string
	Rows []TableRow
	// Caption names the table for a reader who does not see the heading
	// above it; the Markdown does not show it.
	Caption string
}

// TableRow is one row; Marked is true for an index row.
type TableRow struct {
	Cells  []string
	Marked bool
}

// Kind names the block type: "heading", "para", "table", "figure".
func (*Heading) Kind() string { return "heading" }

// Kind implements Block.
func (*Para) Kind() string { return "para" }

// Kind implements Block.
func (*Table) Kind() string { return "table" }

// Kind implements Block.
func (*Figure) Kind() string { return "figure" }

func (d *Doc) h(level int, id, text string) {
	d.Blocks = append(d.Blocks, &Heading{Level: level, ID: id, Text: text})
}

func (d *Doc) p(text string) { d.Blocks = append(d.Blocks, &Para{Text: text}) }

func (d *Doc) add(b Block) { d.Blocks = append(d.Blocks, b) }

// Markdown writes the page as Markdown: every block but the figures,
// separated by blank lines, ending in one newline.
func (d *Doc) Markdown() []byte {
	w := make([]byte, 0, d.markdownSize())
	for _, b := range d.Blocks {
		switch b := b.(type) {
		case *Heading:
			for range b.Level {
				w = append(w, '#')
			}
			w = append(append(append(w, ' '), b.Text...), "\n\n"...)
		case *Para:
			w = append(append(w, b.Text...), "\n\n"...)
		case *Table:
			w = appendRow(w, b.Head)
			for range b.Head {
				w = append(w, "|---"...)
			}
			w = append(w, "|\n"...)
			for _, r := range b.Rows {
				w = appendRow(w, r.Cells)
			}
			w = append(w, '\n')
		}
	}
	return append(bytes.TrimRight(w, "\n"), '\n')
}

// markdownSize is the length of the page's Markdown before its trailing
// newlines are trimmed: what Markdown appends, so that it allocates once.
func (d *Doc) markdownSize() int {
	n := 0
	row := func(cells []string) int {
		n := 5 + 3*max(len(cells)-1, 0) // "| ", " | " between cells, " |\n"
		for _, c := range cells {
			n += len(c)
		}
		return n
	}
	for _, b := range d.Blocks {
		switch b := b.(type) {
		case *Heading:
			n += b.Level + 1 + len(b.Text) + 2
		case *Para:
			n += len(b.Text) + 2
		case *Table:
			n += row(b.Head) + 4*len(b.Head) + 2 + 1
			for _, r := range b.Rows {
				n += row(r.Cells)
			}
		}
	}
	return n
}

// appendRow appends a table row: "| a | b |\n".
func appendRow(w []byte, cells []string) []byte {
	w = append(w, "| "...)
	for i, c := range cells {
		if i > 0 {
			w = append(w, " | "...)
		}
		w = append(w, c...)
	}
	return append(w, " |\n"...)
}

// Plain is a Doc text as a reader sees it. A Doc's texts are Markdown
// inline text: plain text in which upstream text (a model's name, a grid's)
// may carry backslash escapes, so that it cannot start Markdown or HTML
// markup on the Markdown page. Plain removes them (a backslash before ASCII
// punctuation, as CommonMark reads it) and leaves everything else as it is;
// the HTML page shows Plain text, which html/template escapes in its turn.
func Plain(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}
