package validate

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// A task file is read in one pass when it can be, and in three
// (parseTaskSlow) when it cannot.
//
// Why: parseTaskSlow reads the file three times (checkUTF8From, decodeTask,
// findDuplicateKeyIn). In a CPU profile of a build of 10,000 models the
// parse took 1.30 s: parseRow 0.77 s, the rest encoding/json's scanner
// (0.30 s) and the duplicate-key pass (0.21 s), which the one pass replaces
// with one jsontext scan (BenchmarkParseTask, 22 MB: about 1.35 s in three
// passes, 0.95 s in one). A jsontext.Decoder with its default
// options refuses, while reading the file once, everything the first and
// third passes look for: bytes that are not UTF-8 (and escaped lone
// surrogates, which the duplicate-key pass, itself a jsontext decoder,
// reports as refused), a name given twice in one object (compared
// unescaped, as findDuplicateKey compares them), and any syntax error
// (nesting deeper than 10,000 levels from the top of the file included,
// which encoding/json counts from each row, more leniently). What
// it does not refuse, two names of one object equal under strings.EqualFold
// but not equal, is looked for here (foldDistinct). So a file the one pass
// reads to its end is one decodeTask decodes without an error and on which
// the UTF-8 and duplicate-key passes find nothing, and each row's bytes are
// handed to parseRow exactly as decodeTask hands them.
//
// Why falling back keeps the wording: the one pass reports nothing. Whatever
// it does not read exactly as decodeTask does (any error of the decoder or
// of the reader, a value of an unexpected type, a top level that is not an
// object, data after it), it gives up having added no problem, and
// parseTaskSlow reads the file afresh: its problems, with their lines,
// columns and messages, and its read errors (taskReadError) are the ones it
// has always given. A read failure during the one pass is not reported by
// it either: the three passes read the file again, and return the failure
// as the error when it recurs.

// parseTaskFrom is parseTask on a file streamed from open: in one pass
// (decodeTaskFast) when that pass reads it to its end, else as
// parseTaskSlow reads it. Either way it returns what parseTaskSlow returns
// and reports what it reports. A non-nil error is a failure to read the
// file (nothing is reported then).
func parseTaskFrom(ps *problems, task string, open func() (io.ReadCloser, error)) ([]*lbRow, bool, error) {
	f, err := open()
	if err != nil {
		return nil, false, err
	}
	doc := decodeTaskFast(f)
	f.Close()
	if doc == nil {
		return parseTaskSlow(ps, task, open)
	}
	rows, ok := doc.parsed(ps, task)
	return rows, ok, nil
}

// decodeTaskFast decodes a task file from r as decodeTask does, in the one
// case the one pass handles alike: the file is UTF-8, free of syntax
// errors, of names given twice in one object and of names of one object
// equal under strings.EqualFold; its top level is an object whose task (a
// key equal to "task" under strings.EqualFold) is a string or null and
// whose configurations is an array or null; nothing but white space
// follows. Otherwise, and on any failure to read r, it returns nil.
func decodeTaskFast(r io.Reader) *taskDoc {
	dec := jsontext.NewDecoder(bufio.NewReaderSize(r, 64<<10))
	if dec.PeekKind() != '{' {
		return nil
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil
	}
	doc := &taskDoc{}
	top := &objectNames{folded: map[string]string{}}
	var name []byte
	for dec.PeekKind() == '"' {
		raw, err := dec.ReadValue()
		if err != nil {
			return nil
		}
		if _, dup := top.add(raw); dup {
			return nil
		}
		if name, err = jsontext.AppendUnquote(name[:0], raw); err != nil {
			return nil
		}
		switch key := string(name); {
		case strings.EqualFold(key, "task"):
			switch dec.PeekKind() {
			case '"':
				v, err := dec.ReadValue()
				if err != nil {
					return nil
				}
				s, err := jsontext.AppendUnquote(nil, v)
				if err != nil {
					return nil
				}
				t := string(s)
				doc.task = &t
			case 'n':
				if _, err := dec.ReadValue(); err != nil {
					return nil
				}
				doc.task = nil
			default:
				return nil
			}
		case strings.EqualFold(key, "configurations"):
			switch dec.PeekKind() {
			case '[':
				if _, err := dec.ReadToken(); err != nil {
					return nil
				}
				doc.rows = doc.rows[:0]
				// PeekKind is 0 on an error, which ReadValue then returns.
				for dec.PeekKind() != ']' {
					raw, err := dec.ReadValue()
					if err != nil || !foldDistinct(raw) {
						return nil
					}
					doc.rows = append(doc.rows, parseRow(raw))
				}
				if _, err := dec.ReadToken(); err != nil {
					return nil
				}
			case 'n':
				if _, err := dec.ReadValue(); err != nil {
					return nil
				}
				doc.rows = nil
			default:
				return nil
			}
		default:
			raw, err := dec.ReadValue()
			if err != nil || !foldDistinct(raw) {
				return nil
			}
		}
	}
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '}' {
		return nil
	}
	// Only white space may follow: jsontext would read another value.
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil
	}
	return doc
}

// foldDistinct reports whether no object of raw, a JSON value the decoder
// has read whole (so valid, and free of names given twice), has two names
// equal under strings.EqualFold. Names of ASCII bytes other than the upper
// case letters, written without an escape, are fold-equal only when equal:
// a value whose names are all such (every real task file's are) has none,
// and is scanned for nothing else; any other is looked over by the
// duplicate-key scanner (findDuplicateKey) itself.
func foldDistinct(raw []byte) bool {
	if plainNames(raw) {
		return true
	}
	dup, err := findDuplicateKey(bytes.NewReader(raw))
	return dup == nil && err == nil
}

// plainNames reports whether every object name of raw, valid JSON, is
// written without an escape in ASCII bytes other than 'A' to 'Z'. It finds
// each string (a '"' out of a string opens one), and takes one followed by
// ':' for a name; it reports false when raw turns out not to be valid.
func plainNames(raw []byte) bool {
	for i := 0; i < len(raw); {
		q := bytes.IndexByte(raw[i:], '"')
		if q < 0 {
			return true
		}
		start := i + q + 1
		end, escaped := start, false
		for {
			k := bytes.IndexByte(raw[end:], '"')
			if k < 0 {
				return false
			}
			if b := bytes.IndexByte(raw[end:end+k], '\\'); b >= 0 {
				// An escape: the byte after the backslash ('"' perhaps)
				// does not end the string.
				escaped = true
				end += b + 2
				if end > len(raw) {
					return false
				}
				continue
			}
			end += k
			break
		}
		// raw[start:end] is the string's text, raw[end] its closing quote.
		i = end + 1
		for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\n' || raw[i] == '\r') {
			i++
		}
		if i < len(raw) && raw[i] == ':' {
			if escaped {
				return false
			}
			for _, c := range raw[start:end] {
				if c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
					return false
				}
			}
		}
	}
	return true
}
