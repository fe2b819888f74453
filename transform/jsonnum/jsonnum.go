// Package jsonnum prints numbers the way the published Green Tokens files do:
// a float in its shortest round-trip form, with ".0" when it is integral
// (8.0, 32.0), and a figure rounded once, from the unrounded upstream value,
// half to even on its exact binary value (what strconv.FormatFloat does).
package jsonnum

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
)

// Float is a float64 that marshals in shortest round-trip decimal form,
// never in exponent notation, and with ".0" when the value is integral.
type Float float64

// MarshalJSON implements json.Marshaler. A NaN or an infinity is an error:
// JSON has no spelling for them and a published figure may never be one.
func (f Float) MarshalJSON() ([]byte, error) {
	return Append(nil, float64(f))
}

// Format returns x as the published files print a float.
func Format(x float64) (string, error) {
	b, err := Append(nil, x)
	return string(b), err
}

// Append appends x to dst as the published files print a float (Format's
// text), for an encoder that writes a file without a string per number. On
// an error (a NaN or an infinity) it returns dst unchanged.
func Append(dst []byte, x float64) ([]byte, error) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return dst, fmt.Errorf("jsonnum: %v has no JSON form", x)
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, x, 'f', -1, 64)
	if bytes.IndexByte(dst[start:], '.') < 0 {
		dst = append(dst, ".0"...)
	}
	return dst, nil
}

// Round rounds x to d decimals, once, half to even on the exact binary value
// of x, and returns the nearest float64 to that decimal.
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
