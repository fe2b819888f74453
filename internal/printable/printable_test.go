package printable

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestString(t *testing.T) {
	for _, tc := range []struct{ in, one, lines string }{
		{"Qwen 3 32B", "Qwen 3 32B", "Qwen 3 32B"},
		{"Türkiye, Côte d'Ivoire, 東京 \\ \"q\" \uFFFD", "Türkiye, Côte d'Ivoire, 東京 \\ \"q\" \uFFFD", "Türkiye, Côte d'Ivoire, 東京 \\ \"q\" \uFFFD"},
		{"red \x1b[31mRED\x1b[0m", `red \x1b[31mRED\x1b[0m`, `red \x1b[31mRED\x1b[0m`},
		{"ok\rFAILED", `ok\rFAILED`, `ok\rFAILED`},
		{"nul\x00byte", `nul\x00byte`, `nul\x00byte`},
		{"abc\u202Efed", `abc\u202efed`, `abc\u202efed`},
		{"next\u0085line", `next\u0085line`, `next\u0085line`},
		{"csi\u009b2J", `csi\u009b2J`, `csi\u009b2J`},
		{"del\x7f", `del\x7f`, `del\x7f`},
		{"line\u2028sep", `line\u2028sep`, `line\u2028sep`},
		{"a\tb\nc", `a\tb\nc`, "a\\tb\nc"},
		{"bad \xff\xfe bytes", `bad \xff\xfe bytes`, `bad \xff\xfe bytes`},
		{"zero\u200bwidth", `zero\u200bwidth`, `zero\u200bwidth`},
	} {
		if got := String(tc.in); got != tc.one {
			t.Errorf("String(%q) = %q, want %q", tc.in, got, tc.one)
		}
		if got := Lines(tc.in); got != tc.lines {
			t.Errorf("Lines(%q) = %q, want %q", tc.in, got, tc.lines)
		}
		if got, want := Plain(tc.in), tc.in == tc.one; got != want {
			t.Errorf("Plain(%q) = %v, want %v", tc.in, got, want)
		}
	}
}

// TestJSON: the writer gives the same JSON values with no rune a terminal
// acts on, whatever the writes' boundaries.
func TestJSON(t *testing.T) {
	in := map[string]string{"name": "a\x1b[31mb\rc\x00d\u202ee\u0085f\u009bg\x7fh\u2028i 😀 Türkiye"}
	enc, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{1, 2, 3, len(enc)} {
		var out bytes.Buffer
		w := JSON(&out)
		for p := enc; len(p) > 0; {
			n := min(size, len(p))
			if m, err := w.Write(p[:n]); err != nil || m != n {
				t.Fatalf("Write: %d, %v; want %d, nil", m, err, n)
			}
			p = p[n:]
		}
		if !Plain(out.String()) {
			t.Errorf("writes of %d bytes: %q holds a rune that is not printable", size, out.String())
		}
		var got map[string]string
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatalf("writes of %d bytes: %q is not JSON: %v", size, out.String(), err)
		}
		if diff := cmp.Diff(in, got); diff != "" {
			t.Errorf("writes of %d bytes: the values changed (-want +got):\n%s", size, diff)
		}
	}
	var out bytes.Buffer
	JSON(&out).Write([]byte("{\"k\":\"\u202e\U000E0001\"}\n"))
	if want := `{"k":"\u202e\udb40\udc01"}` + "\n"; out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}
