package format

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
)

// Float is a float64 as the published files print it: the shortest decimal
// that reads back as the same float64, never in exponent notation, with
// ".0" when the value is integral (8.0, 32.0).
type Float float64

// MarshalJSON implements json.Marshaler. A NaN or an infinity is an error:
// JSON has no spelling for them and a published figure may never be one.
func (f Float) MarshalJSON() ([]byte, error) {
	return appendFloat(nil, float64(f))
}

// FormatFloat returns x as the published files print a float.
func FormatFloat(x float64) (string, error) {
	b, err := appendFloat(nil, x)
	return string(b), err
}

// appendFloat appends x to dst as the published files print a float
// (FormatFloat's text). On an error (a NaN or an infinity) it returns dst
// unchanged.
func appendFloat(dst []byte, x float64) ([]byte, error) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return dst, fmt.Errorf("format: %v has no JSON form", x)
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, x, 'f', -1, 64)
	if bytes.IndexByte(dst[start:], '.') < 0 {
		dst = append(dst, ".0"...)
	}
	return dst, nil
}

// Round rounds x to d decimals, once, half to even on the exact binary value
// of x (what strconv.FormatFloat does), and returns the nearest float64 to
// that decimal. Every published figure is rounded so, once, from its
// unrounded upstream value.
func Round(x float64, d int) Float {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', d, 64), 64)
	return Float(v)
}

// RoundInt rounds x to a whole number the same way (half to even on the
// exact binary value). Callers check that x is finite and in range.
func RoundInt(x float64) int64 {
	v, _ := strconv.ParseInt(strconv.FormatFloat(x, 'f', 0, 64), 10, 64)
	return v
}

// Sig3 rounds x once to 3 significant figures, half to even on its exact
// binary value, and returns the nearest float64 to that decimal: the
// precision of index.json's ratios.
func Sig3(x float64) Float {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'e', 2, 64), 64)
	return Float(v)
}
