package validate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/internal/jsonvalid"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// scalarSchemas are leaf schemas of every kind a scalarCheck takes or
// refuses, for the tests below.
var scalarSchemas = []string{
	`{"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$"}`,
	`{"type": "string", "minLength": 2, "maxLength": 3}`,
	`{"type": "string", "format": "date", "pattern": "^[0-9]{4}-"}`,
	`{"type": "number", "minimum": 0}`,
	`{"type": "number", "exclusiveMinimum": 0, "maximum": 1e15}`,
	`{"type": "integer", "minimum": -3, "exclusiveMaximum": 5}`,
	`{"type": ["integer", "null"], "maximum": 0.5}`,
	`{"type": ["boolean", "string"]}`,
	`{"$ref": "#/$defs/n", "minimum": 2, "$defs": {"n": {"type": "number", "maximum": 10}}}`,
	`{"$schema": "http://json-schema.org/draft-07/schema#", "$ref": "#/definitions/n", "definitions": {"n": {"type": "integer"}}}`,
	`{"description": "anything", "title": "t"}`,
	// manifest.schema.json's output path
	`{"allOf": [{"$ref": "#/$defs/path"}, {"not": {"pattern": "^(sources/|manifest\\.json$)"}}], "$defs": {"path": {"type": "string", "pattern": "^[a-z]+(/[a-z.]+)*$"}}}`,
	`{"anyOf": [{"type": "string", "maxLength": 2}, {"type": "number", "minimum": 1}]}`,
	`{"oneOf": [{"type": "integer"}, {"type": "number", "maximum": 3}]}`,
	// Before draft 2019 a $ref's siblings are left aside; inside a not, a
	// "no" taken from them would be a wrong "yes".
	`{"$schema": "http://json-schema.org/draft-07/schema#", "not": {"$ref": "#/definitions/s", "maxLength": 1}, "definitions": {"s": {"type": "string"}}}`,
	`{"$schema": "http://json-schema.org/draft-07/schema#", "$ref": "#/definitions/s", "type": "string", "maxLength": 1, "definitions": {"s": {"minLength": 2}}}`,
	`{"not": {"type": "integer"}}`,
	// Refused: keywords a scalarCheck does not apply.
	`{"type": "number", "exclusiveMinimum": 0.1}`,
	`{"type": "number", "multipleOf": 2}`,
	`{"enum": ["a", 1]}`,
	`{"const": "a"}`,
	`{"type": "string", "format": "regex"}`,
	`{"if": {"type": "string"}, "then": {"maxLength": 2}}`,
	`{"not": {"enum": [1]}}`,
	`{"$ref": "#/$defs/e", "$defs": {"e": {"enum": [1]}}}`,
	`{"$ref": "#"}`,
	// 2^7 schemas reached.
	`{"$ref": "#/$defs/d0", "$defs": {"d0": {"anyOf": [{"$ref": "#/$defs/d1"}, {"$ref": "#/$defs/d1"}]}, "d1": {"anyOf": [{"$ref": "#/$defs/d2"}, {"$ref": "#/$defs/d2"}]},
	  "d2": {"anyOf": [{"$ref": "#/$defs/d3"}, {"$ref": "#/$defs/d3"}]}, "d3": {"anyOf": [{"$ref": "#/$defs/d4"}, {"$ref": "#/$defs/d4"}]},
	  "d4": {"anyOf": [{"$ref": "#/$defs/d5"}, {"$ref": "#/$defs/d5"}]}, "d5": {"anyOf": [{"$ref": "#/$defs/d6"}, {"$ref": "#/$defs/d6"}]}, "d6": {"type": "string"}}}`,
}

// refusedFrom is the index of the first refused schema in scalarSchemas.
const refusedFrom = 17

func compileScalarChecks(t testing.TB) ([]*jsonschema.Schema, []*scalarCheck) {
	t.Helper()
	var schs []*jsonschema.Schema
	var checks []*scalarCheck
	for _, doc := range scalarSchemas {
		sch := compileTestSchema(t, doc)
		schs = append(schs, sch)
		checks = append(checks, newScalarCheck(sch))
	}
	return schs, checks
}

// TestScalarCheckTakes: a scalarCheck is made for a schema of types,
// string keywords, float64 bounds, formats and $refs, and for none with
// another keyword or a bound a float64 cannot hold.
func TestScalarCheckTakes(t *testing.T) {
	_, checks := compileScalarChecks(t)
	for i, c := range checks {
		if want := i < refusedFrom; (c != nil) != want {
			t.Errorf("%s: made %v, want %v", scalarSchemas[i], c != nil, want)
		}
	}
}

// TestScalarCheckDecides: what a scalarCheck accepts and what it leaves
// to the library, each case also checked against the library.
func TestScalarCheckDecides(t *testing.T) {
	schs, checks := compileScalarChecks(t)
	for _, tc := range []struct {
		schema int
		text   string
		want   bool // accepted by the scalarCheck
	}{
		{0, `"qwen-3-32b"`, true},
		{0, `"Qwen"`, false},
		{0, `"a\u002db"`, true}, // decoded as the library gets it: "a-b"
		{0, `"a\u0041"`, false},
		{0, `7`, false},
		{1, `"éé"`, true}, // two runes, four bytes
		{1, `"éééé"`, false},
		{1, `"a"`, false},
		{2, `"2026-02-16"`, true},
		{2, `"2026-02-30"`, false}, // the pattern matches; the format does not
		{3, `0.5`, true},
		{3, `0`, false}, // on the bound: the library decides (valid)
		{3, `-0.0`, false},
		{3, `-1e-400`, false}, // rounds to -0: on the bound
		{3, `1e400`, false},   // beyond float64: the library decides
		{3, `"1"`, false},
		{4, `1e-300`, true},
		{4, `0`, false},
		{4, `1e15`, false},
		{4, `999999999999999.9`, true},
		{5, `4`, true},
		{5, `-3`, false},
		{5, `4.0`, false}, // integral, but not by its text: the library decides
		{5, `5`, false},
		{5, `4.5`, false},
		{6, `null`, true},
		{6, `0`, true},
		{6, `1`, false},
		{6, `true`, false},
		{7, `true`, true},
		{7, `"x"`, true},
		{7, `null`, false},
		{7, `1`, false},
		{8, `5`, true},
		{8, `1`, false},
		{8, `11`, false},
		{9, `3`, true},
		{9, `3.5`, false},
		{10, `"x"`, true},
		{10, `null`, true},
		{10, `1e999`, true}, // no bound: any number
		{11, `"models/x.json"`, true},
		{11, `"sources/x.json"`, false},
		{11, `"Models"`, false},
		{12, `"ab"`, true},
		{12, `"abc"`, false},
		{12, `2`, true},
		{12, `1`, false}, // on the bound
		{12, `0.5`, false},
		{13, `2.5`, true},
		{13, `7`, true},
		{13, `2`, false}, // both
		{13, `7.5`, false},
		{13, `3.0`, false}, // not sure it is an integer
		{13, `2.0`, false}, // nor here, where the library finds both
		{13, `2.25`, true},
		{14, `"abc"`, false},
		{14, `7`, true},
		{15, `"ab"`, true},
		{15, `"a"`, false},
		{15, `"abc"`, true}, // maxLength is left aside
		{15, `7`, true},     // and so is type
		{16, `"x"`, true},
		{16, `4.5`, true},
		{16, `4`, false},
		{16, `4.0`, false},
		{16, `1e400`, false},
	} {
		t.Run(fmt.Sprintf("%d %s", tc.schema, tc.text), func(t *testing.T) {
			got := checks[tc.schema].accepts(tc.text)
			if got != tc.want {
				t.Errorf("%s: accepts %s: %v, want %v", scalarSchemas[tc.schema], tc.text, got, tc.want)
			}
			if got && schs[tc.schema].Validate(libraryDecode(t, tc.text)) != nil {
				t.Errorf("%s: accepts %s, which the library finds invalid", scalarSchemas[tc.schema], tc.text)
			}
		})
	}
}

// FuzzScalarCheck: a scalarCheck never accepts a scalar the library finds
// invalid against the same schema.
func FuzzScalarCheck(f *testing.F) {
	for _, s := range []string{`"qwen-3-32b"`, `"éé"`, `"2026-02-16"`, `0.5`, `-0`, `1e-300`, `4`, `null`, `true`, `"a\"b"`, `12345678901234567890`, `5e-324`} {
		f.Add(s)
	}
	schs, checks := compileScalarChecks(f)
	f.Fuzz(func(t *testing.T, text string) {
		text = strings.TrimSpace(text)
		if text == "" || !scalarText(text) {
			return
		}
		inst := libraryDecode(t, text)
		for i, c := range checks {
			if c != nil && c.accepts(text) && schs[i].Validate(inst) != nil {
				t.Errorf("%s: accepts %s, which the library finds invalid", scalarSchemas[i], text)
			}
		}
	})
}

// scalarText reports whether text is one valid JSON scalar with no white
// space around it, as the fast pass hands scalarChecks.
func scalarText(text string) bool {
	if !jsonValidString(text) || text[0] == '{' || text[0] == '[' {
		return false
	}
	return strings.TrimSpace(text) == text
}

func jsonValidString(s string) bool { return jsonvalid.Valid([]byte(s)) }

// libraryDecode decodes text as the library's own decoder does (not with
// instanceDecoder, whose unquoting scalarCheck shares).
func libraryDecode(t *testing.T, text string) any {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return inst
}
