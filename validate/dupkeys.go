package validate

import (
	"bytes"
	"errors"
	"io"
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
	// refuses in a document json.Valid accepts (a lone surrogate escape,
	// "\ud800"), at offset: the keys after it would go unchecked.
	refused string
}

// findDuplicateKey streams a JSON document from r and returns its first
// key given twice in one object, or equal under strings.EqualFold to an
// earlier key of its object (json.Unmarshal keeps the last value of such
// keys without a word: it matches struct fields case-insensitively), or
// nil. Syntax errors are not its to report: the decoders do. A non-nil
// error is a failure to read r.
func findDuplicateKey(r io.Reader) (*duplicateKey, error) {
	dec := jsontext.NewDecoder(r)
	var objects []*objectNames // per open object, reused at its depth
	depth := 0
	for {
		switch kind := dec.PeekKind(); {
		case kind == '"' && depth > 0 && nextIsName(dec):
			raw, err := dec.ReadValue()
			if err != nil {
				return exactDuplicate(err)
			}
			if first, ok := objects[depth-1].add(raw); ok {
				name, _ := jsontext.AppendUnquote(nil, raw)
				return &duplicateKey{
					where:  pointerWhere(dec.StackPointer().Parent()),
					key:    string(name),
					first:  first,
					offset: dec.InputOffset() - int64(len(raw)),
				}, nil
			}
		case kind == '{' || kind == '[' || kind == '}' || kind == ']':
			if _, err := dec.ReadToken(); err != nil {
				return exactDuplicate(err)
			}
			switch kind {
			case '{':
				if depth == len(objects) {
					objects = append(objects, &objectNames{folded: map[string][]string{}})
				}
				objects[depth].reset()
				depth++
			case '}':
				depth--
			}
		default:
			if err := dec.SkipValue(); err != nil {
				return exactDuplicate(err)
			}
		}
		if dec.StackDepth() == 0 {
			return nil, nil
		}
	}
}

// nextIsName reports whether the decoder's next token is an object's name.
func nextIsName(dec *jsontext.Decoder) bool {
	kind, n := dec.StackIndex(dec.StackDepth())
	return kind == '{' && n%2 == 0
}

// objectNames are the names of one object so far, to find two equal
// under strings.EqualFold: each is filed under the lower case of its upper
// case, which fold-equal names share; EqualFold then settles.
type objectNames struct {
	folded map[string][]string
}

func (o *objectNames) reset() { clear(o.folded) }

// add files the quoted name raw and returns an earlier name of the object
// equal to it under strings.EqualFold.
func (o *objectNames) add(raw []byte) (string, bool) {
	u, _ := jsontext.AppendUnquote(nil, raw)
	name := string(u)
	form := strings.ToLower(strings.ToUpper(name))
	for _, prev := range o.folded[form] {
		if strings.EqualFold(prev, name) {
			return prev, true
		}
	}
	o.folded[form] = append(o.folded[form], name)
	return "", false
}

// exactDuplicate turns the decoder's error for a key given twice into a
// duplicateKey, and another syntax error into one that says the document
// is refused there (the callers decode the document first, so that is
// what jsontext alone refuses); the end of input is nil.
func exactDuplicate(err error) (*duplicateKey, error) {
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) {
		return nil, nil // the end of the input
	}
	if !errors.Is(se.Err, jsontext.ErrDuplicateName) {
		return &duplicateKey{where: pointerWhere(se.JSONPointer.Parent()), refused: se.Err.Error(), offset: se.ByteOffset}, nil
	}
	return &duplicateKey{where: pointerWhere(se.JSONPointer.Parent()), key: se.JSONPointer.LastToken(), offset: se.ByteOffset}, nil
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
	d, _ := findDuplicateKey(bytes.NewReader(data))
	if d == nil {
		return true
	}
	line, col := lineCol(bytes.NewReader(data), d.offset)
	d.report(ps, line, col)
	return false
}

func (d *duplicateKey) report(ps *problems, line, col int64) {
	if d.refused != "" {
		ps.add(d.where, "", "cannot be checked for keys given twice at line %d, column %d: %s", line, col, d.refused)
		return
	}
	if d.first != "" {
		ps.add(d.where, "", "has the keys %q and %q, equal but for case (the second at line %d, column %d); a reader matching fields case-insensitively would keep the last value silently", d.first, d.key, line, col)
		return
	}
	ps.add(d.where, "", "has the key %q twice (the second at line %d, column %d); a reader would keep the last value silently", d.key, line, col)
}

// lineCol returns the 1-based line and column (in bytes) of a byte offset
// of the stream r.
func lineCol(r io.Reader, offset int64) (line, col int64) {
	buf := make([]byte, 64<<10)
	line, lastNL := 1, int64(-1)
	for pos := int64(0); pos < offset; {
		n, err := r.Read(buf[:min(int64(len(buf)), offset-pos)])
		for i, c := range buf[:n] {
			if c == '\n' {
				line++
				lastNL = pos + int64(i)
			}
		}
		pos += int64(n)
		if err != nil {
			break
		}
	}
	return line, offset - lastNL
}
