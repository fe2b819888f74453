package validate

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/leadgreen/greentokens/schemas"
)

// schemaRoutes maps snapshot paths (path.Match patterns) to the schema
// that checks them.
var schemaRoutes = []struct{ pattern, schema string }{
	{ManifestPath, "manifest.schema.json"},
	{"models/*.json", "model.schema.json"},
	{"grid.json", "grid.schema.json"},
	{"index.json", "index.schema.json"},
	{"tasks/*/index.json", "task-index.schema.json"},
	{"tasks/*/models/*.json", "task-model.schema.json"},
	{exportsPackage, "datapackage.schema.json"},
	{exportsCo2js, "co2js-average-intensities.schema.json"},
}

// compiledSchemas compiles every embedded schema, once, as draft 2020-12
// with format assertions on, under a base URL nothing is fetched from. An
// embedded schema compiles (TestSchemasCompile), as a regexp literal does.
var compiledSchemas = sync.OnceValue(func() map[string]*jsonschema.Schema {
	const base = "https://schemas.greentokens.invalid/"
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	schs := map[string]*jsonschema.Schema{}
	for _, name := range schemas.Names() {
		b, err := schemas.Read(name)
		if err != nil {
			panic(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err == nil {
			err = c.AddResource(base+name, doc)
		}
		if err == nil {
			schs[name], err = c.Compile(base + name)
		}
		if err != nil {
			panic(fmt.Sprintf("validate: schemas/%s does not compile as a draft 2020-12 schema: %v", name, err))
		}
	}
	return schs
})

// checkSchemas checks manifest.json and every file of the snapshot that
// has a schema against it, whole, in file order.
func checkSchemas(s *snap) []Problem {
	var out []Problem
	for _, p := range append([]string{ManifestPath}, s.files...) {
		for _, r := range schemaRoutes {
			if ok, _ := path.Match(r.pattern, p); !ok {
				continue
			}
			if b, err := s.read(p); err != nil {
				out = append(out, cannotRead(p, err))
			} else {
				out = append(out, CheckSchema(r.schema, p, b)...)
			}
			break
		}
	}
	return out
}

// printer prints the jsonschema library's messages (an ErrorKind prints
// only through a message.Printer; the library keeps its own unexported).
var printer = message.NewPrinter(language.English)

// CheckSchema checks data, the bytes of the snapshot file at the slash path
// file, against the named embedded schema ("model.schema.json") and
// returns one problem per failing keyword, naming the row and field, by
// row, then field.
func CheckSchema(schema, file string, data []byte) []Problem {
	sch := compiledSchemas()[schema]
	if sch == nil {
		return []Problem{{File: file, Msg: fmt.Sprintf("cannot be checked: no schema %s", schema)}}
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return []Problem{{File: file, Msg: fmt.Sprintf("is not valid JSON: %v", err)}}
	}
	var ve *jsonschema.ValidationError
	if err := sch.Validate(inst); err == nil {
		return nil
	} else if !errors.As(err, &ve) {
		return []Problem{{File: file, Msg: fmt.Sprintf("cannot be checked against %s: %v", schema, err)}}
	}
	var out []Problem
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if k, ok := e.ErrorKind.(*kind.PropertyNames); ok {
			// The library does not locate a bad key reliably: find it.
			where, field := splitLocation(inst, findKey(inst, k.Property))
			out = append(out, Problem{File: file, Where: where, Field: field,
				Msg: "does not match " + schema + ": the key " + strconv.Quote(k.Property) + " is not allowed: " + leafMessages(e)})
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
		if len(e.Causes) == 0 {
			out = append(out, schemaProblems(schema, file, inst, e)...)
		}
	}
	walk(ve)
	slices.SortStableFunc(out, func(a, b Problem) int {
		return cmp.Or(compareWhere(a.Where, b.Where), strings.Compare(a.Field, b.Field))
	})
	return out
}

// schemaProblems turns one failing keyword into problems.
func schemaProblems(name, file string, inst any, e *jsonschema.ValidationError) []Problem {
	loc := e.InstanceLocation
	var names []string // the keys at fault within loc, each its own problem
	var msg string
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		names, msg = k.Missing, "is missing (required by "+name+")"
	case *kind.AdditionalProperties:
		names, msg = k.Properties, "is not a field of "+name
	}
	if names != nil {
		var out []Problem
		for _, n := range names {
			where, field := splitLocation(inst, append(append([]string(nil), loc...), n))
			out = append(out, Problem{File: file, Where: where, Field: field, Msg: msg})
		}
		return out
	}
	where, field := splitLocation(inst, loc)
	msg = "does not match " + name + ": " + e.ErrorKind.LocalizedString(printer)
	return []Problem{{File: file, Where: where, Field: field, Msg: msg}}
}

// leafMessages joins the messages of an error's leaves.
func leafMessages(e *jsonschema.ValidationError) string {
	if len(e.Causes) == 0 {
		return e.ErrorKind.LocalizedString(printer)
	}
	var msgs []string
	for _, c := range e.Causes {
		msgs = append(msgs, leafMessages(c))
	}
	return strings.Join(msgs, "; ")
}

// findKey returns the pointer tokens of the first object key named key in
// v (depth first, keys sorted), or nil.
func findKey(v any, key string) []string {
	switch c := v.(type) {
	case map[string]any:
		if _, ok := c[key]; ok {
			return []string{key}
		}
		for _, k := range slices.Sorted(maps.Keys(c)) {
			if sub := findKey(c[k], key); sub != nil {
				return append([]string{k}, sub...)
			}
		}
	case []any:
		for i, e := range c {
			if sub := findKey(e, key); sub != nil {
				return append([]string{strconv.Itoa(i)}, sub...)
			}
		}
	}
	return nil
}

// splitLocation turns a JSON pointer's tokens into Where and Field: Where is
// the path to the innermost array element or configuration (named by its
// row_id or path when it has one), Field the rest, dot-separated.
func splitLocation(inst any, tokens []string) (where, field string) {
	cur, at, cut := inst, "", 0 // at: the path so far, as a.b[3].c; cut: its length at Where
	for _, tok := range tokens {
		list, inArray := cur.([]any)
		if inArray {
			at += "[" + tok + "]"
			n, err := strconv.Atoi(tok)
			cur = nil
			if err == nil && n >= 0 && n < len(list) {
				cur = list[n]
			}
		} else {
			if at != "" {
				at += "."
			}
			obj, _ := cur.(map[string]any)
			at, cur = at+tok, obj[tok]
		}
		if id := idOf(cur); inArray || id != "" {
			where, cut = at, len(at)
			if id != "" {
				where += " (" + id + ")"
			}
		}
	}
	return where, strings.TrimPrefix(at[cut:], ".")
}

// idOf returns the row_id (or path) of an object, or "".
func idOf(v any) string {
	obj, _ := v.(map[string]any)
	for _, key := range []string{"row_id", "path"} {
		if id, ok := obj[key].(string); ok && id != "" {
			return id
		}
	}
	return ""
}

// compareWhere orders Where strings so that configurations[2] comes before
// configurations[10].
func compareWhere(a, b string) int {
	pa, na := whereKey(a)
	pb, nb := whereKey(b)
	return cmp.Or(strings.Compare(pa, pb), cmp.Compare(na, nb), strings.Compare(a, b))
}

// whereKey splits "configurations[10]..." into its prefix and index (-1:
// none).
func whereKey(s string) (string, int) {
	i, j := strings.IndexByte(s, '['), strings.IndexByte(s, ']')
	if i >= 0 && j > i {
		if n, err := strconv.Atoi(s[i+1 : j]); err == nil {
			return s[:i], n
		}
	}
	return s, -1
}
