package pricing

import (
	"testing"

	"github.com/leadgreen/greentokens/format"
)

func TestKgPerBillionTokens(t *testing.T) {
	for _, tc := range []struct {
		wh, g float64
		want  string
	}{
		{39.05, 707, "27.6"},
		{1, 250, "0.2"}, // 0.25 is exact in binary: half to even
		{1, 350, "0.3"}, // 0.35 is 0.34999999999999997779...
		{1, 450, "0.5"}, // 0.45 is 0.45000000000000001110...
		{0, 474, "0.0"},
		{100, 1000, "100.0"},
	} {
		got, err := format.FormatFloat(float64(KgPerBillionTokens(tc.wh, tc.g)))
		if err != nil || got != tc.want {
			t.Errorf("KgPerBillionTokens(%v, %v) = %s (%v), want %s", tc.wh, tc.g, got, err, tc.want)
		}
	}
}
