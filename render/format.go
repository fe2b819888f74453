package render

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/leadgreen/greentokens/format"
)

// The page's number formats. Each rounds once, from the value it is given.

// whole prints x rounded to a whole number (half to even on its binary
// value), with thousands separators: 6,912.
func whole(x float64) string { return group(strconv.FormatInt(format.RoundInt(x), 10)) }

// dec1 prints x rounded to 1 decimal, with thousands separators: 429.2.
func dec1(x float64) string {
	s := strconv.FormatFloat(float64(format.Round(x, 1)), 'f', 1, 64)
	i, f, _ := strings.Cut(s, ".")
	return group(i) + "." + f
}

// sig3 prints a ratio that index.json holds at 3 significant figures with
// all three shown (1.80, 11.0, 0.695, 128) and thousands separators.
func sig3(x format.Float) string {
	v := float64(x)
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	d := 2 - int(math.Floor(math.Log10(math.Abs(v))))
	if d <= 0 {
		return whole(v)
	}
	return strconv.FormatFloat(v, 'f', d, 64)
}

// times prints a ratio with the multiplication sign: 1.63×.
func times(x format.Float) string { return sig3(x) + "×" }

// group puts thousands separators into a decimal integer string.
func group(s string) string {
	digits := strings.TrimPrefix(s, "-")
	if len(digits) <= 3 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(digits)/3)
	b.WriteString(s[:len(s)-len(digits)])
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// short prints a published float without a trailing ".0": 32, 1.6.
func short(x format.Float) string { return strconv.FormatFloat(float64(x), 'f', -1, 64) }

// longDate prints a YYYY-MM-DD date as 16 February 2026; another string is
// printed as it is.
func longDate(s string) string {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return s
	}
	return t.Format("2 January 2006")
}

// list joins names the English way: "a", "a and b", "a, b and c".
func list(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// plural picks the word for n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
