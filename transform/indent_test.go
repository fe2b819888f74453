package transform

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/leadgreen/greentokens/format"
)

// stdIndented is what Marshal wrote when it used encoding/json's own
// indentation: an Encoder without HTML escaping, SetIndent("", "  "), its
// trailing newline left out.
func stdIndented(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// TestIndentAsEncodingJSON: Marshal and IndexFile.Encode, which streams
// index.json a list element at a time, write the bytes encoding/json's
// indentation writes, for the model files and index of every leaderboard
// version and for values with what a string or a layout can hold at its edges.
func TestIndentAsEncodingJSON(t *testing.T) {
	check := func(name string, v any) {
		t.Helper()
		got, err := format.Marshal(v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if want := stdIndented(t, v); !bytes.Equal(got, want) {
			i := 0
			for i < min(len(got), len(want)) && got[i] == want[i] {
				i++
			}
			t.Errorf("%s: Marshal differs from encoding/json at byte %d:\n%q\nwant\n%q", name, i,
				got[max(0, i-60):min(len(got), i+60)], want[max(0, i-60):min(len(want), i+60)])
		}
	}
	strs := []string{
		"", "plain", "<b>&amp;</b>", "quote \" backslash \\ slash /", "\n\r\t\b\f\x00\x01\x1f\x7f",
		"\u2028\u2029", "é ü 中文 🙂", "invalid \xff\xfe utf-8", "\ufffd", "{\"a\": [1, 2]}", ":,[]{}",
	}
	check("strings", strs)
	check("a map", map[string]any{"z": 1, "a": []any{}, "m": map[string]any{}, "n": nil, "s": strs, "<&>": "k"})
	check("nesting", []any{[]any{[]any{}}, map[string]any{"x": []any{map[string]any{"y": []int{1, 2}}}}, [][]string{nil, {}}})
	check("numbers", []any{0, -1, 1.5, 1e21, 1e-7, math.MaxInt64, format.Float(8), format.Float(0.1), format.Float(1e21)})
	check("raw JSON", []json.RawMessage{json.RawMessage(`{"a":1,"a":2}`), json.RawMessage("\"\xff\xfe\""), json.RawMessage(`{"k":"\u0000\ud800"}`)})
	check("empty", map[string]any{})
	check("scalar", "just a string")

	files := 0
	versions := builtVersions(t, "")
	for _, bv := range versions {
		v, lb, models := bv.name, bv.lb, bv.models
		for _, m := range models {
			check(v+"/"+m.File.Slug, m.File)
		}
		files += len(models) + 1
		idx, err := buildIndex(lb, models, readFile(t, bv.dir, "tasks", "gpqa.json"))
		if err != nil {
			t.Fatal(err)
		}
		check(v+"/index.json", idx)
		var enc bytes.Buffer
		if err := idx.Encode(&enc); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(enc.Bytes(), stdIndented(t, idx)) {
			t.Errorf("%s: IndexFile.Encode differs from encoding/json's indentation", v)
		}
	}
	if files <= 2*len(versions) {
		t.Errorf("checked %d model and index files of %d versions, want more than a model and the index of each", files, len(versions))
	}
	t.Logf("%d model and index files of %d versions", files, len(versions))
}
