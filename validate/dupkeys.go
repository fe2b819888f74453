package validate

// A key given twice in one object of an archived upstream file: a JSON
// reader keeps the last value without a word, and encoding/json matches
// struct fields case-insensitively, so two keys equal under case folding
// are as bad. jsontext refuses the first kind as it reads; the second is
// looked for here.

import (
	"bytes"
	"errors"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// duplicateKey is a key given twice in one object of a JSON document, or
// two keys of one object equal under case folding.
type duplicateKey struct {
	where, key string // the object ("configurations[2]"), the key
	first      string // the earlier key when the two differ in case, else ""
	offset     int64  // byte offset of the second one
	// refused, when set, is not a duplicate but what the key scanner
	// refuses in a document encoding/json accepts (a lone surrogate
	// escape, "\ud800"), at offset: the keys after it would go unchecked.
	refused string
}

// findDuplicateKey returns the first key of data given twice in one
// object, or equal under strings.EqualFold to an earlier key of it, or nil.
// A name given again with the same scalar value, byte for byte, is no
// duplicate: whichever a reader keeps, the value is the same.
func findDuplicateKey(data []byte) *duplicateKey {
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true))
	var objects []map[string][][2]string // per open object: its names and scalar values ("" for none), by folded form
	for {
		kind := dec.PeekKind()
		open, n := dec.StackIndex(dec.StackDepth())
		switch {
		case kind == '"' && open == '{' && n%2 == 0: // a name
			raw, err := dec.ReadValue()
			if err != nil {
				return refusal(err)
			}
			at := dec.InputOffset() - int64(len(raw))
			u, _ := jsontext.AppendUnquote(nil, raw)
			name, value := string(u), ""
			if k := dec.PeekKind(); k != '{' && k != '[' {
				v, err := dec.ReadValue()
				if err != nil {
					return refusal(err)
				}
				value = string(v)
			}
			names := objects[len(objects)-1]
			form := strings.ToLower(strings.ToUpper(name)) // shared by fold-equal names
			for _, prev := range names[form] {
				switch {
				case prev[0] == name && value != "" && prev[1] == value:
					// The same name with the same scalar value: read as one
					// (the 2025-12-15 diffusion files give weight_precision so).
				case prev[0] == name:
					return &duplicateKey{where: pointerWhere(dec.StackPointer().Parent()), key: name, offset: at}
				case strings.EqualFold(prev[0], name):
					return &duplicateKey{where: pointerWhere(dec.StackPointer().Parent()), key: name, first: prev[0], offset: at}
				}
			}
			names[form] = append(names[form], [2]string{name, value})
		case kind == '{' || kind == '[' || kind == '}' || kind == ']':
			if _, err := dec.ReadToken(); err != nil {
				return refusal(err)
			}
			switch kind {
			case '{':
				objects = append(objects, map[string][][2]string{})
			case '}':
				objects = objects[:len(objects)-1]
			}
		default:
			if err := dec.SkipValue(); err != nil {
				return refusal(err)
			}
		}
		if dec.StackDepth() == 0 {
			return nil
		}
	}
}

// refusal turns the decoder's error into a duplicateKey: a key given twice,
// or what jsontext alone refuses; nil at the end of input.
func refusal(err error) *duplicateKey {
	var se *jsontext.SyntacticError
	switch {
	case !errors.As(err, &se):
		return nil // the end of the input
	case errors.Is(se.Err, jsontext.ErrDuplicateName):
		return &duplicateKey{where: pointerWhere(se.JSONPointer.Parent()), key: se.JSONPointer.LastToken(), offset: se.ByteOffset}
	}
	return &duplicateKey{where: pointerWhere(se.JSONPointer.Parent()), refused: se.Err.Error(), offset: se.ByteOffset}
}

// pointerWhere renders a JSON Pointer as "configurations[2]".
func pointerWhere(p jsontext.Pointer) string {
	var where strings.Builder
	for tok := range p.Tokens() {
		if _, err := strconv.Atoi(tok); err == nil {
			where.WriteString("[" + tok + "]")
			continue
		}
		if where.Len() > 0 {
			where.WriteByte('.')
		}
		where.WriteString(tok)
	}
	return where.String()
}

// checkDuplicateKeys reports the first key given twice in one object of
// data, with its line and column; it returns false when there is one.
func checkDuplicateKeys(ps *problems, data []byte) bool {
	d := findDuplicateKey(data)
	if d == nil {
		return true
	}
	line, col := lineCol(data, int(d.offset))
	switch {
	case d.refused != "":
		ps.add(d.where, "", "cannot be checked for keys given twice at line %d, column %d: %s", line, col, d.refused)
	case d.first != "":
		ps.add(d.where, "", "has the keys %q and %q, equal but for case (the second at line %d, column %d); a reader matching fields case-insensitively would keep the last value silently", d.first, d.key, line, col)
	default:
		ps.add(d.where, "", "has the key %q twice (the second at line %d, column %d); a reader would keep the last value silently", d.key, line, col)
	}
	return false
}
