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
	f.Fuzz(func(t *testing.T, in string) { checkScanner(t, in) })
}
