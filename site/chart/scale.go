package chart

import (
	"math"
	"strconv"
	"strings"

	"github.com/leadgreen/greentokens/render"
)

// scale maps a value of [lo, hi] onto the pixels [a, b], linearly or on a
// logarithmic axis.
type scale struct {
	lo, hi float64
	a, b   float64
	log    bool
	ticks  []float64
}

// at returns the pixel of v.
func (s scale) at(v float64) float64 {
	if s.log {
		return s.a + (math.Log10(v)-math.Log10(s.lo))/(math.Log10(s.hi)-math.Log10(s.lo))*(s.b-s.a)
	}
	return s.a + (v-s.lo)/(s.hi-s.lo)*(s.b-s.a)
}

// newScale fits an axis to the values min..max: on a logarithmic axis from
// the 1-2-5 value at or below min to the one at or above max, on a linear
// axis from 0 (or min, when below 0) to a multiple of a 1-2-5 step.
func newScale(min, max, a, b float64, log bool) scale {
	s := scale{a: a, b: b, log: log}
	if log {
		s.lo, s.hi, s.ticks = logTicks(min, max)
	} else {
		s.lo, s.hi, s.ticks = linTicks(min, max)
	}
	return s
}

// oneTwoFive lists the values m × 10^e (m = 1, 2, 5) from below lo to above hi.
func oneTwoFive(lo, hi float64) []float64 {
	var out []float64
	for e := int(math.Floor(math.Log10(lo))) - 1; e <= int(math.Ceil(math.Log10(hi)))+1; e++ {
		for _, m := range []float64{1, 2, 5} {
			out = append(out, m*math.Pow10(e))
		}
	}
	return out
}

// logTicks returns a logarithmic axis's ends and ticks for positive values
// min..max: the 1-2-5 values from the one at or below min to the one at or
// above max; only the powers of ten among them when that gives more than
// seven ticks.
func logTicks(min, max float64) (lo, hi float64, ticks []float64) {
	if !(min > 0) || !(max >= min) {
		return 1, 10, []float64{1, 10}
	}
	const eps = 1e-9
	vals := oneTwoFive(min, max)
	lo, hi = vals[0], vals[len(vals)-1]
	for _, v := range vals {
		if v <= min*(1+eps) {
			lo = v
		}
	}
	for i := len(vals) - 1; i >= 0; i-- {
		if vals[i] >= max*(1-eps) {
			hi = vals[i]
		}
	}
	if lo == hi {
		for i, v := range vals {
			if v == lo {
				lo, hi = vals[i-1], vals[i+1]
			}
		}
	}
	for _, v := range vals {
		if v >= lo && v <= hi {
			ticks = append(ticks, v)
		}
	}
	if len(ticks) > 7 {
		var tens []float64
		for _, v := range ticks {
			if isPowerOfTen(v) {
				tens = append(tens, v)
			}
		}
		ticks = tens
	}
	return lo, hi, ticks
}

func isPowerOfTen(v float64) bool {
	e := math.Round(math.Log10(v))
	return math.Abs(v-math.Pow10(int(e))) <= 1e-9*v
}

// linTicks returns a linear axis's ends and ticks for min..max: from 0 (or
// min, when negative) in steps of a 1-2-5 value, about five of them.
func linTicks(min, max float64) (lo, hi float64, ticks []float64) {
	lo = math.Min(0, min)
	if !(max > lo) {
		max = lo + 1
	}
	raw := (max - lo) / 5
	p := math.Pow10(int(math.Floor(math.Log10(raw))))
	step := 10 * p
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			step = m * p
			break
		}
	}
	first, last := math.Floor(lo/step), math.Ceil(max/step)
	lo, hi = first*step, last*step
	for k := first; k <= last; k++ {
		ticks = append(ticks, k*step)
	}
	return lo, hi, ticks
}

// tickLabel prints a tick: whole numbers with thousands separators, others
// with the decimals they need.
func tickLabel(v float64) string {
	if math.Abs(v-math.Round(v)) < 1e-9 {
		return render.Group(strconv.FormatFloat(math.Round(v), 'f', 0, 64))
	}
	i, f, _ := strings.Cut(strconv.FormatFloat(v, 'f', decimals(v), 64), ".")
	return render.Group(i) + "." + f
}

// decimals is how many decimals a tick value below 1, or between whole
// numbers, needs (at most 6).
func decimals(v float64) int {
	for d := 1; d < 6; d++ {
		p := math.Pow10(d)
		if math.Abs(v*p-math.Round(v*p)) < 1e-6 {
			return d
		}
	}
	return 6
}

// px prints a pixel coordinate to 1 decimal.
func px(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
