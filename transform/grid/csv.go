package grid

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// csvScanner reads RFC 4180 records with encoding/csv (its defaults, and
// ReuseRecord), adding what the grid stage reports: a record with another
// number of fields than the first is an error giving both counts, and a
// field that is not valid UTF-8 is an error naming its line and byte
// (encoding/csv passes such bytes through). Fields are valid until the
// next call to next.
type csvScanner struct {
	r       *csv.Reader
	rec     []string
	nfields int // fields per record, from the first record; 0 before it
}

func newCSVScanner(r io.Reader) *csvScanner {
	c := csv.NewReader(r)
	c.ReuseRecord = true
	c.FieldsPerRecord = -1 // checked in next, with both counts in the error
	return &csvScanner{r: c}
}

// numFields is the number of fields of the current record.
func (s *csvScanner) numFields() int { return len(s.rec) }

// field returns field i of the current record.
func (s *csvScanner) field(i int) string { return s.rec[i] }

// csvError is a malformed record. Line is the line the record starts on
// (or, for bytes that are not UTF-8, the line they stand on).
type csvError struct {
	Line int
	Err  error
}

func (e *csvError) Error() string { return e.Err.Error() }
func (e *csvError) Unwrap() error { return e.Err }

// MaxLineBytes bounds a line of Ember's CSV as encoding/csv reads a
// record: the bytes up to the line end that ends it, the line ends inside
// a quoted field counted with the rest. encoding/csv holds a record's
// lines whole, so that a file without line ends would be held whole.
// Ember's lines are under 400 bytes in either layout; the bound leaves a
// wide margin, and keeps the stage's memory flat in the file's size
// whatever its bytes.
const MaxLineBytes = 64 << 10

// lineBound passes r's bytes on, and fails once a record's line is longer
// than MaxLineBytes, before encoding/csv has read it: a *csvError naming
// the line the record starts on (the header is line 1). A line end ends
// the record when the quotes before it since the record's start are even
// (RFC 4180 doubles a quote inside a quoted field); in a file that quotes
// otherwise encoding/csv fails first.
type lineBound struct {
	r      io.Reader
	line   int  // the line being read, from 1
	start  int  // the line the record being read starts on
	run    int  // the record's bytes read so far
	quoted bool // inside a quoted field: an odd number of quotes so far
	err    error
}

// newLineBound is a lineBound over r, at line 1.
func newLineBound(r io.Reader) *lineBound { return &lineBound{r: r, line: 1, start: 1} }

func (b *lineBound) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.r.Read(p)
	for q := p[:n]; len(q) > 0; {
		i := bytes.IndexByte(q, '\n')
		seg := q
		if i >= 0 {
			seg = q[:i]
		}
		b.quoted = b.quoted != (bytes.Count(seg, quote)%2 == 1)
		if b.run += len(seg); b.run > MaxLineBytes {
			// The lines before it are passed on, for encoding/csv to read
			// (and report first what is wrong with them).
			b.err = &csvError{Line: b.start, Err: fmt.Errorf("%w: over %d bytes before the line end that ends its record (grid.MaxLineBytes)", errLineTooLong, MaxLineBytes)}
			return n - len(q), b.err
		}
		if i < 0 {
			break
		}
		b.line++
		if b.quoted {
			b.run++ // a line end inside a quoted field is the record's
		} else {
			b.start, b.run = b.line, 0
		}
		q = q[i+1:]
	}
	return n, err
}

var quote = []byte{'"'}

var (
	errLineTooLong = errors.New("a line too long")
	errBareQuote   = errors.New(`bare " in non-quoted field`)
	errQuote       = errors.New(`extraneous or missing " in quoted field`)
	errFieldCount  = errors.New("wrong number of fields")
	errNotUTF8     = errors.New("bytes that are not UTF-8")
)

// invalidAt is the offset of the first byte of s that is not UTF-8.
func invalidAt(s string) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				return i
			}
		}
	}
	return len(s)
}

// next reads the next record (see numFields and field) and returns the line
// it starts on, or io.EOF. Malformed CSV, a field that is not UTF-8, and a
// record with another number of fields than the first, is a *csvError.
func (s *csvScanner) next() (int, error) {
	rec, err := s.r.Read()
	if err == io.EOF {
		return 0, io.EOF
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		e := pe.Err
		switch e {
		case csv.ErrBareQuote:
			e = errBareQuote
		case csv.ErrQuote:
			e = errQuote
		}
		return pe.StartLine, &csvError{Line: pe.StartLine, Err: e}
	}
	if err != nil {
		return 0, err
	}
	s.rec = rec
	start, _ := s.r.FieldPos(0)
	for i, f := range rec {
		if !utf8.ValidString(f) {
			line, at := s.notUTF8At(i, f)
			return line, &csvError{Line: line, Err: fmt.Errorf("%w (at byte %d of the line)", errNotUTF8, at)}
		}
	}
	if n := len(rec); s.nfields == 0 {
		s.nfields = n
	} else if n != s.nfields {
		return start, &csvError{Line: start, Err: fmt.Errorf("%w: %d, want %d", errFieldCount, n, s.nfields)}
	}
	return start, nil
}

// notUTF8At is the line, and the byte of that line (from 1), of field i's
// first byte that is not UTF-8 (f, the field, spans lines when quoted).
func (s *csvScanner) notUTF8At(i int, f string) (line, at int) {
	line, col := s.r.FieldPos(i)
	k := invalidAt(f)
	if nl := strings.LastIndexByte(f[:k], '\n'); nl >= 0 {
		return line + strings.Count(f[:k], "\n"), k - nl
	}
	return line, col + k
}
