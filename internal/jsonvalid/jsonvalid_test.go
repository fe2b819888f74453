package jsonvalid

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/internal/sample"
)

// TestValidAsEncodingJSON: Valid answers as json.Valid does, on what
// jsontext refuses and json.Valid accepts (a repeated name, invalid
// UTF-8, an escaped lone surrogate), on what both refuse (every way a
// number, a string, a literal, a list or an object can break, and nesting
// past 10,000), and on every upstream JSON file of the leaderboard versions
// (sample.Versions: the sample's in make test, ../shared's in make scale).
func TestValidAsEncodingJSON(t *testing.T) {
	inputs := []string{
		``, ` `, `null`, `{}`, `[]`, `"s"`, `0`, `-0.5e+10`, `{"a":1,"a":2}`, `[{"x":[],"x":{}}]`,
		"\"\xff\"", "{\"\xfe\":1}", `"\ud800"`, `"\udc00\ud800"`, `"\u0000"`, "\"\x7f\"",
		"\ufeff{}", `{"a":1,}`, `[1,]`, `01`, `1.`, `-`, `1e`, `.5`, `+1`, `NaN`, `Infinity`,
		`{"a" 1}`, `{a:1}`, `'s'`, `"\x"`, `"\u12"`, "\"tab\there\"", "\"nl\nhere\"", `[1] [2]`, `{}}`,
		`<html>`, strings.Repeat("[", 10001) + strings.Repeat("]", 10001), `{"a":"\u00e9","\u0061":1}`,
		`{"a":1,"\u0061":2}`, `true`, `tru`, `nul`, `[true,false,null]`,
		strings.Repeat("[", 10000) + strings.Repeat("]", 10000), strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000),
		strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001), `-01`, `-`, `-a`, `1.5e+`, `1E5`, `0.0e-0`, `2.`, `[-]`,
		`"\u00G0"`, `"\uabcd"`, `"\uABC"`, `"\/\b\f\n\r\t\"\\"`, `"\a"`, "\"\x1f\"", `"`, `"abc`, `{"a"}`, `{"a":}`, `{,}`, `[,]`,
		`{"a":1 "b":2}`, `[1 2]`, `{"a":1}x`, `[]]`, `{]`, `[}`, ` [ ] `, "\n{\r\t}\n", `falsey`, `nulll`, `{"a":[{"b":[]},{}]}`,
	}
	for _, in := range inputs {
		if got, want := Valid([]byte(in)), json.Valid([]byte(in)); got != want {
			t.Errorf("Valid(%.40q) = %v, json.Valid says %v", in, got, want)
		}
	}
	dirs, _ := sample.Versions(t)
	var files []string
	for _, d := range dirs {
		for _, pattern := range []string{"*.json", "tasks/*.json"} {
			m, err := filepath.Glob(filepath.Join(d, pattern))
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, m...)
		}
	}
	if len(files) < 4*len(dirs) {
		t.Fatalf("found %d JSON files in %d leaderboard versions, want their index, commits and task files", len(files), len(dirs))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := Valid(b), json.Valid(b); got != want || !got {
			t.Errorf("%s: Valid = %v, json.Valid = %v; want both true", f, got, want)
		}
	}
}
