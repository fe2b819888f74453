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
	var seen []map[string]string // per open object: folded name -> name as given
	for {
		depth := dec.StackDepth()
		if kind, n := dec.StackIndex(depth); kind == '{' && n%2 == 0 && dec.PeekKind() == '"' {
			raw, err := dec.ReadValue()
			if err != nil {
				return duplicateError(data, err)
			}
			name, err := jsontext.AppendUnquote(nil, raw)
			if err != nil {
				return nil // invalid UTF-8 and the like: the decoders' to report
			}
			key := foldKey(string(name))
			if first, ok := seen[len(seen)-1][key]; ok {
				line, col := position(data, dec.InputOffset()-int64(len(raw)))
				return fmt.Errorf("%sduplicate key %q (also given as %q) at line %d, column %d: keys equal but for case fill one field, and the last value would win silently",
					objectName(dec.StackPointer().Parent()), string(name), first, line, col)
			}
			seen[len(seen)-1][key] = string(name)
			continue
		}
		tok, err := dec.ReadToken()
		if err != nil {
			return duplicateError(data, err)
		}
		switch tok.Kind() {
		case '{':
			seen = append(seen, map[string]string{})
		case '}':
			seen = seen[:len(seen)-1]
		}
		if dec.StackDepth() == 0 {
			return nil
		}
	}
}

// duplicateError is the error for a key given twice exactly, found by the
// decoder itself; any other error (syntax, end of input) is nil here.
func duplicateError(data []byte, err error) error {
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) || !errors.Is(se.Err, jsontext.ErrDuplicateName) {
		return nil
	}
	line, col := position(data, se.ByteOffset)
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

// foldKey maps s to one representative of its class under
// strings.EqualFold: each rune becomes the least rune of its simple
// case-folding orbit, so two names are EqualFold exactly when their
// foldKeys are equal.
func foldKey(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b = utf8.AppendRune(b, least)
	}
	return string(b)
}
