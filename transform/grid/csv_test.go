package grid

import (
	"bufio"
	"encoding/csv"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// scanResult is what a CSV reader made of an input: the records up to the
// first error, the line each starts on, and the error's kind and line.
type scanResult struct {
	Records [][]string
	Lines   []int
	Err     string // "", "bare", "quote", "count"
	ErrLine int
}

func scanStd(in string) scanResult {
	var res scanResult
	r := csv.NewReader(strings.NewReader(in))
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return res
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			res.ErrLine = pe.StartLine
			switch {
			case errors.Is(err, csv.ErrBareQuote):
				res.Err = "bare"
			case errors.Is(err, csv.ErrQuote):
				res.Err = "quote"
			case errors.Is(err, csv.ErrFieldCount):
				res.Err = "count"
			default:
				res.Err = err.Error()
			}
			return res
		}
		if err != nil {
			res.Err = err.Error()
			return res
		}
		line, _ := r.FieldPos(0)
		res.Records = append(res.Records, rec)
		res.Lines = append(res.Lines, line)
	}
}

func scanOurs(in string, bufSize int) scanResult {
	var res scanResult
	s := newCSVScanner(bufio.NewReaderSize(strings.NewReader(in), bufSize))
	for {
		line, err := s.next()
		if err == io.EOF {
			return res
		}
		var ce *csvError
		if errors.As(err, &ce) {
			res.ErrLine = ce.Line
			switch {
			case errors.Is(err, errBareQuote):
				res.Err = "bare"
			case errors.Is(err, errQuote):
				res.Err = "quote"
			case errors.Is(err, errFieldCount):
				res.Err = "count"
			}
			return res
		}
		if err != nil {
			res.Err = err.Error()
			return res
		}
		fields := make([]string, s.numFields())
		for i := range fields {
			fields[i] = string(s.field(i))
		}
		res.Records = append(res.Records, fields)
		res.Lines = append(res.Lines, line)
	}
}

func checkScanner(t *testing.T, in string) {
	t.Helper()
	want := scanStd(in)
	// 16 bytes, bufio's least, sends long lines down the ErrBufferFull path.
	for _, size := range []int{16, 4096} {
		if diff := cmp.Diff(want, scanOurs(in, size)); diff != "" {
			t.Fatalf("input %q, buffer %d: scanner differs from encoding/csv (-want +got):\n%s", in, size, diff)
		}
	}
}

var scannerSeeds = []string{
	"", "\n", "\r\n", "a", "a\n", "a,b\nc,d\n", "a,b\r\nc,d", "a,b\nc,d\r",
	"\ufeffa,b\n1,2\n", "a,b\n\n\nc,d\n", "a,b\r\n\r\nc,d\r\n", "a\r\r\nb\r\r\n",
	`"a,b",c` + "\n", `"a""b",c` + "\n", "\"a\nb\",c\n1,2\n", "\"a\r\nb\",c\r\n1,2\r\n",
	`a"b,c` + "\n", `"a"b,c` + "\n", `"abc`, "\"abc\n", `"a",` + "\n", `,` + "\n", `""` + "\n",
	"a,b\nc\n", "a,b\nc,d,e\n", `"a","b"`, "\"a\"\r", "x,\"y\nz\"\n\"p\",q\n",
	strings.Repeat("long field ", 10) + ",b\n" + strings.Repeat("x", 40) + ",\"" + strings.Repeat("y\n", 20) + "\"\n",
}

// TestScannerMatchesEncodingCSV checks csvScanner against encoding/csv on
// hand-picked inputs and on random ones built from the bytes that matter.
func TestScannerMatchesEncodingCSV(t *testing.T) {
	for _, in := range scannerSeeds {
		checkScanner(t, in)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", ",", `"`, "\n", "\r", " ", "\r\n", `""`, "\ufeff"}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		checkScanner(t, b.String())
	}
}

func FuzzScanner(f *testing.F) {
	for _, in := range scannerSeeds {
		f.Add(in)
	}
	// encoding/csv passes bytes that are not UTF-8 through, where the
	// scanner refuses them (TestMalformed and TestScannerNotUTF8 check that):
	// the comparison is on valid text.
	f.Fuzz(func(t *testing.T, in string) { checkScanner(t, strings.ToValidUTF8(in, "\uFFFD")) })
}

// TestScannerNotUTF8: a field that is not UTF-8 is a *csvError naming the
// line its first such byte stands on and that byte's place on the line, in
// a quoted field over two lines too; the records before it are read.
func TestScannerNotUTF8(t *testing.T) {
	for _, tc := range []struct {
		in      string
		records int
		line    int
		err     string
	}{
		{"\xc3,b\n1,2\n", 0, 1, "bytes that are not UTF-8 (at byte 1 of the line)"},
		{"a,b\nc,d\xff\n", 1, 2, "bytes that are not UTF-8 (at byte 4 of the line)"},
		{"a,b\n\"x\ny\xe9\",z\n", 1, 3, "bytes that are not UTF-8 (at byte 2 of the line)"},
	} {
		s := newCSVScanner(strings.NewReader(tc.in))
		records := 0
		var err error
		for ; err == nil; records++ {
			_, err = s.next()
		}
		var ce *csvError
		if !errors.As(err, &ce) || !errors.Is(err, errNotUTF8) || ce.Line != tc.line || err.Error() != tc.err || records-1 != tc.records {
			t.Errorf("%q: error %v (line %d) after %d records; want %q on line %d after %d", tc.in, err, lineOf(ce), records-1, tc.err, tc.line, tc.records)
		}
	}
}

func lineOf(ce *csvError) int {
	if ce == nil {
		return 0
	}
	return ce.Line
}
