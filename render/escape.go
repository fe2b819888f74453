package render

import (
	"net/url"
	"strings"
	"unicode"

	"github.com/leadgreen/greentokens/format"
)

// mdSpecial are the characters that can start Markdown or HTML markup in
// running text: emphasis, code, links and images, tables, strikethrough,
// raw HTML and entities. CommonMark reads each as itself after a backslash.
const mdSpecial = "\\`*_[]<>&|~"

// md escapes text from upstream or from a flag (a model's name, id or
// architecture, a GPU, a grid's name, Ember's release) for a page: each
// character of mdSpecial gets a backslash, and a control character (a line
// break would start a heading or a list) becomes a space. A page starts
// lines with such text (a model's name opens its first paragraph), so what
// would open a block there loses its power too: leading spaces (four make
// a code block) are dropped, and a leading "#", "+" or "-" (a heading, a
// list item) or the "." or ")" after leading digits (an ordered list item)
// gets a backslash. Text without any of these is returned as it is.
func md(s string) string {
	if !strings.ContainsAny(s, mdSpecial) && strings.IndexFunc(s, unicode.IsControl) < 0 && blockMarker(s) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsControl(r):
			b.WriteByte(' ')
		case r < 0x80 && strings.ContainsRune(mdSpecial, r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	e := strings.TrimLeft(b.String(), " ")
	if i := blockMarker(e); i >= 0 {
		e = e[:i] + `\` + e[i:]
	}
	return e
}

// blockMarker is the index of the character that would make s, at the
// start of a line, open a Markdown block (CommonMark's ATX heading, bullet
// or ordered list item, indented code), or -1. A leading space counts: md
// drops it.
func blockMarker(s string) int {
	if s == "" {
		return -1
	}
	switch s[0] {
	case ' ', '#', '+', '-':
		return 0
	}
	digits := len(s) - len(strings.TrimLeft(s, "0123456789"))
	if digits > 0 && digits <= 9 && digits < len(s) && (s[digits] == '.' || s[digits] == ')') {
		return digits
	}
	return -1
}

// escapedModel is a copy of m for display: its name, model id,
// architecture and GPU list escaped (md). Its configurations and best rows
// are m's, so that row ids still find the archived rows.
func escapedModel(m *format.Model) *format.Model {
	c := *m
	c.Name, c.ModelID, c.Architecture = md(m.Name), md(m.ModelID), md(m.Architecture)
	c.GPUs = make([]string, len(m.GPUs))
	for i, g := range m.GPUs {
		c.GPUs[i] = md(g)
	}
	return &c
}

// urlPath escapes a model id ("Qwen/Qwen3-32B") for the path of a URL:
// each of its "/"-separated parts is percent-encoded where it has to be,
// and "&" too, so that no markup survives in a link.
func urlPath(id string) string {
	parts := strings.Split(id, "/")
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(url.PathEscape(p), "&", "%26")
	}
	return strings.Join(parts, "/")
}
