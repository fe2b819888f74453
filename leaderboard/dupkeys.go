package leaderboard

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
//
// One exception: a name given twice exactly, with the same scalar value
// (the same bytes) both times, fills its field with that value whichever
// wins, and is read as given once. The 2025-12-15 version's diffusion
// files give weight_precision twice in every row so, "bfloat16" both
// times.
func checkDuplicateKeys(data []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true))
	// Per open object, reused from one object to the next at its depth:
	// each name's folded form -> the name as given, with its value when
	// that is a scalar.
	var objects []map[string]member
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
			var value []byte // a scalar value, as a slice of data
			if k := dec.PeekKind(); k != '{' && k != '[' {
				v, err := dec.ReadValue()
				if err != nil {
					return duplicateError(data, err)
				}
				end := dec.InputOffset()
				value = data[end-int64(len(v)) : end]
			}
			first, ok := objects[depth-1][string(key)]
			switch {
			case !ok:
				objects[depth-1][string(key)] = member{at, value}
			case value != nil && first.value != nil && bytes.Equal(value, first.value) && nameAt(data, at) == nameAt(data, first.at):
				// the same name and value again: read as one
			case nameAt(data, at) == nameAt(data, first.at):
				line, col := position(data, at)
				return fmt.Errorf("%sduplicate key %q at line %d, column %d: the last value would win silently",
					objectName(dec.StackPointer().Parent()), nameAt(data, at), line, col)
			default:
				line, col := position(data, at)
				return fmt.Errorf("%sduplicate key %q (also given as %q) at line %d, column %d: keys equal but for case fill one field, and the last value would win silently",
					objectName(dec.StackPointer().Parent()), nameAt(data, at), nameAt(data, first.at), line, col)
			}
		case kind == '{' || kind == '[' || kind == '}' || kind == ']':
			if _, err := dec.ReadToken(); err != nil {
				return duplicateError(data, err)
			}
			switch kind {
			case '{':
				if depth == len(objects) {
					objects = append(objects, map[string]member{})
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

// member is an object's member as checkDuplicateKeys met it first: the
// offset of its name, and its value when that is a scalar.
type member struct {
	at    int64
	value []byte
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
