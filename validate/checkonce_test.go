package validate

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The schema checks' fast pass (checkonce.go) may only say "valid" of a
// file the whole schema finds valid, however warm its memory of checked
// values is.

// fastPass runs the fast pass over data both ways a file is read (whole,
// and streamed when the schema splits) and fails the test when they
// disagree.
func fastPass(t *testing.T, o *onceSchema, seen *checkedValues, data []byte) bool {
	t.Helper()
	whole := seen.bytes(o, data)
	if o.stream == nil {
		return whole
	}
	streamed := seen.stream(o, iotest.HalfReader(bytes.NewReader(data)))
	if streamed != whole {
		t.Errorf("the fast pass says valid: %v read whole, %v streamed", whole, streamed)
	}
	return whole
}

// TestFastPassFindsWhatTheSchemaFinds: for edits of the seed's model file
// and index.json, most of them in values the fast pass checks once (a best
// configuration, the source block, an index point), the fast pass finds the
// file valid exactly when the whole schema does: with a memory that has
// seen every value of the files as built, and with an empty one.
func TestFastPassFindsWhatTheSchemaFinds(t *testing.T) {
	t.Parallel() // independent of the other tests, and long: the package ends make test
	b := idxBuild(t, idxSeedVersion)
	model := b.models["models/qwen-3-32b.json"]
	schs, errs := compiledSchemas()
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	warm := newCheckedValues()
	for _, f := range []struct {
		schema string
		data   []byte
	}{{"model.schema.json", model}, {"index.schema.json", b.index}} {
		if !fastPass(t, onceFor(f.schema), warm, f.data) {
			t.Fatalf("the fast pass finds the built %s invalid", f.schema)
		}
	}
	if warm.size() == 0 {
		t.Fatal("the fast pass kept no value")
	}
	// bestB200 is the start of the model file's best B200 entry, which
	// equals one of its configurations.
	const bestB200 = "\"best\": {\n    \"B200\": {\n      \"gpu\": \"B200\",\n      \"num_gpus\": 1,"
	for _, tc := range []struct {
		name, schema string
		data         []byte
		old, new     string // "" old: data as is
		valid        bool
		repeatedKey  bool // the fast pass leaves it to the whole schema
	}{
		{"model as built", "model.schema.json", model, "", "", true, false},
		{"index as built", "index.schema.json", b.index, "", "", true, false},
		{"index: a repeated key, the last right", "index.schema.json", b.index, `"version": "1",`, `"version": "2", "version": "1",`, true, true},
		{"index: a repeated key, the last wrong", "index.schema.json", b.index, `"version": "1",`, `"version": "1", "version": "2",`, false, true},
		{"model: a best entry no longer equal to its configuration, and invalid", "model.schema.json", model, bestB200, strings.Replace(bestB200, `"num_gpus": 1`, `"num_gpus": 0`, 1), false, false},
		{"model: a best entry with a figure as a string", "model.schema.json", model, bestB200, strings.Replace(bestB200, `"num_gpus": 1`, `"num_gpus": "1"`, 1), false, false},
		{"model: a best entry with a key too many", "model.schema.json", model, bestB200, strings.Replace(bestB200, `"num_gpus": 1,`, `"num_gpus": 1, "x": 1,`, 1), false, false},
		{"model: a best entry changed but still valid", "model.schema.json", model, bestB200, strings.Replace(bestB200, `"num_gpus": 1`, `"num_gpus": 3`, 1), true, false},
		{"model: a best entry's key not a GPU", "model.schema.json", model, `"best": {` + "\n    \"B200\"", `"best": {` + "\n    \"B 200 \"", false, false},
		{"model: the first configuration invalid", "model.schema.json", model, `"num_gpus": 1,`, `"num_gpus": -1,`, false, false},
		{"model: the source block without its URL", "model.schema.json", model, `"url": "https://ml.energy/leaderboard/",`, ``, false, false},
		{"model: the source block with a date that is not one", "model.schema.json", model, `"released": "2025-12-01"`, `"released": "2025-13-01"`, false, false},
		{"model: a repeated key in the source block, the last wrong", "model.schema.json", model, `"released": "2025-12-01",`, `"released": "2025-12-01", "released": 1,`, false, true},
		{"model: a repeated key in the source block, the last right", "model.schema.json", model, `"released": "2025-12-01",`, `"released": 1, "released": "2025-12-01",`, true, true},
		{"model: configurations not a list", "model.schema.json", model, `"configurations": [`, `"configurations": {"a": 1}, "x": [`, false, false},
		{"index: a comparison point with a key too many", "index.schema.json", b.index, `"h100": {` + "\n        \"row_id\"", `"h100": {"extra": 1,` + "\n        \"row_id\"", false, false},
		{"index: a load curve's point without its row", "index.schema.json", b.index, `"from": {` + "\n        \"row_id\"", `"from": {` + "\n        \"row_idx\"", false, false},
		{"index: a model's best configuration in another precision", "index.schema.json", b.index, `"precision": "BF16"`, `"precision": "INT4"`, false, false},
		{"index: cut short", "index.schema.json", b.index[:len(b.index)/2], "", "", false, false},
		{"index: data after the value", "index.schema.json", append(append([]byte(nil), b.index...), 'x'), "", "", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := tc.data
			if tc.old != "" {
				if !bytes.Contains(data, []byte(tc.old)) {
					t.Fatalf("no %q in the file", tc.old)
				}
				data = bytes.Replace(data, []byte(tc.old), []byte(tc.new), 1)
			}
			probs := validateSchema(schs[tc.schema], tc.schema, "f.json", data)
			if got := len(probs) == 0; got != tc.valid {
				t.Fatalf("the whole schema finds the file valid: %v, want %v (%v)", got, tc.valid, probs)
			}
			// The fast pass reads more strictly than the library: a file
			// with a repeated key is left to the whole schema.
			want := tc.valid && !tc.repeatedKey
			o := onceFor(tc.schema)
			if got := fastPass(t, o, warm, data); got != want {
				t.Errorf("the fast pass, warm, finds the file valid: %v; want %v (the whole schema: %v)", got, want, tc.valid)
			}
			if got := fastPass(t, o, newCheckedValues(), data); got != want {
				t.Errorf("the fast pass, cold, finds the file valid: %v; want %v (the whole schema: %v)", got, want, tc.valid)
			}
		})
	}
}

// wantFastPass checks doc by the fast pass with the memory seen: it must
// find it valid or not as valid says, and keep newForms more forms than
// *forms, which it then sets to the number kept.
func wantFastPass(t *testing.T, seen *checkedValues, o *onceSchema, doc string, valid bool, newForms int, forms *int) {
	t.Helper()
	if got := seen.bytes(o, []byte(doc)); got != valid {
		t.Errorf("the fast pass finds it valid: %v, want %v", got, valid)
	}
	if got := seen.size() - *forms; got != newForms {
		t.Errorf("%d new forms kept, want %d", got, newForms)
	}
	*forms = seen.size()
}

// compileTestOnce compiles a schema document's fast-pass form.
func compileTestOnce(t testing.TB, name, doc string) *onceSchema {
	t.Helper()
	d, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	o, err := compileOnce(name, d)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestCheckedValuesAreKeyedBySchema: a value found valid against one
// schema is checked again against a schema that differs in anything but
// its annotations, even in a $defs entry it only refers to; it is not
// against one that differs in its annotations only.
func TestCheckedValuesAreKeyedBySchema(t *testing.T) {
	doc := func(max int, description string) string {
		return fmt.Sprintf(`{"type": "object", "properties": {"x": {"$ref": "#/$defs/d"}},
			"$defs": {"d": {"type": "object", "description": %q, "properties": {"n": {"$ref": "#/$defs/n"}, "description": {"type": "string"}}},
			          "n": {"type": "integer", "maximum": %d}}}`, description, max)
	}
	five := compileTestOnce(t, "five.json", doc(5, "at most five"))
	fiveAgain := compileTestOnce(t, "five-again.json", doc(5, "other words"))
	three := compileTestOnce(t, "three.json", doc(3, "at most five"))
	// A property named "description" is not an annotation.
	named := compileTestOnce(t, "named.json", strings.Replace(doc(5, "at most five"), `"description": {"type": "string"}`, `"description": {"type": "number"}`, 1))
	for _, o := range []*onceSchema{five, fiveAgain, three, named} {
		if o == nil || len(o.sites) != 1 {
			t.Fatalf("want one site, got %+v", o)
		}
	}
	if five.sites[0].key != fiveAgain.sites[0].key {
		t.Errorf("schemas that differ only in a description have different keys")
	}
	if five.sites[0].key == three.sites[0].key || five.sites[0].key == named.sites[0].key {
		t.Errorf("schemas that decide differently have the same key")
	}
	seen := newCheckedValues()
	// n is on five's maximum: its scalarCheck (scalar.go) leaves it to the
	// library, and its text is kept by the leaf's schema.
	value := []byte(`{"x": {"n": 5, "description": "d"}}`)
	for _, tc := range []struct {
		name string
		o    *onceSchema
		want bool
	}{
		{"first check", five, true},
		{"same schema in other words", fiveAgain, true},
		{"a lower maximum in a $defs entry the site refers to", three, false},
		{"a property named description of another type", named, false},
		{"first schema again", five, true},
	} {
		if got := seen.bytes(tc.o, value); got != tc.want {
			t.Errorf("%s: valid %v, want %v", tc.name, got, tc.want)
		}
	}
	// The value found valid is kept by its text (the site is placed), and
	// so are n's text, its form with its leaves null (leaves.go), and the
	// file's form with the site's value null; the description's
	// scalarCheck accepts it, and its text is not kept.
	if seen.size() != 4 {
		t.Errorf("%d forms kept, want 4 (only the values found valid are kept)", seen.size())
	}
}

// TestSitesOnlyWhereTheyApplyPlainly: no site (but a leaf, leaves.go) is
// taken out of a schema where its value could be found other than by
// properties, items and additionalProperties alone, or where it is more
// than a $ref to an object schema in $defs.
func TestSitesOnlyWhereTheyApplyPlainly(t *testing.T) {
	const defs = `"$defs": {"d": {"type": "object", "required": ["n"]}, "s": {"type": "string"}, "loop": {"type": "object", "properties": {"next": {"$ref": "#/$defs/loop"}}}}`
	for _, tc := range []struct {
		name, doc string
		sites     int
	}{
		{"a property", `{"type": "object", "properties": {"a": {"$ref": "#/$defs/d"}}, ` + defs + `}`, 1},
		{"list items", `{"type": "object", "properties": {"a": {"type": "array", "items": {"$ref": "#/$defs/d", "description": "d"}}}, ` + defs + `}`, 1},
		{"additionalProperties", `{"type": "object", "additionalProperties": {"$ref": "#/$defs/d"}, ` + defs + `}`, 1},
		{"a $ref with a keyword beside it", `{"type": "object", "properties": {"a": {"$ref": "#/$defs/d", "required": ["m"]}}, ` + defs + `}`, 0},
		{"a $ref to a string schema", `{"type": "object", "properties": {"a": {"$ref": "#/$defs/s"}}, ` + defs + `}`, 0},
		{"a $ref to a schema that refers to itself", `{"type": "object", "properties": {"a": {"$ref": "#/$defs/loop"}}, ` + defs + `}`, 0},
		{"under anyOf", `{"anyOf": [{"type": "object", "properties": {"a": {"$ref": "#/$defs/d"}}}], ` + defs + `}`, 0},
		{"beside patternProperties", `{"type": "object", "patternProperties": {"^z": true}, "additionalProperties": {"$ref": "#/$defs/d"}, ` + defs + `}`, 0},
		{"beside prefixItems", `{"type": "array", "prefixItems": [true], "items": {"$ref": "#/$defs/d"}, ` + defs + `}`, 0},
		{"under unevaluatedProperties", `{"type": "object", "properties": {"a": {"$ref": "#/$defs/d"}}, "unevaluatedProperties": false, ` + defs + `}`, 0},
		{"beside a $ref to a property's schema", `{"type": "object", "properties": {"a": {"type": "object", "properties": {"x": {"$ref": "#/$defs/d"}}}, "b": {"$ref": "#/properties/a"}}, ` + defs + `}`, 0},
		{"beside a $ref to the root", `{"type": "object", "properties": {"x": {"$ref": "#/$defs/d"}, "kids": {"type": "array", "items": {"$ref": "#"}}}, ` + defs + `}`, 0},
		{"a $defs name the library reads as a pointer", `{"type": "object", "properties": {"x": {"$ref": "#/$defs/a~1b"}}, "$defs": {"a/b": {"type": "object"}, "a~1b": {"type": "object", "required": ["n"]}}}`, 0},
		{"under a schema with an $id", `{"type": "object", "properties": {"a": {"$id": "https://x.invalid/a", "type": "object", "properties": {"b": {"$ref": "#/$defs/d"}}}}, ` + defs + `}`, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := compileTestOnce(t, "t.json", tc.doc)
			n := 0
			if o != nil {
				for _, st := range o.sites {
					if st.leaf == nil {
						n++
					}
				}
			}
			if n != tc.sites {
				t.Errorf("%d sites, want %d: %v", n, tc.sites, sitePaths(o.sites))
			}
		})
	}
}

// TestFastPassAdditionalProperties: additionalProperties' site applies to
// the members properties does not list, and only to them.
func TestFastPassAdditionalProperties(t *testing.T) {
	o := compileTestOnce(t, "ap.json", `{"type": "object", "properties": {"listed": {"type": "integer"}},
		"additionalProperties": {"$ref": "#/$defs/d"}, "$defs": {"d": {"type": "object", "required": ["n"]}}}`)
	for _, tc := range []struct {
		doc  string
		want bool
	}{
		{`{"listed": 1, "other": {"n": 1}}`, true},
		{`{"listed": 1, "other": {"m": 1}}`, false},
		{`{"listed": {"m": 1}}`, false},
	} {
		if got := newCheckedValues().bytes(o, []byte(tc.doc)); got != tc.want {
			t.Errorf("%s: valid %v, want %v", tc.doc, got, tc.want)
		}
	}
}

// TestSchemasSites: the published schemas' sites, as the fast pass finds
// them (a path of properties, "[]" for a list's entries and "{}" for an
// object's other members, then the $defs entry). A schema edit that loses
// one makes the checks slower, not weaker; this says so.
func TestSchemasSites(t *testing.T) {
	want := map[string][]string{
		"carbon.schema.json":      {"files[] FileRef", "rows[] CarbonRow"},
		"grid.schema.json":        {"areas[] area"},
		"index.schema.json":       {"gpu_comparisons[].b200 row", "gpu_comparisons[].h100 row", "load_curves[].from row", "load_curves[].to row", "models[].best{} configuration", "task_comparisons[].problem_solving task_row", "task_comparisons[].text_conversation task_row"},
		"list-grids.schema.json":  {"areas[] GridArea"},
		"list-models.schema.json": {"models[] ModelSummary"},
		"manifest.schema.json":    {"exclusions[] exclusion", "outputs[] file", "sources[] source"},
		"model.schema.json":       {"best{} configuration", "configurations[] configuration", "source source"},
	}
	compiledSchemas()
	got := map[string][]string{}
	for name, o := range compiled.fast {
		for _, p := range sitePaths(o.sites) {
			if !strings.HasSuffix(p, " leaf") {
				got[name] = append(got[name], p)
			}
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sites (-want +got):\n%s", diff)
	}
	// Every site of the published schemas is placed: its values are taken
	// raw (placed.go).
	for name, o := range compiled.fast {
		for _, st := range o.sites {
			if !st.placed {
				t.Errorf("%s: the site %v (%s) is not placed", name, st.steps, st.def)
			}
		}
	}
	if o := onceFor("index.schema.json"); o == nil || o.stream == nil {
		t.Errorf("index.json's fast pass is not streamed")
	}
	// A load curve's past, null or a row, takes a row as the rows of from
	// and to are taken (site.alt).
	var alts []string
	for name, o := range compiled.fast {
		for _, st := range o.sites {
			for _, a := range st.alt {
				alts = append(alts, fmt.Sprintf("%s %s %s", name, sitePaths([]site{st})[0], a.def))
			}
		}
	}
	if diff := cmp.Diff([]string{"index.schema.json load_curves[].past leaf row"}, alts); diff != "" {
		t.Errorf("leaves with an objectBranch (-want +got):\n%s", diff)
	}
}

// TestCanonKeyOrders: canon's cache of sorted keys gives each object its
// own keys, whatever objects of the same size it met before: equal values
// have equal forms, and values that differ in a key or a value do not.
func TestCanonKeyOrders(t *testing.T) {
	d := newInstanceDecoder()
	vals := []any{
		d.decode([]byte(`{"a": 1, "b": 2, "c": 3}`)),
		d.decode([]byte(`{"c": 3, "b": 2, "a": 1}`)), // equal to the first
		d.decode([]byte(`{"a": 1, "b": 2, "d": 3}`)),
		d.decode([]byte(`{"a": 1, "b": 2, "c": 4}`)),
		d.decode([]byte(`{"x": {"a": 1, "b": 2, "c": 3}, "y": [{"a": 1, "b": 2, "d": 3}]}`)),
		d.decode([]byte(`{"x": {"a": 1, "b": 2, "d": 3}, "y": [{"a": 1, "b": 2, "c": 3}]}`)),
		d.decode([]byte(`{"a": 1, "b": 2}`)),
		d.decode([]byte(`{"a": "1", "b": 2}`)),
	}
	var cached keyOrders
	forms := make([]string, len(vals))
	for i, v := range vals {
		b, ok := cached.canon(nil, v)
		fresh, _ := canon(nil, v)
		if !ok || !bytes.Equal(b, fresh) {
			t.Fatalf("value %d: cached form %q, fresh form %q", i, b, fresh)
		}
		forms[i] = string(b)
	}
	for i := range forms {
		for j := i + 1; j < len(forms); j++ {
			if equal := forms[i] == forms[j]; equal != (i == 0 && j == 1) {
				t.Errorf("values %d and %d: equal forms %v", i, j, equal)
			}
		}
	}
}

// sitePaths names sites as TestSchemasSites lists them: a path of
// properties, "[]" for a list's entries and "{}" for an object's other
// members, then the $defs entry, or "leaf"; sorted.
func sitePaths(sites []site) []string {
	var paths []string
	for _, st := range sites {
		var p strings.Builder
		for _, s := range st.steps {
			switch s.kind {
			case 'p':
				if p.Len() > 0 {
					p.WriteString(".")
				}
				p.WriteString(s.name)
			case 'i':
				p.WriteString("[]")
			case 'a':
				p.WriteString("{}")
			}
		}
		if st.leaf != nil {
			paths = append(paths, p.String()+" leaf")
		} else {
			paths = append(paths, p.String()+" "+st.def)
		}
	}
	slices.Sort(paths)
	return paths
}
