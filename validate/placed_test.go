package validate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestPlacedOnlyWhereNothingElseSees: a site is placed (its values taken
// raw, a null left in their place) only when no keyword on the way to it
// sees them but its own; where one does (contains, enum), the fast pass
// still finds what the whole schema finds.
func TestPlacedOnlyWhereNothingElseSees(t *testing.T) {
	const defs = `"$defs": {"d": {"type": "object"}}`
	for _, tc := range []struct {
		name, list string // the schema of the list xs, but its items
		doc        string
		site       string // the one site found (sitePaths)
		valid      bool
	}{
		{"counted and named only", `"type": "array", "minItems": 1, "description": "d"`, `{"xs": [{"b": 1}]}`, "xs[] d", true},
		// The list is a leaf (leaves.go): checked whole by its own schema.
		{"contains", `"type": "array", "contains": {"required": ["a"]}`, `{"xs": [{"b": 1}]}`, "xs leaf", false},
		{"contains, met", `"type": "array", "contains": {"required": ["a"]}`, `{"xs": [{"a": 1}]}`, "xs leaf", true},
		{"enum", `"enum": [[null]]`, `{"xs": [{"a": 2}]}`, "xs leaf", false},
		{"uniqueItems", `"uniqueItems": true`, `{"xs": [{"a": 1}, {"a": 2}]}`, "xs leaf", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := `{"type": "object", "properties": {"xs": {` + tc.list + `, "items": {"$ref": "#/$defs/d"}}}, ` + defs + `}`
			o := compileTestOnce(t, "t.json", doc)
			if o == nil {
				t.Fatal("no site")
			}
			if diff := cmp.Diff([]string{tc.site}, sitePaths(o.sites)); diff != "" {
				t.Errorf("sites (-want +got):\n%s", diff)
			}
			if !o.sites[0].placed {
				t.Errorf("the site is not placed")
			}
			whole := compileTestSchema(t, doc)
			inst := newInstanceDecoder().decode([]byte(tc.doc))
			if got := whole.Validate(inst) == nil; got != tc.valid {
				t.Fatalf("the whole schema finds %s valid: %v, want %v", tc.doc, got, tc.valid)
			}
			if got := newCheckedValues().bytes(o, []byte(tc.doc)); got != tc.valid {
				t.Errorf("the fast pass finds %s valid: %v, want %v", tc.doc, got, tc.valid)
			}
		})
	}
}

// TestPlacedValuesByText: a value at a placed site is found again by its
// text, white space outside strings aside, and is not checked again; a
// value whose text differs otherwise is checked, whether or not it is
// the same value.
func TestPlacedValuesByText(t *testing.T) {
	o := compileTestOnce(t, "t.json", `{"type": "object", "properties": {"xs": {"type": "array", "items": {"$ref": "#/$defs/d"}}},
		"$defs": {"d": {"type": "object", "required": ["a"], "properties": {"a": {"type": "integer"}, "s": {"type": "string", "maxLength": 3}}}}}`)
	seen := newCheckedValues()
	if !seen.bytes(o, []byte(`{"xs": [{"a": 1, "s": "x y"}]}`)) {
		t.Fatal("the first file is found invalid")
	}
	forms := seen.size()
	for _, tc := range []struct {
		name, doc string
		valid     bool
		newForms  int
	}{
		{"the same text", `{"xs":[{"a": 1, "s": "x y"}]}`, true, 0},
		{"other white space", "{\"xs\": [\n  {\n    \"a\":1,\"s\" : \"x y\"\n  }\n]}", true, 0},
		// Another text of the same value: its leaves (leaves.go) found by
		// their texts, and its text kept.
		{"other key order", `{"xs": [{"s": "x y", "a": 1}]}`, true, 1},
		{"white space inside a string", `{"xs": [{"a": 1, "s": "x  y"}]}`, false, 0},
		// Its text; its two leaves' texts are not kept: their scalarChecks
		// (scalar.go) accept them.
		{"another value", `{"xs": [{"a": 2, "s": "xy"}]}`, true, 1},
		{"a value with a leaf seen before", `{"xs": [{"a": 2, "s": "x y"}]}`, true, 1},
		{"an invalid value", `{"xs": [{"s": "xy"}]}`, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantFastPass(t, seen, o, tc.doc, tc.valid, tc.newForms, &forms)
		})
	}
}

// TestAppendCompact: appendCompact leaves out what json.Compact leaves
// out, for every value of the shared upstream JSON files and for edge
// texts.
func TestAppendCompact(t *testing.T) {
	texts := []string{
		`{ "a b" : "c \" d\\\\" , "e":[ 1 ,2e-3, true,null ,{} ] }`,
		"\t\r\n [ \"\\u0020\" ]\n", `"  "`, `-0.5`, `{"\\"  :"\\"}`, "\"\xff \xfe\"",
	}
	for _, pattern := range []string{"*.json", "tasks/*.json"} {
		for _, f := range vtVersionFiles(t, pattern) {
			texts = append(texts, string(f.data))
		}
	}
	for _, text := range texts {
		var want bytes.Buffer
		if err := json.Compact(&want, []byte(text)); err != nil {
			t.Fatalf("%.40q: %v", text, err)
		}
		if got := appendCompact([]byte("k"), text); !bytes.Equal(got[1:], want.Bytes()) || got[0] != 'k' {
			t.Errorf("%.40q: appendCompact gives %.80q, want %.80q", text, got, "k"+want.String())
		}
	}
}

// FuzzAppendCompact: for any valid JSON text, appendCompact gives what
// json.Compact gives.
func FuzzAppendCompact(f *testing.F) {
	for _, s := range []string{`{"a": [1, "b c", {"d": null}]}`, ` "\"" `, "[\n\t1\r\n]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !json.Valid([]byte(text)) || strings.TrimSpace(text) == "" {
			return
		}
		var want bytes.Buffer
		if err := json.Compact(&want, []byte(text)); err != nil {
			t.Fatal(err)
		}
		if got := appendCompact(nil, text); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%q: appendCompact gives %q, want %q", text, got, want.Bytes())
		}
	})
}

// compileTestSchema compiles a whole schema document as the checks do.
func compileTestSchema(t testing.TB, doc string) *jsonschema.Schema {
	t.Helper()
	d, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	c := newSchemaCompiler()
	if err := c.AddResource(schemaBase+"whole.json", d); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(schemaBase + "whole.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// placedSchemas are schemas with placed sites of every kind the walk
// takes (a split list, properties, additionalProperties beside
// properties, nested items, an array at the root) and leaves of every kind
// (leaves.go: at the root, in a site's entry, a $ref to an object schema
// there, an object and a list walked into there), for
// FuzzFastPassNeverLenient.
var placedSchemas = []string{
	`{"type": "object", "required": ["xs"],
	 "properties": {
	   "xs": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/d"}},
	   "ys": {"type": "array", "items": {"$ref": "#/$defs/e"}},
	   "m": {"type": "object", "properties": {"a": {"$ref": "#/$defs/d"}, "b": {"type": "integer"}}, "additionalProperties": {"$ref": "#/$defs/e"}, "maxProperties": 3},
	   "nn": {"type": "array", "items": {"type": "array", "items": {"$ref": "#/$defs/d"}}}
	 },
	 "additionalProperties": false,
	 "$defs": {
	   "d": {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer", "maximum": 5}, "s": {"type": "string", "maxLength": 3}}, "additionalProperties": false},
	   "e": {"type": "object", "properties": {"k": {"enum": [1, "1", [1]]}, "n": {"type": "string"},
	     "o": {"$ref": "#/$defs/d"}, "l": {"type": "array", "items": {"type": "integer", "minimum": 0}},
	     "w": {"type": "object", "required": ["x"], "properties": {"x": {"type": "integer", "maximum": 3}}, "additionalProperties": {"type": "string"}}}}
	 }}`,
	`{"$id": "https://x.invalid/r.json", "type": "array", "maxItems": 4,
	 "items": {"type": "object", "properties": {"p": {"type": "array", "items": {"$ref": "#/$defs/d"}}, "q": {"type": ["string", "object"]}},
	   "additionalProperties": {"$ref": "#/$defs/d"}, "propertyNames": {"maxLength": 2}, "dependentRequired": {"q": ["p"]}},
	 "$defs": {"d": {"type": "object", "properties": {"n": {"type": "integer", "maximum": 5}, "s": {"type": "string", "maxLength": 3}, "u": {"type": "array", "uniqueItems": true}}, "required": ["n"]}}}`,
	// Leaves with an objectBranch (site.alt).
	`{"type": "object", "properties": {
	   "xs": {"type": "array", "items": {"$ref": "#/$defs/d"}},
	   "p": {"oneOf": [{"type": "null"}, {"$ref": "#/$defs/d"}]},
	   "q": {"anyOf": [{"type": ["string", "array"]}, {"$ref": "#/$defs/d"}]}},
	 "$defs": {"d": {"type": "object", "additionalProperties": false, "required": ["n"], "properties": {"n": {"type": "integer", "maximum": 5}, "s": {"type": "string", "maxLength": 3}}}}}`,
	// An objectBranch inside a site's entry (an inner leaf's alt), and one
	// whose entry has unevaluatedProperties.
	`{"type": "object", "properties": {
	   "x": {"$ref": "#/$defs/a"},
	   "p": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/a"}]},
	   "u": {"oneOf": [{"type": "integer"}, {"$ref": "#/$defs/u"}]}},
	 "$defs": {
	   "a": {"type": "object", "properties": {"p": {"oneOf": [{"type": "null"}, {"$ref": "#/$defs/b"}]}, "z": {"type": "integer", "maximum": 5}}},
	   "b": {"type": "object", "required": ["q"], "properties": {"q": {"type": "integer", "minimum": 0}, "r": {"type": "string", "maxLength": 2}}},
	   "u": {"type": "object", "allOf": [{"properties": {"k": {"type": "string"}}}], "unevaluatedProperties": false}}}`,
}

// FuzzFastPassNeverLenient: for any text, the fast pass (whole and
// streamed, with a memory warm from every text before and with an empty
// one) never finds valid what the whole schema finds invalid. (By the
// reviewer of the placed sites: 230,000 runs found nothing.)
func FuzzFastPassNeverLenient(f *testing.F) {
	for _, s := range []string{
		`{"xs": [{"n": 1}], "m": {"a": {"n": 2}, "b": 1, "c": {"k": 1}}, "ys": [{"k": "1"}], "nn": [[{"n": 1}]]}`,
		`{"xs": [{"n": 1, "s": "a\"b"}], "m": {"b": {"n": 1}, "z": {"k": [1]}}}`,
		`{"xs": [{"n": 1}, {"n": 1 }, {"n" : 1}], "m": {"\u0061": {"n": 9}}}`,
		`{"xs": [{"n": 1, "s": "\u0061bcd"}]}`,
		`{"xs": [{"n": 1}], "ys": [{"n": 1}, {"n": "1"}]}`,
		`[{"p": [{"n": 1}], "q": "x", "zz": {"n": 2, "u": [1, 1.0]}}]`,
		`[{"q": {"n": 9}, "r": {"n": 1, "s": "\u00e9\u00e9"}}, {"p": [{"n": 1, "u": [{"a":1,"b":2},{"b":2,"a":1}]}]}]`,
		`[{"a": {"n": 1}}, {"a": {"n":1}}, {"a": { "n" : 1 }}]`,
		`{"xs": [{"n": 1}], "ys": [{"o": {"n": 1}, "l": [0, 1], "w": {"x": 3, "y": "z"}}, {"o": {"n": 1}, "l": [1, -1]}]}`,
		`{"xs": [{"n": 1}], "ys": [{"w": {"x": 3}}, {"w": {"y": "z"}}, {"w": {"x": 4}}, {"o": {"s": "abcd", "n": 1}}]}`,
		`{"xs": [{"n": 1}], "p": {"n": 1}, "q": {"n": 9}}`,
		`{"p": null, "q": [1], "xs": [{"n": 2, "s": "ab"}, {"n": 2, "s": "abcd"}]}`,
		`{"p": {"n": 2, "x": 1}, "q": "s"}`,
		`{"x": {"p": {"q": 1, "r": "ab"}, "z": 1}, "p": {"p": {"q": -1}}, "u": {"k": "s"}}`,
		`{"x": {"p": null}, "p": {"z": 9, "p": {"q": 1}}, "u": {"k": "s", "j": 1}}`,
	} {
		f.Add(s)
	}
	type schema struct {
		whole *jsonschema.Schema
		once  *onceSchema
		warm  *checkedValues
	}
	var schs []schema
	for i, doc := range placedSchemas {
		o := compileTestOnce(f, fmt.Sprintf("p%d.json", i), doc)
		if o == nil || o.placed == nil {
			f.Fatalf("schema %d: nothing placed", i)
		}
		schs = append(schs, schema{compileTestSchema(f, doc), o, newCheckedValues()})
	}
	f.Fuzz(func(t *testing.T, text string) {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
		if err != nil {
			return
		}
		for i, sch := range schs {
			neverLenient(t, i, sch.whole, sch.once, sch.warm, inst, text)
		}
	})
}

// neverLenient fails t when the fast pass over text (whole and streamed,
// with the memory warm and with an empty one) finds valid what whole, the
// schema i, finds invalid in inst, text decoded.
func neverLenient(t *testing.T, i int, whole *jsonschema.Schema, once *onceSchema, warm *checkedValues, inst any, text string) {
	t.Helper()
	valid := whole.Validate(inst) == nil
	for _, seen := range []*checkedValues{warm, newCheckedValues()} {
		if seen.bytes(once, []byte(text)) && !valid {
			t.Fatalf("schema %d: the fast pass finds %s valid, the whole schema does not", i, text)
		}
		if once.stream != nil && seen.stream(once, iotest.HalfReader(strings.NewReader(text))) && !valid {
			t.Fatalf("schema %d: the fast pass, streamed, finds %s valid, the whole schema does not", i, text)
		}
	}
}
