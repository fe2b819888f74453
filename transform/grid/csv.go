package grid

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// csvScanner reads RFC 4180 records the way encoding/csv's Reader does with
// its defaults (Comma ',', no comments, LazyQuotes and TrimLeadingSpace off,
// FieldsPerRecord 0: every record has as many fields as the first), but
// without allocating per record. Ember's file is about 400,000 records of
// which the grid stage keeps some 5,000, so the common case must be cheap:
// a line with no quote in it is split in place, in the bufio.Reader's
// buffer. Lines with quotes take the general path, a port of encoding/csv's
// readRecord, which copies the record into a reusable buffer.
//
// A record is kept as a buffer and the offsets of the separators between
// its fields (no pointers, so filling them costs no GC write barriers):
// field i is buf[seps[i]+1 : seps[i+1]]. On the fast path buf is the line
// and the separators are its commas; on the general path buf holds the
// unquoted fields, each followed by a ',' placeholder. Fields are valid
// until the next call to next. TestScannerMatchesEncodingCSV checks the
// scanner against encoding/csv.
type csvScanner struct {
	r       *bufio.Reader
	numLine int // lines read so far

	raw  []byte // a line longer than the bufio buffer
	rec  []byte // the unquoted fields of a record on the general path
	buf  []byte // the current record's bytes: a line, or rec
	seps []int  // -1, the separators' offsets in buf, len of the last field's end
	// split is false while seps is not yet filled for buf: a line without
	// quotes is only counted (bytes.Count) until a field is asked for,
	// which most records never are.
	split bool
	n     int // fields of the current record

	nfields int // fields per record, from the first record; 0 before it

	// checkUTF8 makes a line that is not valid UTF-8 a *csvError naming
	// that line (encoding/csv passes such bytes through).
	checkUTF8 bool
}

func newCSVScanner(r *bufio.Reader) *csvScanner {
	return &csvScanner{r: r, seps: make([]int, 0, 32)}
}

// numFields is the number of fields of the current record.
func (s *csvScanner) numFields() int { return s.n }

// field returns field i of the current record.
func (s *csvScanner) field(i int) []byte {
	if !s.split {
		s.splitLine()
	}
	return s.buf[s.seps[i]+1 : s.seps[i+1]]
}

// needle is a string holds looks for, with the offset of its last capital
// letter (-1: none), which holds looks for first: 'O' of "CO2 intensity"
// stands under once a line in Ember's file, where 'C' stands about twice.
type needle struct {
	b  []byte
	at int
}

func newNeedle(s string) needle {
	return needle{b: []byte(s), at: strings.LastIndexFunc(s, func(r rune) bool { return 'A' <= r && r <= 'Z' })}
}

// holds reports whether the current record's text holds n (on the general
// path, the unquoted fields joined by ","): a record that does not cannot
// have a field equal to n, and is passed over without being split.
func (s *csvScanner) holds(n needle) bool {
	if n.at < 0 {
		return bytes.Contains(s.buf, n.b)
	}
	for off := 0; ; {
		i := bytes.IndexByte(s.buf[off:], n.b[n.at])
		if i < 0 {
			return false
		}
		if p := off + i - n.at; p >= 0 && bytes.HasPrefix(s.buf[p:], n.b) {
			return true
		}
		off += i + 1
	}
}

// csvError is a malformed record. Line is the line the record starts on.
type csvError struct {
	Line int
	Err  error
}

func (e *csvError) Error() string { return e.Err.Error() }
func (e *csvError) Unwrap() error { return e.Err }

var (
	errBareQuote  = errors.New(`bare " in non-quoted field`)
	errQuote      = errors.New(`extraneous or missing " in quoted field`)
	errFieldCount = errors.New("wrong number of fields")
	errNotUTF8    = errors.New("bytes that are not UTF-8")
)

// readLine is encoding/csv's readLine: one line with its "\n" (none at the
// end of the input), "\r\n" turned into "\n", a "\r" at the very end dropped.
func (s *csvScanner) readLine() ([]byte, error) {
	line, err := s.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		s.raw = append(s.raw[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = s.r.ReadSlice('\n')
			s.raw = append(s.raw, line...)
		}
		line = s.raw
	}
	n := len(line)
	if n > 0 && err == io.EOF {
		err = nil
		if line[n-1] == '\r' {
			line = line[:n-1]
			n--
		}
	}
	s.numLine++
	if n >= 2 && line[n-2] == '\r' && line[n-1] == '\n' {
		line[n-2] = '\n'
		line = line[:n-1]
	}
	// A line ends at a newline, which is never inside a UTF-8 sequence, so
	// the check line by line is exact and names the line itself.
	if s.checkUTF8 && err == nil && !utf8.Valid(line) {
		return line, &csvError{Line: s.numLine, Err: fmt.Errorf("%w (at byte %d of the line)", errNotUTF8, invalidAt(line)+1)}
	}
	return line, err
}

// invalidAt is the offset of the first byte of b that is not UTF-8.
func invalidAt(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// lengthNL is 1 when b ends in "\n", else 0.
func lengthNL(b []byte) int {
	if len(b) > 0 && b[len(b)-1] == '\n' {
		return 1
	}
	return 0
}

// next reads the next record (see numFields and field) and returns the line
// it starts on, or io.EOF. Malformed CSV, and a record with another number
// of fields than the first, is a *csvError.
func (s *csvScanner) next() (int, error) {
	var line []byte
	var errRead error
	for errRead == nil {
		line, errRead = s.readLine()
		if errRead == nil && len(line) == lengthNL(line) {
			continue // skip empty lines
		}
		break
	}
	if errRead == io.EOF {
		return 0, io.EOF
	}
	if ce, ok := errRead.(*csvError); ok {
		return ce.Line, ce
	}
	if errRead != nil {
		return 0, errRead
	}
	start := s.numLine
	var err error
	if bytes.IndexByte(line, '"') < 0 {
		s.buf, s.split = line[:len(line)-lengthNL(line)], false
		s.n = bytes.Count(s.buf, comma) + 1
	} else {
		err = s.general(line, start)
		s.split, s.n = true, len(s.seps)-1
	}
	if err != nil {
		return start, err
	}
	if n := s.numFields(); s.nfields == 0 {
		s.nfields = n
	} else if n != s.nfields {
		return start, &csvError{Line: start, Err: fmt.Errorf("%w: %d, want %d", errFieldCount, n, s.nfields)}
	}
	return start, nil
}

var comma = []byte{','}

// splitLine cuts the current line, which has no quotes, at its commas.
func (s *csvScanner) splitLine() {
	// A byte loop: fields are short, and a call to bytes.IndexByte per
	// field costs more than it saves.
	seps := append(s.seps[:0], -1)
	for i, c := range s.buf {
		if c == ',' {
			seps = append(seps, i)
		}
	}
	s.seps = append(seps, len(s.buf))
	s.split = true
}

// general parses a record whose first line holds a quote. It follows
// encoding/csv's readRecord (Copyright 2011 The Go Authors; BSD-style
// licence, as Go's), less the options the scanner does not have.
func (s *csvScanner) general(line []byte, start int) error {
	s.rec = s.rec[:0]
	s.seps = append(s.seps[:0], -1)
	endField := func() {
		s.seps = append(s.seps, len(s.rec))
		s.rec = append(s.rec, ',')
	}
	var errRead error
parseField:
	for {
		if len(line) == 0 || line[0] != '"' {
			// Non-quoted field.
			i := bytes.IndexByte(line, ',')
			field := line
			if i >= 0 {
				field = field[:i]
			} else {
				field = field[:len(field)-lengthNL(field)]
			}
			if bytes.IndexByte(field, '"') >= 0 {
				return &csvError{Line: start, Err: errBareQuote}
			}
			s.rec = append(s.rec, field...)
			endField()
			if i >= 0 {
				line = line[i+1:]
				continue parseField
			}
			break parseField
		}
		// Quoted field.
		line = line[1:]
		for {
			i := bytes.IndexByte(line, '"')
			switch {
			case i >= 0:
				s.rec = append(s.rec, line[:i]...)
				line = line[i+1:]
				switch {
				case len(line) > 0 && line[0] == '"': // "" is a quote
					s.rec = append(s.rec, '"')
					line = line[1:]
				case len(line) > 0 && line[0] == ',': // end of field
					line = line[1:]
					endField()
					continue parseField
				case lengthNL(line) == len(line): // end of record
					endField()
					break parseField
				default:
					return &csvError{Line: start, Err: errQuote}
				}
			case len(line) > 0:
				// End of line inside the quotes: the field goes on.
				s.rec = append(s.rec, line...)
				if errRead != nil {
					break parseField
				}
				line, errRead = s.readLine()
				if ce, ok := errRead.(*csvError); ok {
					return ce
				}
				if errRead == io.EOF {
					errRead = nil
				}
			default:
				// End of input inside the quotes.
				if errRead == nil {
					return &csvError{Line: start, Err: errQuote}
				}
				endField()
				break parseField
			}
		}
	}
	if errRead != nil {
		return errRead
	}
	s.buf = s.rec
	return nil
}
