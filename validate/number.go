package validate

import (
	"math"
	"strconv"
	"strings"
)

// The published number forms, re-implemented here from their rule rather
// than shared with transform/:
//
//   - a figure is rounded once, from the unrounded upstream float64, to d
//     decimals (or 3 significant figures), half to even on the exact
//     binary value of that float64 (strconv.FormatFloat rounds so);
//   - the rounded decimal's nearest float64 is printed in shortest
//     round-trip form, with ".0" when it is integral (8.0, 32.0);
//   - a whole-number figure is printed as an integer (860).

// roundedText returns x rounded to d decimals, in published form.
func roundedText(x float64, d int) string {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', d, 64), 64)
	return floatText(v)
}

// sig3Text returns x rounded to 3 significant figures, in published form.
func sig3Text(x float64) string {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'e', 2, 64), 64)
	return floatText(v)
}

// roundedInt returns x rounded to a whole number, as an integer literal.
func roundedInt(x float64) string {
	s := strconv.FormatFloat(x, 'f', 0, 64)
	if s == "-0" {
		return "0"
	}
	return s
}

// floatText prints a float64 as the published files do.
func floatText(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// finite reports whether x is neither NaN nor infinite.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// rawText prints an upstream value in full, for messages.
func rawText(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
