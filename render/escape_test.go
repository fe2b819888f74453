package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/internal/sample"
)

func TestMarkdownEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Qwen 3 32B", "Qwen 3 32B"},
		{"Qwen/Qwen3-32B", "Qwen/Qwen3-32B"},
		{"PixArt-Σ", "PixArt-Σ"},
		{"<script>alert(1)</script>", `\<script\>alert(1)\</script\>`},
		{"*bold* _it_ `code` ~del~", `\*bold\* \_it\_ \` + "`" + `code\` + "`" + ` \~del\~`},
		{"[link](https://evil.example) ![img](x)", `\[link\](https://evil.example) !\[img\](x)`},
		{"a | b &amp; c \\ d", `a \| b \&amp; c \\ d`},
		{"line\n# heading\r\n- item\tx\x00", "line # heading  - item x "},
		// What would open a block at the start of a line (a page starts
		// its first paragraph with the model's name) is escaped there.
		{"# Big", `\# Big`},
		{"#", `\#`},
		{"- dash", `\- dash`},
		{"+ plus", `\+ plus`},
		{"1. one", `1\. one`},
		{"2024) two", `2024\) two`},
		{"    indented code", "indented code"},
		{"\n# after a line break", `\# after a line break`},
		{"Qwen3-32B 1. x #2", "Qwen3-32B 1. x #2"},
		{"1234567890. ten digits", "1234567890. ten digits"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := md(tt.in); got != tt.want {
				t.Errorf("md(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	for in, want := range map[string]string{
		"Qwen/Qwen3-32B":  "Qwen/Qwen3-32B",
		"org/a<b>[c]|&`*": "org/a%3Cb%3E%5Bc%5D%7C%26%60%2A",
		"org/x y":         "org/x%20y",
	} {
		if got := urlPath(in); got != want {
			t.Errorf("urlPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPageEscapesFlagText: text that reaches a page from a flag (the Ember
// release of grid.json, the display grids) is shown as text, never as
// markup.
func TestPageEscapesFlagText(t *testing.T) {
	dir := snapshotDir(t, sample.Leaderboard(), true)
	p := filepath.Join(dir, "grid.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	const release = `"release": "September 2026"`
	if !strings.Contains(string(b), release) {
		t.Fatalf("grid.json lacks %s", release)
	}
	b = []byte(strings.Replace(string(b), release, `"release": "<img src=x onerror=alert(1)> *Sept* [2026](http://evil.example)"`, 1))
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	page := render(t, dir, "qwen-3-32b", Options{Grids: []string{"India", "<b>Atlantis</b>"}})
	var got []string
	for _, want := range []string{
		`\<img src=x onerror=alert(1)\> \*Sept\* \[2026\](http://evil.example) release`,
		`Not in this snapshot's grid.json for 2024: \<b\>Atlantis\</b\>.`,
	} {
		if !strings.Contains(page, want) {
			got = append(got, want)
		}
	}
	for _, raw := range []string{"<img src=x onerror=alert(1)>", "<b>", "[2026]"} {
		if strings.Contains(page, raw) {
			got = append(got, "unescaped "+raw)
		}
	}
	if diff := cmp.Diff([]string(nil), got); diff != "" {
		t.Errorf("page (-want +got):\n%s", diff)
	}
}
