package validate

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// canonicalBefore is the form rowContent hashed before appendCanonical
// (written to a strings.Builder, one call per value), kept to show that
// the faster form is the same bytes.
func canonicalBefore(b *strings.Builder, v any) {
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
			canonicalBefore(b, v[k])
			b.WriteByte(',')
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for _, x := range v {
			canonicalBefore(b, x)
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

// TestCanonicalAsBefore checks that appendCanonical writes what the former
// canonical wrote, for every row of every shared task file (decoded as
// parseRow decodes it) and for values those rows do not have.
func TestCanonicalAsBefore(t *testing.T) {
	var values []any
	for _, raw := range []string{
		`{"b":1,"a":[true,false,null,"x\u00e9\n\"\\\u2028",{"z":{},"y":[]}],"":"","\u00ff":-0,"n":1e400,"m":-1.50E-3}`,
		`[]`, `{}`, `null`, `"\ud800"`, `0.1`, `123456789012345678901234567890`,
	} {
		values = append(values, newInstanceDecoder().decode([]byte(raw)))
	}
	for _, f := range vtSharedFiles(t, "tasks/*.json") {
		var doc struct{ Configurations []json.RawMessage }
		if err := json.Unmarshal(f.data, &doc); err != nil {
			t.Fatalf("%s: %v", f.path, err)
		}
		for _, raw := range doc.Configurations {
			values = append(values, newInstanceDecoder().decode(raw))
		}
	}
	if len(values) < 1000 {
		t.Fatalf("only %d values: the shared task files were not read", len(values))
	}
	for i, v := range values {
		var want strings.Builder
		canonicalBefore(&want, v)
		if got := string(appendCanonical(nil, v)); got != want.String() {
			t.Errorf("value %d: appendCanonical gives\n%s\nnot\n%s", i, got, want.String())
		}
	}
}
