package grid

import (
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

var (
	errBareQuote  = errors.New(`bare " in non-quoted field`)
	errQuote      = errors.New(`extraneous or missing " in quoted field`)
	errFieldCount = errors.New("wrong number of fields")
	errNotUTF8    = errors.New("bytes that are not UTF-8")
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
