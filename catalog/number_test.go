package catalog

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseNumber: a batch or an intensity given as text is decimal, at
// most MaxNumberBytes long, spaces around it ignored; -0 is 0; the error
// quotes the text as given and says why.
func TestParseNumber(t *testing.T) {
	long := strings.Repeat("1", MaxNumberBytes+1)
	for _, tc := range []struct {
		in   string
		want float64
		err  string
	}{
		{"8", 8, ""},
		{" 8\t", 8, ""},
		{".5", 0.5, ""},
		{"5.", 5, ""},
		{"+3", 3, ""},
		{"2E3", 2000, ""},
		{"1e-7", 1e-7, ""}, // its range is Price's to check
		{"1e400", 0, `"1e400" is out of range`},
		{"0x10", 0, `"0x10" is not a decimal number`},
		{"1_000", 0, `"1_000" is not a decimal number`},
		{"Inf", 0, `"Inf" is not a decimal number`},
		{"NaN", 0, `"NaN" is not a decimal number`},
		{"", 0, `"" is not a decimal number`},
		{" 2e3.0", 0, `" 2e3.0" is not a decimal number`},
		{long, 0, `"` + long + `" is over 32 characters`},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseNumber(tc.in)
			if diff := cmp.Diff(tc.err, errText(err)); diff != "" || got != tc.want {
				t.Errorf("ParseNumber(%q) = %v, %v; want %v, %q", tc.in, got, err, tc.want, tc.err)
			}
		})
	}
	if f, _ := ParseNumber("-0"); f != 0 || 1/f < 0 {
		t.Errorf("ParseNumber(-0) = %v, want 0, not -0", f)
	}
}

// TestParseGPUCount: a GPU count given as text is a whole number in
// decimal, at most MaxNumberBytes long, spaces around it ignored.
func TestParseGPUCount(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		err  string
	}{
		{"2", 2, ""},
		{" 2 ", 2, ""},
		{"02", 2, ""},
		{"010", 10, ""}, // not octal 8
		{"+2", 2, ""},
		{"0", 0, ""}, // its range is Price's to check
		{"0x2", 0, `"0x2" is not a whole number`},
		{"0o2", 0, `"0o2" is not a whole number`},
		{"1_0", 0, `"1_0" is not a whole number`},
		{"2.0", 0, `"2.0" is not a whole number`},
		{"2e0", 0, `"2e0" is not a whole number`},
		{strings.Repeat("9", 40), 0, `"` + strings.Repeat("9", 40) + `" is over 32 characters`},
		{strings.Repeat("9", 20), 0, `"` + strings.Repeat("9", 20) + `" is not a whole number`}, // out of an int's range
		{strings.Repeat("0", MaxNumberBytes-1) + "2", 2, ""},
		{" " + strings.Repeat("0", MaxNumberBytes-1) + "2 ", 2, ""},
		{strings.Repeat("0", MaxNumberBytes) + "2", 0, `"` + strings.Repeat("0", MaxNumberBytes) + `2" is over 32 characters`},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseGPUCount(tc.in)
			if diff := cmp.Diff(tc.err, errText(err)); diff != "" || got != tc.want {
				t.Errorf("ParseGPUCount(%q) = %v, %v; want %v, %q", tc.in, got, err, tc.want, tc.err)
			}
		})
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
