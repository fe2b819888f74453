package pricing

import (
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/leaderboard"
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

// TestUnitPrice: every unit is the one formula with its own divisor and
// decimals; PUE 1 leaves the product as it is, bit for bit, so the index's
// own unit prices as KgPerBillionTokens does.
func TestUnitPrice(t *testing.T) {
	for _, tc := range []struct {
		unit       Unit
		wh, pue, g float64
		want       string
	}{
		{PerBillionOutputTokens, 39.05033228572156, 1, 692, "27.0"},
		{PerBillionOutputTokens, 39.05033228572156, 1.5, 692, "40.5"},
		{PerBillionOutputTokens, 1, 1, 250, "0.2"}, // half to even, as KgPerBillionTokens
		{PerRequest, 89.26404865431735 / 3600, 1, 692, "0.0172"},
		{PerRequest, 89.26404865431735 / 3600, 3, 30, "0.0022"},
		{PerThousandRequests, 89.26404865431735 / 3600, 1, 692, "17.2"},
		{PerThousandRequests, 0.25, 1, 1, "0.2"}, // 0.25 exactly: half to even
		{PerRequest, 1, 2, 0, "0.0"},
	} {
		got, err := format.FormatFloat(float64(tc.unit.Price(tc.wh, tc.pue, tc.g)))
		if err != nil || got != tc.want {
			t.Errorf("%s.Price(%v, %v, %v) = %s (%v), want %s", tc.unit.Key, tc.wh, tc.pue, tc.g, got, err, tc.want)
		}
	}
	for _, wh := range []float64{39.05033228572156, 0.1 + 0.2, 1e-3} {
		for _, g := range []float64{692, 30.75, 0.35} {
			if a, b := PerBillionOutputTokens.Price(wh, DefaultPUE, g), format.Round(wh*g/1000, 1); a != b {
				t.Errorf("PUE 1 changes the price of %v Wh/M on %v g/kWh: %v, want %v", wh, g, a, b)
			}
		}
	}
}

// TestBasisEnergy: a row's energy per request is priced only when its
// ratio to the energy per token is a plausible output length.
func TestBasisEnergy(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		name      string
		token, rq *float64
		want      float64
		ok        bool
	}{
		{"upstream's", f(0.1405811962285976), f(89.26404865431735), 89.26404865431735 / 3600, true},
		{"missing", f(0.14), nil, 0, false},
		{"negative", f(0.14), f(-89), 0, false},
		{"zero", f(0.14), f(0), 0, false},
		{"below one token", f(0.14), f(0.1), 0, false},
		{"above a million tokens", f(0.14), f(0.14 * 2e6), 0, false},
	} {
		r := &leaderboard.Row{EnergyPerToken: tc.token, EnergyPerRequest: tc.rq}
		got, ok := RequestEnergy.Energy(r)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: RequestEnergy.Energy = %v, %v; want %v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
	r := &leaderboard.Row{EnergyPerToken: f(0.1405811962285976)}
	if got, ok := TokenEnergy.Energy(r); !ok || got != r.WhPerMillion() {
		t.Errorf("TokenEnergy.Energy = %v, %v; want %v", got, ok, r.WhPerMillion())
	}
}

// TestSCI: the accounting every answer states says what E includes and
// that M is not included.
func TestSCI(t *testing.T) {
	a := SCI()
	if a.EmbodiedIncluded || !strings.Contains(a.Standard, "ISO/IEC 21031:2024") || !strings.Contains(a.Energy, "PUE") ||
		!strings.Contains(a.Embodied, "not included") {
		t.Errorf("SCI() = %+v", a)
	}
}

// TestDiffusionEnergy: a diffusion row is priced per image or video from
// its energy, and per minute of video from its energy and its length; a
// token basis, a row without energy and a minute of an image are not.
func TestDiffusionEnergy(t *testing.T) {
	j := 61491.41150003672
	video := &leaderboard.DiffusionRow{Video: true, Energy: &j, Frames: 81, FPS: 15}
	image := &leaderboard.DiffusionRow{Energy: &j}
	for _, tc := range []struct {
		name string
		b    Basis
		r    *leaderboard.DiffusionRow
		want float64
		ok   bool
	}{
		{"per video", GenerationEnergy, video, j / 3600, true},
		{"per minute of video", VideoMinuteEnergy, video, j / 3600 * 60 / (81.0 / 15), true},
		{"per image", GenerationEnergy, image, j / 3600, true},
		{"a minute of an image", VideoMinuteEnergy, image, 0, false},
		{"no energy", GenerationEnergy, &leaderboard.DiffusionRow{}, 0, false},
		{"a token basis", TokenEnergy, image, 0, false},
	} {
		got, ok := tc.b.DiffusionEnergy(tc.r)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: %v, %v; want %v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
	if got := PerVideoMinute.Price(j/3600*60/(81.0/15), 1.2, 400); got != format.Round(j/3600*60/(81.0/15)*1.2*400/1000, 1) {
		t.Errorf("PerVideoMinute.Price = %v", got)
	}
}
