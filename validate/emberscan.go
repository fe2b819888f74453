package validate

// The grid check's reader of Ember's CSV. Ember's yearly file is about
// 400,000 records, of which the check keeps some 5,000 (one in seventy is
// an intensity row); encoding/csv turns every one of them into strings,
// which made the check four times slower than the build's own reader. This
// one reads records as encoding/csv does with its defaults (Comma ',', no
// comments, LazyQuotes and TrimLeadingSpace off, every record with as many
// fields as the first) and fails where it fails, with the same
// *csv.ParseError, but splits into fields only the records that can be
// kept: those whose bytes hold a given string, and those that are not
// UTF-8 (for the caller to name the field). The others are only checked
// for their number of fields, their quotes and their encoding. It shares
// no code with transform/grid's reader (the check is an independent
// recomputation); TestEmberScanMatchesEncodingCSV holds it to encoding/csv.

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"io"
	"unicode/utf8"
)

// emberScanner reads CSV records from a stream. The first record (the
// header) is always returned whole; after it, only the records whose text
// contains keep or is not UTF-8 (so that the caller can name the field).
type emberScanner struct {
	r       *bufio.Reader
	keep    []byte
	anchor  int    // the byte of keep searched for first (see holds)
	lines   int    // lines read so far
	nfields int    // fields per record, from the first; 0 before it
	long    []byte // a line longer than the reader's buffer
	unq     []byte // a quoted record's unquoted text
	ends    []int  // the ends of its fields in unq
	// The positions of the fields of the record Next returned last: on
	// one line (at), at the columns cols, or on the general path the
	// fields' own lines and columns (pos).
	at   int
	cols []int
	pos  [][2]int
}

// newEmberScanner reads r through a buffer of size bytes; keep selects the
// records Next returns after the header.
func newEmberScanner(r io.Reader, size int, keep string) *emberScanner {
	s := &emberScanner{r: bufio.NewReaderSize(r, size), keep: []byte(keep)}
	// Capitals are rarer than lower case, digits and spaces in Ember's
	// text ("CO2 intensity": 'O', under one a line, where 'C' is two).
	for i := len(keep) - 1; i >= 0; i-- {
		if keep[i] >= 'A' && keep[i] <= 'Z' {
			s.anchor = i
			break
		}
	}
	return s
}

// holds reports whether b contains keep. It looks for keep's anchor byte
// and compares around it: bytes.Contains would look for keep's first byte,
// which is common.
func (s *emberScanner) holds(b []byte) bool {
	k, a := s.keep, s.anchor
	if len(k) == 0 {
		return true
	}
	for from := a; from < len(b); {
		i := bytes.IndexByte(b[from:], k[a])
		if i < 0 {
			return false
		}
		start := from + i - a
		if start+len(k) <= len(b) && bytes.Equal(b[start:start+len(k)], k) {
			return true
		}
		from += i + 1
	}
	return false
}

// Next returns the next record that is the header, holds keep or is not
// UTF-8, with the
// line it starts on (the header is line 1), or io.EOF at the end. Every
// record passed over on the way was well-formed. A malformed record is a
// *csv.ParseError as encoding/csv gives it; an error of the reader is
// returned as it is. The fields are new strings, the caller's to keep.
func (s *emberScanner) Next() (int, []string, error) {
	for {
		line, err := s.line()
		if err != nil {
			return 0, nil, err
		}
		if len(line) == 1 { // an empty line ("\n" once "\r\n" is folded): skipped
			continue
		}
		start := s.lines
		header := s.nfields == 0
		if bytes.IndexByte(line, '"') >= 0 {
			err := s.quoted(line, start)
			if err == nil {
				err = s.count(len(s.ends), start)
			}
			if err != nil {
				return start, nil, err
			}
			if !header && !s.holds(s.unq) && utf8.Valid(s.unq) {
				continue
			}
			s.cols = nil
			return start, s.fields(), nil
		}
		body := line[:len(line)-1] // without its "\n"
		if err := s.count(bytes.Count(body, comma)+1, start); err != nil {
			return start, nil, err
		}
		if !header && !s.holds(body) && utf8.Valid(body) {
			continue
		}
		fields := splitComma(string(body))
		s.at, s.cols = start, s.cols[:0]
		col := 1
		for _, f := range fields {
			s.cols = append(s.cols, col)
			col += len(f) + 1
		}
		return start, fields, nil
	}
}

// FieldPos returns the line and the 1-based byte column at which field i
// of the record Next returned last starts, as encoding/csv's Reader does.
func (s *emberScanner) FieldPos(i int) (line, column int) {
	if s.cols != nil {
		return s.at, s.cols[i]
	}
	return s.pos[i][0], s.pos[i][1]
}

var comma = []byte{','}

// count checks a record's number of fields against the first record's.
func (s *emberScanner) count(n, start int) error {
	switch {
	case s.nfields == 0:
		s.nfields = n
	case n != s.nfields:
		return &csv.ParseError{StartLine: start, Line: start, Column: 1, Err: csv.ErrFieldCount}
	}
	return nil
}

// line returns the next line, always ending in "\n" ("\r\n" folded into
// "\n", a missing one at the end of the input added, a "\r" just before the
// end dropped), as encoding/csv reads lines; io.EOF when none is left. It
// is valid until the next call.
func (s *emberScanner) line() ([]byte, error) {
	b, err := s.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		s.long = append(s.long[:0], b...)
		for err == bufio.ErrBufferFull {
			b, err = s.r.ReadSlice('\n')
			s.long = append(s.long, b...)
		}
		b = s.long
	}
	switch {
	case err == io.EOF && len(b) == 0:
		return nil, io.EOF
	case err == io.EOF:
		// The last line, without "\n": a "\r" at its end is dropped, and
		// "\n" added to a copy.
		s.lines++
		if b[len(b)-1] == '\r' {
			b = b[:len(b)-1]
		}
		return append(append(make([]byte, 0, len(b)+1), b...), '\n'), nil
	case err != nil:
		return nil, err
	}
	s.lines++
	if n := len(b); n >= 2 && b[n-2] == '\r' {
		b[n-2] = '\n'
		b = b[:n-1]
	}
	return b, nil
}

// splitComma cuts a record without quotes into its fields, substrings of
// rec.
func splitComma(rec string) []string {
	fields := make([]string, 0, 20)
	for {
		i := indexComma(rec)
		if i < 0 {
			return append(fields, rec)
		}
		fields = append(fields, rec[:i])
		rec = rec[i+1:]
	}
}

func indexComma(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == ',' {
			return i
		}
	}
	return -1
}

// quoted reads a record whose first line (line, read at line number start)
// holds a quote, reading more lines while a quoted field runs on. Its
// unquoted text is left in s.unq, the fields separated by "," (for keep),
// and s.ends the end of each.
func (s *emberScanner) quoted(line []byte, start int) error {
	s.unq, s.ends, s.pos = s.unq[:0], s.ends[:0], s.pos[:0]
	at := start // the line being read
	col := 1    // 1-based byte column of line[0] in that line
	fail := func(i int, err error) error {
		return &csv.ParseError{StartLine: start, Line: at, Column: col + i, Err: err}
	}
	end := func() { s.ends = append(s.ends, len(s.unq)); s.unq = append(s.unq, ',') }
	for {
		s.pos = append(s.pos, [2]int{at, col})
		if line[0] != '"' {
			// A field without quotes: up to the next comma or the line's end.
			i := bytes.IndexByte(line, ',')
			last := i < 0
			if last {
				i = len(line) - 1 // the "\n"
			}
			if q := bytes.IndexByte(line[:i], '"'); q >= 0 {
				return fail(q, csv.ErrBareQuote)
			}
			s.unq = append(s.unq, line[:i]...)
			end()
			if last {
				return nil
			}
			line, col = line[i+1:], col+i+1
			continue
		}
		// A quoted field: up to a quote followed by a comma or the line's
		// end; "" is a quote; the field may run over lines.
		line, col = line[1:], col+1
		for {
			q := bytes.IndexByte(line, '"')
			if q < 0 {
				s.unq = append(s.unq, line...)
				next, err := s.line()
				if err == io.EOF {
					// The input ended inside the quotes.
					return &csv.ParseError{StartLine: start, Line: at, Column: col + len(line), Err: csv.ErrQuote}
				}
				if err != nil {
					return err
				}
				line, at, col = next, s.lines, 1
				continue
			}
			s.unq = append(s.unq, line[:q]...)
			switch after := line[q+1]; { // line ends in "\n", so q+1 is in it
			case after == '"':
				s.unq = append(s.unq, '"')
				line, col = line[q+2:], col+q+2
				continue
			case after == ',':
				end()
				line, col = line[q+2:], col+q+2
			case after == '\n':
				end()
				return nil
			default:
				return fail(q+1, csv.ErrQuote)
			}
			break
		}
	}
}

// fields returns the fields of s.unq as strings (one allocation).
func (s *emberScanner) fields() []string {
	all := string(s.unq)
	out := make([]string, len(s.ends))
	from := 0
	for i, e := range s.ends {
		out[i] = all[from:e]
		from = e + 1
	}
	return out
}
