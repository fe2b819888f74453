package validate

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestLeavesWhereTheWayIsClean: leaves are found at the ends of the walk
// on a clean way, at the file's root and inside a placed site's $defs
// entry (where a $ref to an object schema is a leaf, and an object schema
// written out is walked into), and nowhere below a keyword that sees its
// members' values.
func TestLeavesWhereTheWayIsClean(t *testing.T) {
	o := compileTestOnce(t, "t.json", `{"type": "object",
	  "properties": {
	    "n": {"type": "integer", "minimum": 1},
	    "s": {"$ref": "#/$defs/s"},
	    "obj": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "number"}},
	    "xs": {"type": "array", "items": {"$ref": "#/$defs/d"}},
	    "u": {"type": "array", "uniqueItems": true, "items": {"$ref": "#/$defs/d"}},
	    "any": {"anyOf": [{"type": "object", "properties": {"z": {"type": "string"}}}]},
	    "b": true
	  },
	  "$defs": {
	    "s": {"type": "string", "pattern": "^x"},
	    "e": {"type": "object", "required": ["k"], "properties": {"k": {"type": "integer"}}},
	    "d": {"type": "object", "additionalProperties": false, "properties": {
	      "k": {"type": "integer", "maximum": 5},
	      "e": {"$ref": "#/$defs/e"},
	      "w": {"type": "object", "properties": {"x": {"type": "string"}}},
	      "c": {"type": "array", "contains": {"type": "object", "properties": {"y": {"type": "string"}}}}
	    }}
	  }}`)
	if o == nil {
		t.Fatal("no site")
	}
	want := []string{"any leaf", "n leaf", "obj.a leaf", "obj{} leaf", "s leaf", "u leaf", "xs[] d"}
	if diff := cmp.Diff(want, sitePaths(o.sites)); diff != "" {
		t.Errorf("sites (-want +got):\n%s", diff)
	}
	for _, st := range o.sites {
		if !st.placed {
			t.Errorf("%v is not placed", st.steps)
		}
		if st.def != "d" {
			continue
		}
		if diff := cmp.Diff([]string{"c leaf", "e leaf", "k leaf", "w.x leaf"}, sitePaths(st.inner)); diff != "" {
			t.Errorf("d's leaves (-want +got):\n%s", diff)
		}
		if st.shell == nil || st.innerTree == nil {
			t.Errorf("d's shell or its leaves' tree is missing")
		}
	}
}

// TestLeavesDecideAsTheWholeSchema: a file whose only fault is in a leaf,
// at the root or inside a site's value, is found invalid by the fast pass,
// cold and after its valid twin, whose leaves it shares but one.
func TestLeavesDecideAsTheWholeSchema(t *testing.T) {
	const doc = `{"type": "object", "properties": {
	    "n": {"type": "integer", "minimum": 1},
	    "xs": {"type": "array", "items": {"$ref": "#/$defs/d"}}},
	  "$defs": {
	    "e": {"type": "object", "required": ["k"]},
	    "d": {"type": "object", "required": ["k"], "additionalProperties": false, "properties": {
	      "k": {"type": "number", "multipleOf": 0.5},
	      "e": {"$ref": "#/$defs/e"},
	      "w": {"type": "object", "properties": {"x": {"type": "string", "maxLength": 2}}}}}}}`
	o := compileTestOnce(t, "t.json", doc)
	whole := compileTestSchema(t, doc)
	for _, tc := range []struct {
		name, valid, invalid string
	}{
		{"a leaf at the root", `{"n": 1}`, `{"n": 0}`},
		{"a number leaf in a site", `{"xs": [{"k": 1.5}]}`, `{"xs": [{"k": 1.25}]}`},
		{"a $ref leaf in a site", `{"xs": [{"k": 1, "e": {"k": 1}}]}`, `{"xs": [{"k": 1, "e": {"j": 1}}]}`},
		{"a leaf walked into in a site", `{"xs": [{"k": 1, "w": {"x": "ab"}}]}`, `{"xs": [{"k": 1, "w": {"x": "abc"}}]}`},
		{"a member the site's schema does not allow", `{"xs": [{"k": 1}]}`, `{"xs": [{"k": 1, "z": 1}]}`},
		{"a leaf of the wrong type", `{"xs": [{"k": 1, "w": {"x": "ab"}}]}`, `{"xs": [{"k": 1, "w": {"x": 2}}]}`},
		{"a leaf missing", `{"xs": [{"k": 1}]}`, `{"xs": [{"e": {"k": 1}}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for text, want := range map[string]bool{tc.valid: true, tc.invalid: false} {
				if got := whole.Validate(newInstanceDecoder().decode([]byte(text))) == nil; got != want {
					t.Fatalf("the whole schema finds %s valid: %v, want %v", text, got, want)
				}
			}
			warm := newCheckedValues()
			if !warm.bytes(o, []byte(tc.valid)) {
				t.Errorf("the fast pass finds %s invalid", tc.valid)
			}
			for _, seen := range []*checkedValues{warm, newCheckedValues()} {
				if seen.bytes(o, []byte(tc.invalid)) {
					t.Errorf("the fast pass finds %s valid", tc.invalid)
				}
			}
		})
	}
}

// TestSchemasLeaves: every member of every placed site's $defs entry in
// the published schemas is a leaf or holds leaves, and every member of
// index.json's models[] entries but best (a map of sites) is a leaf.
func TestSchemasLeaves(t *testing.T) {
	compiledSchemas()
	for name, o := range compiled.fast {
		defs, _ := schemaDoc(t, name)["$defs"].(map[string]any)
		for _, st := range o.sites {
			if st.leaf != nil {
				continue
			}
			props, _ := defs[st.def].(map[string]any)["properties"].(map[string]any)
			want := slices.Sorted(maps.Keys(props))
			var members []string // the members the leaves are in
			for _, p := range sitePaths(st.inner) {
				if !strings.HasSuffix(p, " leaf") {
					t.Errorf("%s: %s has a site %q that is no leaf", name, st.def, p)
				}
				if m := p[:strings.IndexAny(p, ".[{ ")]; !slices.Contains(members, m) {
					members = append(members, m)
				}
			}
			if diff := cmp.Diff(want, members); diff != "" {
				t.Errorf("%s: %s's leaves (-want +got):\n%s", name, st.def, diff)
			}
		}
	}
	var got []string
	for _, p := range sitePaths(onceFor("index.schema.json").sites) {
		if rest, ok := strings.CutPrefix(p, "models[]."); ok {
			got = append(got, rest)
		}
	}
	want := []string{"active_params_b leaf", "architecture leaf", "best{} configuration", "configurations leaf", "file leaf", "gpus leaf", "model_id leaf", "name leaf", "params_b leaf", "slug leaf"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("index.json's models[] (-want +got):\n%s", diff)
	}
}

// TestRestKeyedBySchema: a file's rest, and a split list's entry, with
// their sites' values null, are found again only against a schema of the
// same content: another root $id shares, another required or $schema does
// not.
func TestRestKeyedBySchema(t *testing.T) {
	const root = `{%s"type": "object", "required": %s, "properties": {"a": {"type": "integer"},
	  "xs": {"type": "array", "items": {"type": "object", "required": %s, "properties": {"n": {"type": "integer"}}}}}}`
	doc := func(head, required, itemRequired string) *onceSchema {
		return compileTestOnce(t, "r.json", fmt.Sprintf(root, head, required, itemRequired))
	}
	a := doc("", `["a"]`, `["n"]`)
	for _, tc := range []struct {
		name       string
		o          *onceSchema
		same       bool // the rest's key is a's
		sameEntry  bool // the entries' key is a's
		valid      bool // {"a": 1, "xs": [{"n": 1}]}, after a found it valid
		validWhole bool // the same, read whole
	}{
		{"an $id", doc(`"$id": "https://x.invalid/r.json", `, `["a"]`, `["n"]`), true, true, true, true},
		{"another required", doc("", `["a", "b"]`, `["n"]`), false, true, false, false},
		{"another required in the entries", doc("", `["a"]`, `["n", "m"]`), false, false, false, false},
		{"another $schema", doc(`"$schema": "https://json-schema.org/draft/2019-09/schema", `, `["a"]`, `["n"]`), false, false, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.o.wholeSite.key == a.wholeSite.key; got != tc.same {
				t.Errorf("the same key for the whole file: %v, want %v", got, tc.same)
			}
			if got := tc.o.itemSites["xs"].key == a.itemSites["xs"].key; got != tc.sameEntry {
				t.Errorf("the same key for an entry: %v, want %v", got, tc.sameEntry)
			}
			const file = `{"a": 1, "xs": [{"n": 1}]}`
			seen := newCheckedValues()
			if !seen.bytes(a, []byte(file)) || !seen.stream(a, strings.NewReader(file)) {
				t.Fatalf("a finds %s invalid", file)
			}
			if got := seen.bytes(tc.o, []byte(file)); got != tc.validWhole {
				t.Errorf("valid, read whole: %v, want %v", got, tc.validWhole)
			}
			if got := seen.stream(tc.o, strings.NewReader(file)); got != tc.valid {
				t.Errorf("valid, streamed: %v, want %v", got, tc.valid)
			}
		})
	}
}

// TestUnknownKeywordsMakeNoKey: a schema with a keyword canonSchema does
// not know to hold no subschema (draft 7's dependencies, which the library
// compiles as subschemas in every draft) has no key, so two documents
// whose dependencies refer to different $defs entries never share a
// verdict (found by the review: the second was found valid after the
// first).
func TestUnknownKeywordsMakeNoKey(t *testing.T) {
	doc := func(x string) string {
		return `{"type": "object", "properties": {"v": {"dependencies": {"a": {"$ref": "#/$defs/X"}}}}, "$defs": {"X": ` + x + `}}`
	}
	lax, strict := doc(`{}`), doc(`{"required": ["b"]}`)
	const inst = `{"v": {"a": 1}}`
	if compileTestSchema(t, strict).Validate(newInstanceDecoder().decode([]byte(inst))) == nil {
		t.Fatal("the whole strict schema finds the value valid")
	}
	seen := newCheckedValues()
	if o := compileTestOnce(t, "lax.json", lax); o != nil && !seen.bytes(o, []byte(inst)) {
		t.Fatal("the lax schema's fast pass finds the value invalid")
	}
	if o := compileTestOnce(t, "strict.json", strict); o != nil && seen.bytes(o, []byte(inst)) {
		t.Errorf("after the lax schema, the strict schema's fast pass finds the value valid")
	}
	// A root with such a keyword is checked whole against each file's rest.
	o := compileTestOnce(t, "root.json", `{"type": "object", "dependencies": {"a": ["b"]},
	  "properties": {"x": {"$ref": "#/$defs/d"}}, "$defs": {"d": {"type": "object", "required": ["n"]}}}`)
	if o == nil || !o.wholeSite.unkeyed {
		t.Fatalf("the root with dependencies has a key (or no fast pass)")
	}
	for text, want := range map[string]bool{`{"a": 1, "x": {"n": 1}}`: false, `{"a": 1, "b": 1, "x": {"n": 1}}`: true, `{"a": 1, "b": 1, "x": {}}`: false} {
		for range 2 { // cold, then with the first verdict remembered if it were
			if got := seen.bytes(o, []byte(text)); got != want {
				t.Errorf("%s: valid %v, want %v", text, got, want)
			}
		}
	}
	// Another such root shares nothing with it.
	other := compileTestOnce(t, "root2.json", `{"type": "object", "dependencies": {"a": ["c"]},
	  "properties": {"x": {"$ref": "#/$defs/d"}}, "$defs": {"d": {"type": "object", "required": ["n"]}}}`)
	if seen.bytes(other, []byte(`{"a": 1, "b": 1, "x": {"n": 1}}`)) {
		t.Errorf("a file valid against one root with dependencies is found valid against another")
	}
	for _, s := range []string{`{"dependencies": {}}`, `{"definitions": {}}`, `{"x-custom": 1}`, `{"additionalItems": false}`} {
		m, err := jsonschema.UnmarshalJSON(strings.NewReader(s))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := canonSchema(nil, m, nil, 0); ok {
			t.Errorf("%s: canonSchema takes its form", s)
		}
	}
}

// TestDraft4HasNoFastPass: a draft 4 document with a site compiles,
// without a fast pass (the shell's true subschemas fail draft 4's
// metaschema), and its whole schema still decides.
func TestDraft4HasNoFastPass(t *testing.T) {
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(`{"$schema": "http://json-schema.org/draft-04/schema#", "type": "object",
	  "properties": {"n": {"type": "integer", "minimum": 1}}}`))
	if err != nil {
		t.Fatal(err)
	}
	sch, _, o, err := compileDoc("d4.json", doc)
	if err != nil {
		t.Fatal(err)
	}
	if o != nil {
		t.Errorf("a fast pass for a draft 4 document")
	}
	if sch.Validate(newInstanceDecoder().decode([]byte(`{"n": 0}`))) == nil {
		t.Errorf("the whole schema finds n = 0 valid")
	}
}

// TestRepeatedKeysNeverLenient: with a name given twice (the whole check
// takes the last value), the fast pass, read whole and streamed, never
// finds valid what the whole schema finds invalid; it may find invalid
// what it finds valid (each value taken raw at a leaf is checked), which
// sends the file to the whole check.
func TestRepeatedKeysNeverLenient(t *testing.T) {
	const doc = `{"type": "object", "properties": {"n": {"type": "integer", "maximum": 3},
	  "xs": {"type": "array", "items": {"type": "object", "properties": {"k": {"type": "string"}}}}}}`
	o, whole := compileTestOnce(t, "r.json", doc), compileTestSchema(t, doc)
	for _, text := range []string{
		`{"n": 9, "n": 1, "xs": [{"k": 1, "k": "a"}]}`,
		`{"n": 1, "n": 9, "xs": []}`,
		`{"n": 1, "xs": [{"k": "a", "k": 1}]}`,
		`{"xs": [], "n": 1, "xs": [{"k": 2}]}`,
	} {
		want := whole.Validate(newInstanceDecoder().decode([]byte(text))) == nil
		if got := newCheckedValues().bytes(o, []byte(text)); got && !want {
			t.Errorf("%s: the fast pass finds it valid, the whole schema does not", text)
		}
		if got := newCheckedValues().stream(o, strings.NewReader(text)); got && !want {
			t.Errorf("%s: streamed, the fast pass finds it valid, the whole schema does not", text)
		}
	}
}

// TestObjectBranch: a leaf's oneOf or anyOf whose only branch an object
// can meet is a site's schema takes that branch for objects (site.alt);
// no other leaf does.
func TestObjectBranch(t *testing.T) {
	defs := `"$defs": {"d": {"type": "object", "additionalProperties": false, "properties": {"n": {"type": "integer", "maximum": 5}, "s": {"type": "string", "maxLength": 3}}},
	  "e": {"type": "object", "properties": {"k": {"type": "integer"}}}}`
	for _, tc := range []struct {
		leaf string
		alt  bool
	}{
		{`{"oneOf": [{"type": "null"}, {"$ref": "#/$defs/d"}]}`, true},
		{`{"description": "x", "anyOf": [{"type": ["null", "string"], "title": "t"}, {"$ref": "#/$defs/d"}]}`, true},
		{`{"oneOf": [{"$ref": "#/$defs/d"}]}`, true},
		{`{"oneOf": [{"type": "object"}, {"$ref": "#/$defs/d"}]}`, false},
		{`{"oneOf": [{"type": ["null", "object"]}, {"$ref": "#/$defs/d"}]}`, false},
		{`{"oneOf": [{"$ref": "#/$defs/e"}, {"$ref": "#/$defs/d"}]}`, false},
		{`{"oneOf": [{"type": "null", "minimum": 1}, {"$ref": "#/$defs/d"}]}`, false},
		{`{"oneOf": [{}, {"$ref": "#/$defs/d"}]}`, false},
		{`{"oneOf": [{"type": "null"}, {"$ref": "#/$defs/d"}], "minProperties": 1}`, false},
		{`{"oneOf": [{"type": "null"}, {"$ref": "#/$defs/d"}], "anyOf": [{"$ref": "#/$defs/d"}]}`, false},
		{`{"oneOf": [{"type": "null"}, {"$ref": "#/$defs/d", "maxProperties": 1}]}`, false},
		{`{"allOf": [{"type": "null"}, {"$ref": "#/$defs/d"}]}`, false},
	} {
		t.Run(tc.leaf, func(t *testing.T) {
			o := compileTestOnce(t, "t.json", `{"type": "object", "properties": {"p": `+tc.leaf+`, "xs": {"type": "array", "items": {"$ref": "#/$defs/d"}}}, `+defs+`}`)
			var p *site
			for i := range o.sites {
				if o.sites[i].leaf != nil && o.sites[i].steps[0].name == "p" {
					p = &o.sites[i]
				}
			}
			if p == nil {
				t.Fatalf("p is not a leaf: %v", sitePaths(o.sites))
			}
			if got := len(p.alt) == 1; got != tc.alt {
				t.Fatalf("alt: %v, want %v", got, tc.alt)
			}
			if tc.alt && (p.alt[0].def != "d" || p.alt[0].sch == nil || p.alt[0].shell == nil || p.alt[0].key != o.sites[1].key) {
				t.Errorf("the alt is not d's site as xs[]'s is: %+v", p.alt[0])
			}
		})
	}
}

// TestObjectBranchDecidesAsTheLeaf: an object at a leaf with an
// objectBranch is found valid or invalid as the whole schema finds it, and
// one seen before at a site of its branch's schema is not checked again.
func TestObjectBranchDecidesAsTheLeaf(t *testing.T) {
	doc := `{"type": "object", "properties": {
	    "p": {"oneOf": [{"type": "null"}, {"$ref": "#/$defs/d"}]},
	    "xs": {"type": "array", "items": {"$ref": "#/$defs/d"}}},
	  "$defs": {"d": {"type": "object", "additionalProperties": false, "required": ["n"], "properties": {"n": {"type": "integer", "maximum": 5}, "s": {"type": "string", "maxLength": 3}}}}}`
	o := compileTestOnce(t, "t.json", doc)
	whole := compileTestSchema(t, doc)
	seen := newCheckedValues()
	if !seen.bytes(o, []byte(`{"xs": [{"n": 1, "s": "abc"}]}`)) {
		t.Fatal("the first file is found invalid")
	}
	forms := seen.size()
	for _, tc := range []struct {
		doc      string
		valid    bool
		newForms int
	}{
		// The rest of the file has a new form (p is in it); p's value was
		// seen at xs[], and is not checked again.
		{`{"xs": [{"n": 1, "s": "abc"}], "p": {"n": 1, "s": "abc"}}`, true, 1},
		{`{"xs": [], "p": {"n": 1, "s": "abc"}}`, true, 1}, // xs empty: a new form
		// Its form with its leaves null (names n) is valid and kept; n is not.
		{`{"xs": [], "p": {"n": 9}}`, false, 1},
		{`{"xs": [], "p": {"n": 1, "s": "abcd"}}`, false, 0},
		{`{"xs": [], "p": {"n": 1, "t": 1}}`, false, 0},
		{`{"xs": [], "p": {"s": "a"}}`, false, 0},
		{`{"xs": [], "p": null}`, true, 1}, // null's text at the leaf
		{`{"xs": [], "p": "x"}`, false, 0},
		{`{"xs": [], "p": [{"n": 1}]}`, false, 0},
		// A new value: its text; its form (names n and s) was seen, and its
		// leaves' texts are accepted by their scalarChecks.
		{`{"xs": [], "p": {"s": "ab", "n": 2}}`, true, 1},
	} {
		t.Run(tc.doc, func(t *testing.T) {
			if got := whole.Validate(newInstanceDecoder().decode([]byte(tc.doc))) == nil; got != tc.valid {
				t.Fatalf("the whole schema finds it valid: %v, want %v", got, tc.valid)
			}
			wantFastPass(t, seen, o, tc.doc, tc.valid, tc.newForms, &forms)
		})
	}
}

// TestNestedObjectBranch: a leaf with an objectBranch inside a site's
// $defs entry, whose branch has leaves of its own, is decided as the whole
// schema decides it (it recursed without end: found by a review). Its alt
// has no leaves: checkLeaves does not nest.
func TestNestedObjectBranch(t *testing.T) {
	doc := `{"type":"object","properties":{"x":{"$ref":"#/$defs/a"}},
	  "$defs":{"a":{"type":"object","properties":{"p":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/b"}]}, "z": {"type": "integer"}}},
	    "b":{"type":"object","properties":{"q":{"type":"integer"}, "r": {"type": "string"}}}}}`
	o := compileTestOnce(t, "n.json", doc)
	whole := compileTestSchema(t, doc)
	seen := newCheckedValues()
	for _, text := range []string{`{"x": {"p": {"q": 1}, "z": 1}}`, `{"x": {"p": {"q": "s"}}}`, `{"x": {"z": "s", "p": {"q": 2, "r": "t"}}}`, `{"x": {"p": null}}`, `{"x": {"p": {"q": 1}, "z": 1}}`} {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		valid := whole.Validate(inst) == nil
		for _, s := range []*checkedValues{seen, newCheckedValues()} {
			if got := s.bytes(o, []byte(text)); got != valid {
				t.Errorf("%s: the fast pass finds it valid: %v, the whole schema %v", text, got, valid)
			}
		}
	}
	alts := 0
	for _, st := range o.sites {
		for _, in := range st.inner {
			for _, a := range in.alt {
				alts++
				if len(a.inner) != 0 {
					t.Errorf("an inner leaf's alt (%s) has leaves", a.def)
				}
			}
		}
	}
	if alts != 1 {
		t.Errorf("%d inner leaves with an objectBranch, want 1", alts)
	}
}

// TestTypeOnlyNotObject: a branch an object cannot meet is one or more
// JSON types, none of them "object"; an empty list or an unknown name
// (which the metaschemas refuse, and the library would leave out) is not.
func TestTypeOnlyNotObject(t *testing.T) {
	for _, tc := range []struct {
		branch string
		want   bool
	}{
		{`{"type": "null"}`, true},
		{`{"type": ["null", "string"], "description": "d"}`, true},
		{`{"type": "object"}`, false},
		{`{"type": ["null", "object"]}`, false},
		{`{"type": []}`, false},
		{`{"type": ["thing"]}`, false},
		{`{"type": [1]}`, false},
		{`{"type": "null", "minimum": 1}`, false},
		{`{}`, false},
	} {
		var m map[string]any
		if err := json.Unmarshal([]byte(tc.branch), &m); err != nil {
			t.Fatal(err)
		}
		if got := typeOnlyNotObject(m); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.branch, got, tc.want)
		}
	}
}
