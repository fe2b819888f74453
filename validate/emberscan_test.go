package validate

import (
	"encoding/csv"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// scanned is what a reader made of a CSV: the kept records with their
// start lines, then the error that ended it (nil at a clean end).
type scanned struct {
	Lines   []int
	Records [][]string
	Pos     [][][2]int // each field's line and column
	Err     string
	ErrLine int
}

// end records the error that ended a read.
func (out scanned) end(err error) scanned {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		out.Err, out.ErrLine = pe.Err.Error(), pe.StartLine
	} else {
		out.Err = err.Error()
	}
	return out
}

// fieldPos is the FieldPos method of both readers.
type fieldPos interface{ FieldPos(int) (int, int) }

func positions(r fieldPos, n int) [][2]int {
	var out [][2]int
	for i := range n {
		l, c := r.FieldPos(i)
		out = append(out, [2]int{l, c})
	}
	return out
}

// scanWithCSV reads input with encoding/csv and keeps the header, the
// records whose fields, joined by ",", contain keep, and those that are not
// UTF-8: what emberScanner must return, with every field's position.
func scanWithCSV(input, keep string) scanned {
	var out scanned
	cr := csv.NewReader(strings.NewReader(input))
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return out
		}
		if err != nil {
			return out.end(err)
		}
		line, _ := cr.FieldPos(0)
		if all := strings.Join(rec, ","); len(out.Records) == 0 || strings.Contains(all, keep) || !utf8.ValidString(all) {
			out.Lines = append(out.Lines, line)
			out.Records = append(out.Records, rec)
			out.Pos = append(out.Pos, positions(cr, len(rec)))
		}
	}
}

func scanWithEmber(input, keep string, size int) scanned {
	var out scanned
	sc := newEmberScanner(strings.NewReader(input), size, keep)
	for {
		line, rec, err := sc.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			return out.end(err)
		}
		out.Lines = append(out.Lines, line)
		out.Records = append(out.Records, rec)
		out.Pos = append(out.Pos, positions(sc, len(rec)))
	}
}

// TestEmberScanMatchesEncodingCSV: on well-formed and malformed input, the
// grid check's reader keeps the records encoding/csv reads (those holding
// the kept string), on the same lines, and fails where encoding/csv fails,
// with its error and start line. Each input is read through a small buffer
// too, so lines run over it.
func TestEmberScanMatchesEncodingCSV(t *testing.T) {
	const k = "CO2 intensity"
	for _, tc := range []struct{ name, input string }{
		{"plain", "a,b,c\n1,CO2 intensity,3\n4,5,6\n7,CO2 intensity,9\n"},
		{"no final newline", "a,b,c\n1,CO2 intensity,3"},
		{"CRLF", "a,b,c\r\n1,CO2 intensity,3\r\n4,5,6\r\n"},
		{"final CR", "a,b,c\n1,CO2 intensity,3\r"},
		{"CR inside a field", "a,b,c\n1,CO2 intensity\r,3\n"},
		{"empty lines", "\n\na,b,c\n\n1,CO2 intensity,3\n\r\n\n7,CO2 intensity,9\n\n"},
		{"quoted header", "\"a\",\"b,c\",d\n1,CO2 intensity,3\n"},
		{"quoted fields", "a,b,c\n\"x, y\",CO2 intensity,\"q\"\"uote\"\n\"x\",\"other\",3\n1,\"CO2 intensity\",\"\"\n"},
		{"quoted multi-line field", "a,b,c\n\"line 1\nline 2\",CO2 intensity,3\n\"x\r\ny\",5,6\n7,CO2 intensity,9\n"},
		{"quote at end of input", "a,b,c\n1,CO2 intensity,\"3\""},
		{"kept string across a quote", "a,b,c\n1,\"CO2 \"\"intensity\",3\n"},
		{"BOM", "\ufeffArea,b,c\n1,CO2 intensity,3\n"},
		{"too few fields", "a,b,c\n1,CO2 intensity,3\n4,5\n7,CO2 intensity,9\n"},
		{"too many fields, quoted", "a,b,c\n1,CO2 intensity,3\n\"4\",5,6,7\n"},
		{"too many fields, kept row", "a,b,c\n1,CO2 intensity,3,4\n"},
		{"bare quote", "a,b,c\n1,CO2 intensity,3\n4,5\"x,6\n"},
		{"bare quote after a quoted field", "a,b,c\n\"1\",5\"x,6\n"},
		{"text after a closing quote", "a,b,c\n1,\"5\"x,6\n"},
		{"unterminated quote", "a,b,c\n1,CO2 intensity,3\n4,\"5,6\n7,8,9\n"},
		{"not UTF-8, passed over otherwise", "a,b,c\n1,CO2 intensity,3\n4,\xff5,6\n\"x\",\"\xfe\",9\n"},
		{"empty input", ""},
		{"only empty lines", "\n\r\n\n"},
		{"long lines", "a,b,c\n" + strings.Repeat("x", 70) + ",CO2 intensity," + strings.Repeat("y", 90) + "\n\"" + strings.Repeat("z", 100) + "\",2,3\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := scanWithCSV(tc.input, k)
			for _, size := range []int{16, 1 << 20} { // bufio's minimum, and the check's
				if diff := cmp.Diff(want, scanWithEmber(tc.input, k, size)); diff != "" {
					t.Errorf("buffer %d: emberScanner differs from encoding/csv (-csv +ember):\n%s", size, diff)
				}
			}
		})
	}
}

// TestEmberScanSharedFile: on the shared Ember file, both readers keep the
// same records.
func TestEmberScanSharedFile(t *testing.T) {
	t.Parallel() // independent of the other tests, and long: the package ends make test
	b, err := os.ReadFile(gridTestCSV)
	if err != nil {
		t.Fatal(err)
	}
	want := scanWithCSV(string(b), gridVariable)
	if len(want.Records) < 1000 || want.Err != "" {
		t.Fatalf("encoding/csv kept %d records (%s): not the shared file", len(want.Records), want.Err)
	}
	if diff := cmp.Diff(want, scanWithEmber(string(b), gridVariable, 1<<20)); diff != "" {
		t.Errorf("emberScanner differs from encoding/csv (-csv +ember):\n%s", diff)
	}
}

// TestEmberScanHolds: the anchored search finds the kept string wherever
// it stands, and only there.
func TestEmberScanHolds(t *testing.T) {
	for _, tc := range []struct {
		keep, text string
		want       bool
	}{
		{"CO2 intensity", "CO2 intensity", true},
		{"CO2 intensity", "a,CO2 intensity,b", true},
		{"CO2 intensity", "Other,OCO2 intensity", true},
		{"CO2 intensity", "O2 intensity,CO2 intensit", false},
		{"CO2 intensity", "CO2 intensityX", true},
		{"CO2 intensity", "", false},
		{"CO2 intensity", "O", false},
		{"abc", "xxabcxx", true},
		{"abc", "xxabxcx", false},
		{"", "anything", true},
	} {
		s := newEmberScanner(strings.NewReader(""), 16, tc.keep)
		if got := s.holds([]byte(tc.text)); got != tc.want || got != strings.Contains(tc.text, tc.keep) {
			t.Errorf("holds(%q) with keep %q = %v, want %v", tc.text, tc.keep, got, tc.want)
		}
	}
}
