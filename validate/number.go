package validate

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// The published number forms, re-implemented here from their rule rather
// than shared with transform/:
//
//   - a figure is rounded once, from the unrounded upstream float64, to d
//     decimals, half to even on the exact binary value of that float64
//     (math/big converts the exact value to decimal and rounds it so);
//   - the rounded decimal's nearest float64 is printed in shortest
//     round-trip form, with ".0" when it is integral (8.0, 32.0);
//   - a whole-number figure is printed as an integer (860).

// roundedText returns x rounded to d decimals, in published form.
func roundedText(x float64, d int) string {
	k := roundedKey{math.Float64bits(x), d}
	if s, ok := roundedTexts.m.Load(k); ok {
		return s.(string)
	}
	s := roundText(x, d)
	if roundedTexts.n.Load() < maxRoundedTexts {
		if _, had := roundedTexts.m.LoadOrStore(k, s); !had {
			roundedTexts.n.Add(1)
		}
	}
	return s
}

// roundedTexts remembers roundedText's answers: the leaderboard and index
// checks round the same upstream values to the same decimals (each figure
// twice at least, and a configuration's again where it is a best row or a
// load curve's point), and math/big's exact decimal is the costlier part.
// At 10,000 models, 270,000 calls asked for 2,873 values. It keeps
// maxRoundedTexts of them at most.
var roundedTexts struct {
	m sync.Map // roundedKey -> string
	n atomic.Int64
}

const maxRoundedTexts = 1 << 16

type roundedKey struct {
	bits uint64
	d    int
}

// roundText is roundedText, computed.
func roundText(x float64, d int) string {
	dec := new(big.Float).SetFloat64(x).Text('f', d)
	v, err := strconv.ParseFloat(dec, 64)
	if err != nil {
		return dec
	}
	return floatText(v)
}

// roundedInt returns x rounded to a whole number, half to even on its exact
// binary value, as an integer literal.
func roundedInt(x float64) string {
	s := new(big.Float).SetFloat64(x).Text('f', 0)
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
