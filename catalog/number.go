package catalog

import (
	"regexp"
	"strconv"
	"strings"
)

// MaxNumberBytes is the longest number a price request may give as text
// (a batch, an intensity, a PUE or a GPU count), spaces around it not counted: on
// the API, the command line's flags and the MCP server's arguments alike.
const MaxNumberBytes = 32

// decimal is the syntax of a number a price request gives as text: digits
// with an optional sign, fraction and exponent ("0x10", "1_000", "Inf" and
// "NaN" are not numbers here, whatever strconv.ParseFloat accepts).
var decimal = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)

// NumberError is text given for a number of a price request that is not
// one.
type NumberError struct {
	// Text is the text as given.
	Text string
	// Reason says why it is refused, as the end of a sentence whose
	// subject is the text: "is not a decimal number".
	Reason string
}

func (e *NumberError) Error() string { return strconv.Quote(e.Text) + " " + e.Reason }

// ParseNumber reads a batch, an intensity or a PUE given as text, as every
// surface that takes one as text does (the API's query, the command
// line's flags): a decimal number (1000, 0.5, 2e3), spaces around it
// ignored, at most MaxNumberBytes long; a negative zero is zero. Its
// range is Price's to check. The error is a *NumberError.
func ParseNumber(s string) (float64, error) {
	v := strings.TrimSpace(s)
	switch {
	case len(v) > MaxNumberBytes:
		return 0, &NumberError{s, "is over " + strconv.Itoa(MaxNumberBytes) + " characters"}
	case !decimal.MatchString(v):
		return 0, &NumberError{s, "is not a decimal number"}
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, &NumberError{s, "is out of range"}
	}
	if f == 0 {
		f = 0 // -0 is 0
	}
	return f, nil
}

// ParseGPUCount reads a GPU count given as text: a whole number in
// decimal (2, 02 and +2 are 2; 0x2 and 2.0 are not counts), spaces around
// it ignored, at most MaxNumberBytes long. Its range is Price's to check.
// The error is a *NumberError.
func ParseGPUCount(s string) (int, error) {
	v := strings.TrimSpace(s)
	if len(v) > MaxNumberBytes {
		return 0, &NumberError{s, "is over " + strconv.Itoa(MaxNumberBytes) + " characters"}
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, &NumberError{s, "is not a whole number"}
	}
	return n, nil
}
