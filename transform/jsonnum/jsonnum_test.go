package jsonnum

import (
	"encoding/json"
	"math"
	"testing"
)

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{
		{8, "8.0"},
		{32, "32.0"},
		{429.18, "429.18"},
		{0.232693, "0.232693"},
		{1e21, "1000000000000000000000.0"},
		{1e-7, "0.0000001"},
		{-3.5, "-3.5"},
	} {
		got, err := Format(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("Format(%v) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, err := Format(bad); err == nil {
			t.Errorf("Format(%v) succeeded; want an error", bad)
		}
	}
}

func TestRoundHalfEvenOnBinaryValue(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		d    int
		want string
	}{
		// 0.125 is exact in binary: a true tie, so half to even.
		{0.125, 2, "0.12"},
		{0.375, 2, "0.38"},
		// 2.675 is 2.67499999... in binary: it rounds down, not up.
		{2.675, 2, "2.67"},
		// 1.005 is 1.00499999... in binary.
		{1.005, 2, "1.0"},
		{2.5, 0, "2.0"},
		{3.5, 0, "4.0"},
		{1.5450541142659606, 7, "1.5450541"},
		{429.1817, 2, "429.18"},
	} {
		b, err := json.Marshal(Round(tc.in, tc.d))
		if err != nil || string(b) != tc.want {
			t.Errorf("Round(%v, %d) = %s, %v; want %s", tc.in, tc.d, b, err, tc.want)
		}
	}
	for _, tc := range []struct {
		in   float64
		want int64
	}{{859.6469411324731, 860}, {2.5, 2}, {3.5, 4}, {645.7470703125, 646}} {
		if got := RoundInt(tc.in); got != tc.want {
			t.Errorf("RoundInt(%v) = %d; want %d", tc.in, got, tc.want)
		}
	}
}
