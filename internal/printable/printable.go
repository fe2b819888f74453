// Package printable shows text that comes from a snapshot or from upstream
// (a model's name, an Ember area, a manifest's generator, a URL) where a
// person reads it: a terminal, a log, a web page. Such text is data: a
// control character in it must not move the cursor, recolour the screen,
// rewrite a line (\r), reorder what follows (a bidi override, U+202E) or
// end a log record. Every rune that is not graphic (unicode.IsGraphic:
// letters, marks, numbers, punctuation, symbols and spaces) is shown as Go
// escapes it (strconv: \x1b, \r, \x00, \u0085, \u202e), and a byte that is
// not UTF-8 as \xNN; everything else, a backslash included, is left as it
// is, so that ordinary text reads unchanged. What is shown is for reading:
// the JSON outputs carry the exact text, and JSON (below) keeps them valid
// JSON with the same values.
package printable

import (
	"io"
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// String is s on one line: every rune that is not graphic escaped, line
// breaks and tabs included.
func String(s string) string { return escape(s, false) }

// Lines is s as a text of several lines: String, but for its line breaks
// ("\n"), which stay.
func Lines(s string) string { return escape(s, true) }

// Plain reports whether String shows s as it is: s is UTF-8 and every rune
// of it is graphic.
func Plain(s string) bool {
	_, bad := firstEscaped(s, false)
	return !bad
}

// shown reports whether r is shown as it is.
func shown(r rune, lines bool) bool {
	return r != utf8.RuneError && (unicode.IsGraphic(r) || lines && r == '\n')
}

// firstEscaped returns the offset of the first rune of s that escape
// escapes, and whether there is one.
func firstEscaped(s string, lines bool) (int, bool) {
	for i, r := range s {
		if !shown(r, lines) {
			if r == utf8.RuneError {
				if _, n := utf8.DecodeRuneInString(s[i:]); n == 3 { // U+FFFD itself, as written
					continue
				}
			}
			return i, true
		}
	}
	return 0, false
}

func escape(s string, lines bool) string {
	i, bad := firstEscaped(s, lines)
	if !bad {
		return s
	}
	b := []byte(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b = append(b, `\x`...)
			b = append(b, "0123456789abcdef"[s[i]>>4], "0123456789abcdef"[s[i]&0xf])
		case shown(r, lines) || r == utf8.RuneError:
			b = append(b, s[i:i+n]...)
		default:
			q := strconv.QuoteRuneToGraphic(r) // '\x1b', '\u202e'
			b = append(b, q[1:len(q)-1]...)
		}
		i += n
	}
	return string(b)
}

// JSON returns a writer that passes JSON text on to w with every rune that
// is not graphic, which JSON may carry raw (DEL, the C1 controls such as
// U+0085 and U+009B, a bidi override, U+2028), written as its \u escape:
// the same JSON values, nothing raw for a terminal to act on. (Encoders
// escape the C0 controls already; outside a string, JSON holds only ASCII
// punctuation, white space and letters, so every rune replaced is inside a
// string.) A rune split between two writes is held until the next. It
// returns the length of what it is given, or the error of w.
func JSON(w io.Writer) io.Writer { return &jsonWriter{w: w} }

type jsonWriter struct {
	w    io.Writer
	rest []byte // the start of a rune split by the last write
	buf  []byte
}

func (j *jsonWriter) Write(p []byte) (int, error) {
	in := p
	if len(j.rest) > 0 {
		in = append(j.rest, p...)
		j.rest = nil
	}
	out := j.buf[:0]
	for i := 0; i < len(in); {
		c := in[i]
		if c < utf8.RuneSelf && c != 0x7f {
			out = append(out, c)
			i++
			continue
		}
		if !utf8.FullRune(in[i:]) {
			j.rest = append([]byte(nil), in[i:]...)
			break
		}
		r, n := utf8.DecodeRune(in[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			out = append(out, `\ufffd`...)
		case unicode.IsGraphic(r):
			out = append(out, in[i:i+n]...)
		default:
			out = appendU(out, r)
		}
		i += n
	}
	j.buf = out
	if _, err := j.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// appendU appends r as JSON's \u escape, a surrogate pair beyond the BMP.
func appendU(b []byte, r rune) []byte {
	hex := func(b []byte, u rune) []byte {
		b = append(b, `\u`...)
		for shift := 12; shift >= 0; shift -= 4 {
			b = append(b, "0123456789abcdef"[u>>shift&0xf])
		}
		return b
	}
	if r > 0xffff {
		hi, lo := utf16.EncodeRune(r)
		return hex(hex(b, hi), lo)
	}
	return hex(b, r)
}
