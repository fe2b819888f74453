package validate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// referenceForm is a plain reference form of a decoded value (keys
// sorted and quoted, numbers in the shortest form of their float64):
// canonical must tell values apart exactly as it does.
func referenceForm(b *strings.Builder, v any) {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for _, k := range keys {
			b.WriteString(strconv.Quote(k))
			b.WriteByte(':')
			referenceForm(b, v[k])
			b.WriteByte(',')
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for _, x := range v {
			referenceForm(b, x)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case json.Number:
		if x, err := strconv.ParseFloat(string(v), 64); err == nil {
			b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
		} else {
			b.WriteString(string(v))
		}
	case string:
		b.WriteString(strconv.Quote(v))
	default: // bool, nil
		fmt.Fprint(b, v)
	}
}

// TestCanonicalMatchesReference checks that two values have the same
// canonical form exactly when they have the same reference form, over
// every third row of every task file (decoded as parseRow decodes it),
// values those rows do not have, and copies of rows changed in one field
// each.
func TestCanonicalMatchesReference(t *testing.T) {
	t.Parallel() // independent of the other tests, and long: the package ends make test
	var values []any
	for _, raw := range []string{
		`{"b":1,"a":[true,false,null,"x\u00e9\n\"\\\u2028",{"z":{},"y":[]}],"":"","\u00ff":-0,"n":1e400,"m":-1.50E-3}`,
		`[]`, `{}`, `null`, `"\ud800"`, `0.1`, `123456789012345678901234567890`,
		`1`, `1.0`, `10e-1`, `"1"`, `true`, `false`, `[1]`, `[[]]`, `[{}]`, `{"a":1}`, `{"a":"1"}`, `{"b":1}`, `{"a":[1]}`,
		`{"a":1,"b":2}`, `{"b":2,"a":1}`, `{"a":{"b":2}}`, `{"ab":2}`, `"a"`, `"a,"`, `["a",""]`, `["a,",""]`, `-0`, `0`, `1e400`, `1E400`,
	} {
		values = append(values, plainJSON(t, []byte(raw)))
	}
	for _, f := range vtVersionFiles(t, "tasks/*.json") {
		var doc struct{ Configurations []json.RawMessage }
		if err := json.Unmarshal(f.data, &doc); err != nil {
			t.Fatalf("%s: %v", f.path, err)
		}
		for i, raw := range doc.Configurations {
			if i%3 == 0 { // one row in three: a second at most
				values = append(values, plainJSON(t, raw))
			}
		}
	}
	if len(values) < 150 {
		t.Fatalf("only %d values: the task files were not read", len(values))
	}
	forms := map[string]string{} // the canonical form -> the reference form
	befores := map[string]string{}
	for i, v := range values {
		ws := []any{v}
		if i%20 == 0 { // the changed copies of one row in 20: enough, and quick
			ws = variants(v)
		}
		for _, w := range ws {
			var before strings.Builder
			referenceForm(&before, w)
			form, _ := json.Marshal(canonical(w))
			got := string(form)
			if b, ok := forms[got]; ok && b != before.String() {
				t.Fatalf("value %d: two values with different reference forms have one form:\n%s\n%s", i, b, before.String())
			}
			if g, ok := befores[before.String()]; ok && g != got {
				t.Fatalf("value %d: two values with one reference form have two forms: %s", i, before.String())
			}
			forms[got], befores[before.String()] = before.String(), got
		}
	}
}

// variants returns v and, for an object, copies with one field changed
// each: its number one more, its string longer, or the field left out.
func variants(v any) []any {
	out := []any{v}
	m, ok := v.(map[string]any)
	if !ok {
		return out
	}
	for k, x := range m {
		c := maps.Clone(m)
		switch x := x.(type) {
		case json.Number:
			c[k] = json.Number(string(x) + "1")
		case string:
			c[k] = x + "x"
		default:
			delete(c, k)
		}
		out = append(out, c)
	}
	return out
}

// plainJSON decodes one JSON value as parseRow does (UseNumber).
func plainJSON(t *testing.T, raw []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return v
}
