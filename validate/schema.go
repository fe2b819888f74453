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
}

// schemaBase is the base URL the embedded schemas are compiled under;
// nothing is fetched from it.
const schemaBase = "https://schemas.greentokens.invalid/"

// compiledSchemas compiles every embedded schema, once, as draft 2020-12
// with format assertions on; a schema that does not compile is a problem.
var compiledSchemas = sync.OnceValues(func() (map[string]*jsonschema.Schema, []Problem) {
	schs := map[string]*jsonschema.Schema{}
	var errs []Problem
	for _, name := range schemas.Names() {
		sch, err := compileSchema(name)
		if err != nil {
			errs = append(errs, Problem{File: "schemas/" + name, Msg: fmt.Sprintf("does not compile as a draft 2020-12 schema: %v", err)})
			continue
		}
		schs[name] = sch
	}
	return schs, errs
})

// compileSchema compiles the embedded schema of that name.
func compileSchema(name string) (*jsonschema.Schema, error) {
	b, err := schemas.Read(name)
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource(schemaBase+name, doc); err != nil {
		return nil, err
	}
	return c.Compile(schemaBase + name)
}

// schemaFor returns the schema name for a snapshot path, or "".
func schemaFor(p string) string {
	for _, r := range schemaRoutes {
		if ok, _ := path.Match(r.pattern, p); ok {
			return r.schema
		}
	}
	return ""
}

// checkSchemas checks manifest.json and every file of the snapshot that
// has a schema against it, whole, in file order.
func checkSchemas(s *snap) []Problem {
	schs, out := compiledSchemas()
	out = slices.Clone(out)
	for _, p := range append([]string{ManifestPath}, s.files...) {
		name := schemaFor(p)
		if schs[name] == nil {
			continue // no schema, or one that does not compile
		}
		if b, err := s.read(p); err != nil {
			out = append(out, cannotRead(p, err))
		} else {
			out = append(out, validateSchema(schs[name], name, p, b)...)
		}
	}
	return out
}

// CheckSchema checks data, the bytes of the snapshot file at the slash path
// file, against the named embedded schema ("model.schema.json") and
// returns one problem per failing keyword, naming the row and field.
func CheckSchema(schema, file string, data []byte) []Problem {
	schs, errs := compiledSchemas()
	for _, e := range errs {
		if e.File == "schemas/"+schema {
			return []Problem{e}
		}
	}
	sch := schs[schema]
	if sch == nil {
		return []Problem{{File: file, Msg: fmt.Sprintf("cannot be checked: no schema %s", schema)}}
	}
	return validateSchema(sch, schema, file, data)
}

// printer prints the jsonschema library's messages (an ErrorKind prints
// only through a message.Printer; the library keeps its own unexported).
var printer = message.NewPrinter(language.English)

// validateSchema checks data (the file at path file) against a compiled
// schema and returns one problem per failing keyword.
func validateSchema(sch *jsonschema.Schema, name, file string, data []byte) []Problem {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return []Problem{{File: file, Msg: fmt.Sprintf("is not valid JSON: %v", err)}}
	}
	out := schemaErrors(name, file, inst, sch.Validate(inst))
	sortSchemaProblems(out)
	return out
}

// schemaErrors turns a validation error of the instance inst (nil: none)
// into problems.
func schemaErrors(name, file string, inst any, err error) []Problem {
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Problem{{File: file, Msg: fmt.Sprintf("cannot be checked against %s: %v", name, err)}}
	}
	var out []Problem
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if k, ok := e.ErrorKind.(*kind.PropertyNames); ok {
			// The library does not locate a bad key reliably: find it.
			where, field := splitLocation(inst, findKey(inst, k.Property))
			out = append(out, Problem{File: file, Where: where, Field: field,
				Msg: "does not match " + name + ": the key " + strconv.Quote(k.Property) + " is not allowed: " + leafMessages(e)})
			return
		}
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		out = append(out, schemaProblems(name, file, inst, e)...)
	}
	walk(ve)
	return out
}

// sortSchemaProblems orders a file's schema problems by row, then field.
func sortSchemaProblems(out []Problem) {
	slices.SortStableFunc(out, func(a, b Problem) int {
		return cmp.Or(compareWhere(a.Where, b.Where), strings.Compare(a.Field, b.Field))
	})
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
