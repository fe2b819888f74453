package render

import "testing"

// TestGroup: thousands separators, the sign kept, short numbers as they are.
func TestGroup(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"0", "0"}, {"7", "7"}, {"999", "999"}, {"-999", "-999"}, {"1000", "1,000"},
		{"-1000", "-1,000"}, {"12345", "12,345"}, {"123456", "123,456"}, {"-1234567", "-1,234,567"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			if got := group(tc.in); got != tc.want {
				t.Errorf("group(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
