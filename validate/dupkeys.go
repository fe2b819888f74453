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
}

// findDuplicateKey streams a JSON document from r and returns its first
// key given twice in one object, or equal under strings.EqualFold to an
// earlier key of its object (json.Unmarshal keeps the last value of such
// keys without a word: it matches struct fields case-insensitively), or
// nil. Syntax errors are not its to report: the decoders do. A non-nil
// error is a failure to read r.
func findDuplicateKey(r io.Reader) (*duplicateKey, error) {
	dec := jsontext.NewDecoder(r)
	var objects []map[string][]string // per open object: folded name -> names given
	for {
		if kind, n := dec.StackIndex(dec.StackDepth()); kind == '{' && n%2 == 0 && dec.PeekKind() == '"' {
			raw, err := dec.ReadValue()
			if err != nil {
				return exactDuplicate(err)
			}
			name, err := jsontext.AppendUnquote(nil, raw)
			if err != nil {
				return nil, nil
			}
			if first, ok := caseVariant(objects[len(objects)-1], string(name)); ok {
				return &duplicateKey{
					where:  pointerWhere(dec.StackPointer().Parent()),
					key:    string(name),
					first:  first,
					offset: dec.InputOffset() - int64(len(raw)),
				}, nil
			}
			continue
		}
		tok, err := dec.ReadToken()
		if err != nil {
			return exactDuplicate(err)
		}
		switch tok.Kind() {
		case '{':
			objects = append(objects, map[string][]string{})
		case '}':
			objects = objects[:len(objects)-1]
		}
		if dec.StackDepth() == 0 {
			return nil, nil
		}
	}
}

// caseVariant records name among the names of one object and returns an
// earlier name of it equal to name under strings.EqualFold. Names are
// grouped by the lower case of their upper case, which fold-equal names
// share (the long s and the Kelvin sign included); EqualFold then settles.
func caseVariant(names map[string][]string, name string) (string, bool) {
	low := strings.ToLower(strings.ToUpper(name))
	for _, first := range names[low] {
		if strings.EqualFold(first, name) {
			return first, true
		}
	}
	names[low] = append(names[low], name)
	return "", false
}

// exactDuplicate turns the decoder's error for a key given twice into a
// duplicateKey; other syntax errors and the end of input are nil, a read
// failure is returned.
func exactDuplicate(err error) (*duplicateKey, error) {
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) {
		var rerr *taskReadError
		if errors.As(err, &rerr) {
			return nil, rerr.err
		}
		return nil, nil
	}
	if !errors.Is(se.Err, jsontext.ErrDuplicateName) {
		return nil, nil
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

// findDuplicateKeyIn is findDuplicateKey on a file streamed from open.
func findDuplicateKeyIn(open func() (io.ReadCloser, error)) (*duplicateKey, error) {
	f, err := open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return findDuplicateKey(taskReader{f})
}

// lineColIn is lineCol on a file streamed from open.
func lineColIn(open func() (io.ReadCloser, error), offset int64) (line, col int64, err error) {
	f, err := open()
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	line, col = lineCol(f, offset)
	return line, col, nil
}
