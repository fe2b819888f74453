package validate

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// duplicateKey is a key given twice in one object of a JSON document.
type duplicateKey struct {
	where, key string // the object ("configurations[2]"), the key
	offset     int64  // byte offset of the second one
}

// findDuplicateKey streams a JSON document from r and returns its first
// key given twice in one object (json.Unmarshal keeps the last value of
// such a key without a word), or nil. Syntax errors are not its to report:
// the decoders do. A non-nil error is a failure to read r.
func findDuplicateKey(r io.Reader) (*duplicateKey, error) {
	err := jsontext.NewDecoder(r).SkipValue()
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
	var where strings.Builder
	for tok := range se.JSONPointer.Parent().Tokens() {
		if _, err := strconv.Atoi(tok); err == nil {
			where.WriteString("[" + tok + "]")
			continue
		}
		if where.Len() > 0 {
			where.WriteByte('.')
		}
		where.WriteString(tok)
	}
	return &duplicateKey{where: where.String(), key: se.JSONPointer.LastToken(), offset: se.ByteOffset}, nil
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
