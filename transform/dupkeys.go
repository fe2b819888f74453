package transform

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// checkDuplicateKeys fails when an object of the JSON document data has
// two members of one name, or of two names equal under case folding
// (strings.EqualFold: encoding/json matches struct fields case-insensitively,
// so "last_updated" then "Last_Updated" fill one field). Either way the last
// value would win silently. The error names the object ("configurations[2]"),
// the key or both keys, and the line and column of the second. Syntax errors
// are the decoders' to report, and are not reported here.
func checkDuplicateKeys(data []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	// Per open object, reused from one object to the next at its depth:
	// each name's folded form -> the offset of the name as given.
	var objects []map[string]int64
	depth := 0
	var key []byte
	for {
		switch kind := dec.PeekKind(); {
		case kind == '"' && depth > 0 && isName(dec):
			raw, err := dec.ReadValue()
			if err != nil {
				return duplicateError(data, err)
			}
			at := dec.InputOffset() - int64(len(raw))
			key = appendFoldKey(key[:0], raw)
			if first, ok := objects[depth-1][string(key)]; ok {
				line, col := position(data, at)
				return fmt.Errorf("%sduplicate key %q (also given as %q) at line %d, column %d: keys equal but for case fill one field, and the last value would win silently",
					objectName(dec.StackPointer().Parent()), nameAt(data, at), nameAt(data, first), line, col)
			}
			objects[depth-1][string(key)] = at
		case kind == '{' || kind == '[' || kind == '}' || kind == ']':
			if _, err := dec.ReadToken(); err != nil {
				return duplicateError(data, err)
			}
			switch kind {
			case '{':
				if depth == len(objects) {
					objects = append(objects, map[string]int64{})
				}
				clear(objects[depth])
				depth++
			case '}':
				depth--
			}
		default:
			if err := dec.SkipValue(); err != nil {
				return duplicateError(data, err)
			}
		}
		if dec.StackDepth() == 0 {
			return nil
		}
	}
}

// isName reports whether the decoder's next token is an object's name.
func isName(dec *jsontext.Decoder) bool {
	kind, n := dec.StackIndex(dec.StackDepth())
	return kind == '{' && n%2 == 0
}

// nameAt is the name whose quoted form starts at offset at of data.
func nameAt(data []byte, at int64) string {
	raw, _ := jsontext.NewDecoder(bytes.NewReader(data[at:])).ReadValue()
	name, _ := jsontext.AppendUnquote(nil, raw)
	return string(name)
}

// duplicateError is the error for a key given twice exactly, found by the
// decoder itself, or for what else the decoder refuses in a document that
// json.Valid accepts (a lone surrogate escape, "\ud800"): refused here, as
// the readers after this check assume what it passes. Other errors are
// nil: the callers check syntax first, with json.Valid and their decoders'
// own messages.
func duplicateError(data []byte, err error) error {
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) {
		return nil
	}
	line, col := position(data, se.ByteOffset)
	if !errors.Is(se.Err, jsontext.ErrDuplicateName) {
		return fmt.Errorf("not valid JSON at line %d, column %d: %v", line, col, se.Err)
	}
	return fmt.Errorf("%sduplicate key %q at line %d, column %d: the last value would win silently", objectName(se.JSONPointer.Parent()), se.JSONPointer.LastToken(), line, col)
}

// objectName renders a JSON Pointer as "configurations[2]: ", or "" for
// the top-level value.
func objectName(p jsontext.Pointer) string {
	var where strings.Builder
	for tok := range p.Tokens() {
		if _, err := strconv.Atoi(tok); err == nil {
			fmt.Fprintf(&where, "[%s]", tok)
		} else {
			if where.Len() > 0 {
				where.WriteByte('.')
			}
			where.WriteString(tok)
		}
	}
	if where.Len() > 0 {
		where.WriteString(": ")
	}
	return where.String()
}

// appendFoldKey appends to b one representative of the quoted name raw's
// class under strings.EqualFold: each rune becomes the least rune of its
// simple case-folding orbit, so two names are EqualFold exactly when
// their keys are equal.
func appendFoldKey(b, raw []byte) []byte {
	name := raw[1 : len(raw)-1]
	if bytes.IndexByte(name, '\\') >= 0 {
		name, _ = jsontext.AppendUnquote(nil, raw)
	}
	for len(name) > 0 {
		if c := name[0]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A' // the least of its orbit ({K, k, U+212A} and {S, s, U+017F} too)
			}
			b = append(b, c)
			name = name[1:]
			continue
		}
		r, n := utf8.DecodeRune(name)
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b = utf8.AppendRune(b, least)
		name = name[n:]
	}
	return b
}

// maxPlainNames is the most names plainDistinctNames compares in one
// object (each with all before it); an object with more is left to
// checkDuplicateKeys.
const maxPlainNames = 64

// plainDistinctNames reports whether data, valid JSON in valid UTF-8, has
// nothing checkDuplicateKeys would refuse, found by a quick scan: every
// name is ASCII without an escape, no object has more than maxPlainNames
// names or two names equal but for ASCII case, and no string has a \u
// escape (which jsontext may refuse: a lone surrogate). When it reports
// false, checkDuplicateKeys decides, and words the error.
func plainDistinctNames(data []byte) bool {
	// names holds the open objects' names, as spans of data; starts, where
	// each open object's (or list's: -1) names begin.
	var names [][2]int
	var starts []int
	for i := 0; i < len(data); {
		switch data[i] {
		case '{':
			starts = append(starts, len(names))
			i++
		case '[':
			starts = append(starts, -1)
			i++
		case '}', ']':
			if len(starts) == 0 {
				return false
			}
			if s := starts[len(starts)-1]; s >= 0 {
				names = names[:s]
			}
			starts = starts[:len(starts)-1]
			i++
		case '"':
			end, escaped := scanString(data, i)
			if escaped < 0 || end < 0 {
				return false // a \u escape, or not valid JSON
			}
			j := skipWhite(data, end)
			if j < len(data) && data[j] == ':' { // a name
				if escaped > 0 || len(starts) == 0 || starts[len(starts)-1] < 0 {
					return false
				}
				s := starts[len(starts)-1]
				if len(names)-s >= maxPlainNames {
					return false
				}
				name := data[i+1 : end-1]
				for _, c := range name {
					if c >= utf8.RuneSelf {
						return false
					}
				}
				for _, n := range names[s:] {
					if asciiEqualFold(data[n[0]:n[1]], name) {
						return false
					}
				}
				names = append(names, [2]int{i + 1, end - 1})
			}
			i = end
		default:
			i++
		}
	}
	return true
}

// scanString returns the index after the string literal at data[i:] (-1
// when it does not end), and whether it has escapes: 0 none, 1 some but no
// \u, -1 a \u.
func scanString(data []byte, i int) (end, escaped int) {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			if i+1 < len(data) && data[i+1] == 'u' {
				escaped = -1
			} else if escaped == 0 {
				escaped = 1
			}
			i++
		case '"':
			return i + 1, escaped
		}
	}
	return -1, escaped
}

// asciiEqualFold reports whether a and b, ASCII, are equal but for case.
func asciiEqualFold(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if 'a' <= x && x <= 'z' {
			x -= 'a' - 'A'
		}
		if 'a' <= y && y <= 'z' {
			y -= 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

func skipWhite(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t') {
		i++
	}
	return i
}
