package format

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
		got, err := FormatFloat(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("FormatFloat(%v) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, err := FormatFloat(bad); err == nil {
			t.Errorf("FormatFloat(%v) succeeded; want an error", bad)
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
func TestSig3(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{
		{1.6252815, "1.63"}, {24.58, "24.6"}, {10.99, "11.0"}, {12.42, "12.4"}, {0.69549, "0.695"},
		{1.625, "1.62"},    // an exact binary tie: half to even
		{1.635, "1.64"},    // 1.635 is 1.63500000000000000888 in binary: up
		{2.675, "2.67"},    // 2.67499999999999982236431605997495353221893310546875: down
		{1234.5, "1230.0"}, // 3 significant figures of a large ratio
		{0.000123456, "0.000123"},
	} {
		b, err := json.Marshal(Sig3(tc.in))
		if err != nil || string(b) != tc.want {
			t.Errorf("Sig3(%v) = %s, %v; want %s", tc.in, b, err, tc.want)
		}
	}
}
