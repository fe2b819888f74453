package verify

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/printable"
	"github.com/leadgreen/greentokens/validate"
)

// hostileText holds what a terminal acts on: an escape sequence, a
// carriage return, a NUL, a bidi override, NEL (U+0085) and a line break
// that would start a forged line of the report.
const hostileText = "a\x1b[31mb\rc\x00d\u202ee\u0085f\nverify x: OK"

// TestReportShowsNoControlCharacters: what a snapshot records reaches the
// text report escaped, one line per item, and the JSON report with the
// same values and nothing raw.
func TestReportShowsNoControlCharacters(t *testing.T) {
	g := format.Generator{Module: "github.com/leadgreen/" + hostileText, Version: hostileText, Go: "go1.26.0"}
	r := &Report{
		Dir:        "out/" + hostileText,
		Problems:   []validate.Problem{{File: "models/" + hostileText + ".json", Msg: "name is " + hostileText}},
		Diffs:      []FileDiff{{Path: "pages/x.md", Kind: "changed", Changes: []Change{{Path: "line 1", Stored: hostileText, Rebuilt: "b"}}}},
		BuiltBy:    &g,
		VerifiedBy: format.Generator{Module: "github.com/leadgreen/greentokens", Version: "(devel)", Go: "go1.26.0"},
	}
	var text strings.Builder
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	shown := printable.String(hostileText)
	for _, line := range strings.Split(strings.TrimSuffix(text.String(), "\n"), "\n") {
		if !printable.Plain(line) {
			t.Errorf("the line %q holds a character that is not printable", line)
		}
		if strings.HasPrefix(line, "verify x") {
			t.Errorf("a value of the snapshot starts a line of its own: %q", line)
		}
	}
	for _, want := range []string{"verify out/" + shown + ": FAILED", "models/" + shown + ".json: name is " + shown, "line 1: " + shown + " -> b", "built by:    github.com/leadgreen/" + shown} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the report does not show %q:\n%s", want, text.String())
		}
	}

	var js bytes.Buffer
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if js.String() != printable.Lines(js.String()) {
		t.Errorf("the JSON report holds a character that is not printable:\n%q", js.String())
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(r, &back); diff != "" {
		t.Errorf("the JSON report's values (-want +got):\n%s", diff)
	}
}
