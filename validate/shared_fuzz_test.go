package validate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sharedSchemas are schemas checked with one memory in
// FuzzFastPassSharedMemory: two that differ only in their $defs entries'
// bounds, two other drafts, an array at the root; propertyNames and
// dependentRequired on the way, additionalProperties false and leaves
// under additionalProperties beside properties, a $ref with a keyword
// beside it, true and false subschemas, and a $defs entry of the
// document's own named as the fast pass names its leaves (fast-leaf-1).
// (Written by the review of the leaves, 2026-12-01.)
var sharedSchemas = []string{
	`{"type":"object","propertyNames":{"maxLength":3},"dependentRequired":{"a":["b"]},"required":["a"],
	 "properties":{"a":{"type":"integer","multipleOf":2},"b":{"enum":[1,"1",[1]]},"c":{"$ref":"#/$defs/fast-leaf-1"},
	   "d":{"type":"array","items":{"$ref":"#/$defs/o"}},"e":true,"h":false,
	   "f":{"type":"object","properties":{"g":{"const":1}},"additionalProperties":false}},
	 "additionalProperties":{"type":"string","maxLength":2},
	 "$defs":{"fast-leaf-1":{"type":"number","maximum":3},
	   "o":{"type":"object","properties":{"x":{"$ref":"#/$defs/fast-leaf-1"},"y":{"type":"object","properties":{"z":{"minimum":0}},"maxProperties":1},"w":{"$ref":"#/$defs/o2"}},
	        "additionalProperties":{"const":1},"propertyNames":{"pattern":"^[a-z]$"},"minProperties":1},
	   "o2":{"type":"object","required":["q"],"properties":{"q":{"type":"string"}}}}}`,
	`{"type":"object","propertyNames":{"maxLength":3},"dependentRequired":{"a":["b"]},"required":["a"],
	 "properties":{"a":{"type":"integer","multipleOf":2},"b":{"enum":[1,"1",[1]]},"c":{"$ref":"#/$defs/fast-leaf-1"},
	   "d":{"type":"array","items":{"$ref":"#/$defs/o"}},"e":true,"h":false,
	   "f":{"type":"object","properties":{"g":{"const":1}},"additionalProperties":false}},
	 "additionalProperties":{"type":"string","maxLength":2},
	 "$defs":{"fast-leaf-1":{"type":"number","maximum":2},
	   "o":{"type":"object","properties":{"x":{"$ref":"#/$defs/fast-leaf-1"},"y":{"type":"object","properties":{"z":{"minimum":1}},"maxProperties":1},"w":{"$ref":"#/$defs/o2"}},
	        "additionalProperties":{"const":1},"propertyNames":{"pattern":"^[a-z]$"},"minProperties":1},
	   "o2":{"type":"object","required":["q"],"properties":{"q":{"type":"string","maxLength":1}}}}}`,
	`{"$schema":"https://json-schema.org/draft/2019-09/schema","type":"object","required":["a"],
	 "properties":{"a":{"type":"integer","multipleOf":2},"c":{"$ref":"#/$defs/fast-leaf-1","maximum":1},
	   "d":{"type":"array","items":{"$ref":"#/$defs/o"}}},
	 "$defs":{"fast-leaf-1":{"type":"number","maximum":3},
	   "o":{"type":"object","properties":{"x":{"$ref":"#/$defs/fast-leaf-1"},"y":{"type":"object","properties":{"z":{"minimum":0}},"maxProperties":1}},
	        "additionalProperties":{"const":1},"minProperties":1}}}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","required":["a"],
	 "properties":{"a":{"type":"integer","multipleOf":2},"c":{"$ref":"#/$defs/fast-leaf-1","maximum":1},
	   "d":{"type":"array","items":{"$ref":"#/$defs/o"}}},
	 "$defs":{"fast-leaf-1":{"type":"number","maximum":3},
	   "o":{"type":"object","properties":{"x":{"$ref":"#/$defs/fast-leaf-1"},"y":{"type":"object","properties":{"z":{"minimum":0}},"maxProperties":1}},
	        "additionalProperties":{"const":1},"minProperties":1}}}`,
	`{"type":"array","items":{"type":"object","properties":{"d":{"type":"array","items":{"$ref":"#/$defs/o"}},"a":{"type":"integer","multipleOf":2}},"additionalProperties":{"$ref":"#/$defs/o"},"dependentRequired":{"d":["a"]}},
	 "$defs":{"fast-leaf-1":{"type":"number","maximum":3},
	   "o":{"type":"object","properties":{"x":{"$ref":"#/$defs/fast-leaf-1"},"y":{"type":"object","properties":{"z":{"minimum":0}},"maxProperties":1}},
	        "additionalProperties":{"const":1},"minProperties":1}}}`,
}

// FuzzFastPassSharedMemory: over schemas that share one memory of the
// values found valid, as the files of a snapshot do, the fast pass (whole
// and streamed, warm and cold) never finds valid what the whole schema
// finds invalid.
func FuzzFastPassSharedMemory(f *testing.F) {
	for _, s := range []string{
		`{"a": 2, "b": 1, "c": 3, "d": [{"x": 1, "y": {"z": 0}, "w": {"q": "ab"}}], "f": {"g": 1}, "zz": "ab"}`,
		`{"a": 2, "b": "1", "c": 2.5, "d": [{"x": 1.0, "y": {"z": -1}, "k": 1}], "f": {}}`,
		`{"a": 4, "b": [1], "d": [{"x": 3, "y": {"z": 0, "z": 1}}, {"x": 3}], "\u0061": 2}`,
		`[{"d": [{"x": 1}], "a": 2, "q": {"x": 2, "y": {}}}, {"r": {"x": 4}}]`,
		`{"a": 2, "b": 1, "d": [{"w": {"q": "a"}, "x": 2}, {"w": {"q": "ab"}, "x": 2}]}`,
	} {
		f.Add(s)
	}
	type schema struct {
		whole *jsonschema.Schema
		once  *onceSchema
	}
	var schs []schema
	for i, doc := range sharedSchemas {
		o := compileTestOnce(f, fmt.Sprintf("shared%d.json", i), doc)
		if o == nil {
			f.Fatalf("schema %d: no sites", i)
		}
		schs = append(schs, schema{compileTestSchema(f, doc), o})
	}
	warm := newCheckedValues()
	f.Fuzz(func(t *testing.T, text string) {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
		if err != nil {
			return
		}
		for i, sch := range schs {
			neverLenient(t, i, sch.whole, sch.once, warm, inst, text)
		}
	})
}
