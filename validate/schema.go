package validate

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/leadgreen/greentokens/schemas"
)

// schemaRoutes maps snapshot paths (path.Match patterns) to the schema
// that checks them; a route whose schema does not exist is skipped.
var schemaRoutes = []struct{ pattern, schema string }{
	{ManifestPath, "manifest.schema.json"},
	{"models/*.json", "model.schema.json"},
	{"grid.json", "grid.schema.json"},
	{"index.json", "index.schema.json"},
}

// schemaBase is the base URL the embedded schemas are compiled under;
// nothing is fetched from it.
const schemaBase = "https://schemas.greentokens.invalid/"

var compiled struct {
	once    sync.Once
	schemas map[string]*jsonschema.Schema
	streams map[string]*schemaStream
	errs    []Problem
}

// schemaStream is a schema split so that a file is checked one list entry
// at a time, for memory: each top-level list constrained only by its items
// schema has that compiled on its own, and the rest of the file is checked
// against shell, the schema without them, each list's entries replaced by
// nulls. The problems are those of the whole schema on the whole file.
type schemaStream struct {
	shell *jsonschema.Schema
	items map[string]*jsonschema.Schema // by top-level property
}

// compiledSchemas compiles every embedded schema once, as draft 2020-12
// with format assertions on.
func compiledSchemas() (map[string]*jsonschema.Schema, []Problem) {
	compiled.once.Do(func() {
		compiled.schemas = map[string]*jsonschema.Schema{}
		compiled.streams = map[string]*schemaStream{}
		for _, name := range schemas.Names() {
			sch, st, err := compileSchema(name)
			if err != nil {
				compiled.errs = append(compiled.errs, Problem{File: "schemas/" + name, Msg: fmt.Sprintf("does not compile as a draft 2020-12 schema: %v", err)})
				continue
			}
			compiled.schemas[name] = sch
			if st != nil {
				compiled.streams[name] = st
			}
		}
	})
	return compiled.schemas, compiled.errs
}

func newSchemaCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	return c
}

// compileSchema compiles an embedded schema, and its split form when it
// has lists that can be checked one entry at a time (else st is nil).
func compileSchema(name string) (sch *jsonschema.Schema, st *schemaStream, err error) {
	b, err := schemas.Read(name)
	if err != nil {
		return nil, nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return nil, nil, err
	}
	c := newSchemaCompiler()
	if err := c.AddResource(schemaBase+name, doc); err != nil {
		return nil, nil, err
	}
	if sch, err = c.Compile(schemaBase + name); err != nil {
		return nil, nil, err
	}
	if st, err = compileStream(c, name, doc); err != nil {
		return nil, nil, err
	}
	return sch, st, nil
}

// compileStream compiles the split form of the schema document doc (see
// schemaStream), added to c as name; nil when it has no list to split.
func compileStream(c *jsonschema.Compiler, name string, doc any) (*schemaStream, error) {
	shell, lists := splitSchema(doc)
	if len(lists) == 0 {
		return nil, nil
	}
	st := &schemaStream{items: map[string]*jsonschema.Schema{}}
	var err error
	for _, p := range lists {
		if st.items[p], err = c.Compile(schemaBase + name + "#/properties/" + p + "/items"); err != nil {
			return nil, err
		}
	}
	sc := newSchemaCompiler()
	if err := sc.AddResource(schemaBase+name, shell); err != nil {
		return nil, err
	}
	if st.shell, err = sc.Compile(schemaBase + name); err != nil {
		return nil, err
	}
	return st, nil
}

// Keywords splitSchema understands: a schema using another one at its top
// level, or in a list property, is not split (it might constrain a list's
// entries together).
var (
	splitRootKeys = map[string]bool{"$schema": true, "$id": true, "$comment": true, "title": true, "description": true,
		"type": true, "additionalProperties": true, "required": true, "properties": true, "$defs": true}
	splitListKeys = map[string]bool{"$comment": true, "title": true, "description": true, "type": true,
		"items": true, "minItems": true, "maxItems": true}
	splitListName = regexp.MustCompile(`^[a-z0-9_]+$`)
)

// splitSchema returns the shell of a schema document (see schemaStream)
// and the list properties taken out of it, sorted (none: not split).
func splitSchema(doc any) (shell any, lists []string) {
	root, ok := doc.(map[string]any)
	if !ok || root["type"] != "object" {
		return nil, nil
	}
	for k := range root {
		if !splitRootKeys[k] {
			return nil, nil
		}
	}
	if ap, ok := root["additionalProperties"]; ok {
		if _, isBool := ap.(bool); !isBool {
			return nil, nil
		}
	}
	props, ok := root["properties"].(map[string]any)
	if !ok {
		return nil, nil
	}
	newProps := make(map[string]any, len(props))
	for name, p := range props {
		newProps[name] = p
		pm, ok := p.(map[string]any)
		if !ok || pm["type"] != "array" || !splitListName.MatchString(name) {
			continue
		}
		if _, ok := pm["items"].(map[string]any); !ok {
			continue
		}
		splittable := true
		for k := range pm {
			splittable = splittable && splitListKeys[k]
		}
		if !splittable {
			continue
		}
		without := maps.Clone(pm)
		delete(without, "items")
		newProps[name] = without
		lists = append(lists, name)
	}
	if len(lists) == 0 {
		return nil, nil
	}
	sort.Strings(lists)
	newRoot := maps.Clone(root)
	newRoot["properties"] = newProps
	return newRoot, lists
}

// schemaFor returns the schema name for a snapshot path, or "".
func schemaFor(p string) string {
	for _, r := range schemaRoutes {
		if ok, _ := path.Match(r.pattern, p); ok && schemas.Has(r.schema) {
			return r.schema
		}
	}
	return ""
}

// checkSchemas checks manifest.json and every file on disk that has a
// schema against it, a worker per CPU; the problems come in file order.
func checkSchemas(s *Snap) []Problem {
	schs, out := compiledSchemas()
	out = append([]Problem(nil), out...)
	var paths []string
	for _, p := range append([]string{ManifestPath}, s.Files...) {
		if name := schemaFor(p); name != "" && schs[name] != nil {
			paths = append(paths, p)
		}
	}
	results := make([][]Problem, len(paths))
	eachIndex(len(paths), func(i int) { results[i] = checkSchemaFile(s, schs, paths[i]) })
	for _, r := range results {
		out = append(out, r...)
	}
	return out
}

// wholeSize is the largest file the schema checks read whole (a model
// file); a larger one is streamed when its schema can be split.
const wholeSize = 256 << 10

// checkSchemaFile checks one file against its schema: streamed, one list
// entry at a time, when the schema allows it and the file is large.
func checkSchemaFile(s *Snap, schs map[string]*jsonschema.Schema, p string) []Problem {
	name := schemaFor(p)
	cannot := func(err error) []Problem { return []Problem{{File: p, Msg: fmt.Sprintf("cannot be read: %v", err)}} }
	f, err := s.Open(p)
	if err != nil {
		return cannot(err)
	}
	defer f.Close()
	st := compiled.streams[name] // compiled by checkSchemas
	if fi, err := f.Stat(); st == nil || err == nil && fi.Size() <= wholeSize {
		b, err := regfile.ReadAll(f)
		if err != nil {
			return cannot(err)
		}
		return validateSchema(schs[name], name, p, b)
	}
	return validateStream(st, name, p, bufio.NewReaderSize(s.cancellable(f), 64<<10))
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
	out := schemaErrors(name, file, inst, nil, sch.Validate(inst))
	sortSchemaProblems(out)
	return out
}

// schemaParts checks a file's parts against a split schema (see
// schemaStream) and keeps the problems.
type schemaParts struct {
	st         *schemaStream
	name, file string
	out        []Problem
}

func (c *schemaParts) split(k string) bool { return c.st.items[k] != nil }

func (c *schemaParts) entry(k string, n int, x any) {
	if err := c.st.items[k].Validate(x); err != nil {
		// The entry's problems, placed in the file: a skeleton of it
		// holding only this entry.
		elems := make([]any, n+1)
		elems[n] = x
		c.out = append(c.out, schemaErrors(c.name, c.file, map[string]any{k: elems}, []string{k, strconv.Itoa(n)}, err)...)
	}
}

func (c *schemaParts) rest(whole any) {
	c.out = append(schemaErrors(c.name, c.file, whole, nil, c.st.shell.Validate(whole)), c.out...)
}

// validateStream checks the file at path file, read from r, against a
// split schema, decoding one list entry at a time.
func validateStream(st *schemaStream, name, file string, r io.Reader) []Problem {
	c := &schemaParts{st: st, name: name, file: file}
	if err := decodeStream(r, c); err != nil {
		return []Problem{{File: file, Msg: fmt.Sprintf("is not valid JSON: %v", err)}}
	}
	sortSchemaProblems(c.out)
	return c.out
}

// decodeStream decodes the JSON document read from r and hands its parts
// to c. It returns the first syntax error, as jsonschema.UnmarshalJSON
// words it, with the parts before it handed over.
func decodeStream(r io.Reader, c *schemaParts) error {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	var whole any
	if tok == json.Delim('{') {
		whole, err = decodeShell(dec, c)
	} else if n, perr := parseAfter(dec, tok); perr != nil {
		err = perr
	} else {
		whole = n.plain()
	}
	if err == io.EOF {
		return io.ErrUnexpectedEOF // the input ends within the object
	}
	if err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		// As jsonschema.UnmarshalJSON says it.
		return errors.New("invalid character after top-level value")
	}
	c.rest(whole)
	return nil
}

// decodeShell decodes the members of the top-level object after its '{',
// handing each entry of the lists c splits to c, and returns the rest.
func decodeShell(dec *json.Decoder, c *schemaParts) (map[string]any, error) {
	shell := map[string]any{}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := kt.(string)
		var v any
		if !c.split(k) {
			if err := dec.Decode(&v); err != nil {
				return nil, err
			}
			shell[k] = v
			continue
		}
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		if tok != json.Delim('[') {
			n, err := parseAfter(dec, tok)
			if err != nil {
				return nil, err
			}
			shell[k] = n.plain()
			continue
		}
		n := 0
		for ; dec.More(); n++ {
			var x any
			if err := dec.Decode(&x); err != nil {
				return nil, err
			}
			c.entry(k, n, x)
		}
		if _, err := dec.Token(); err != nil { // ']'
			return nil, err
		}
		shell[k] = make([]any, n)
	}
	_, err := dec.Token() // '}'
	return shell, err
}

// schemaErrors turns a validation error (nil: none) into problems. inst is
// the instance the locations are found in; prefix, the location of the
// validated value within inst (nil: inst itself).
func schemaErrors(name, file string, inst any, prefix []string, err error) []Problem {
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
		out = append(out, schemaProblems(name, file, inst, prefix, e)...)
	}
	walk(ve)
	return out
}

// sortSchemaProblems orders a file's schema problems by row, then field.
func sortSchemaProblems(out []Problem) {
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Where != out[j].Where {
			return lessWhere(out[i].Where, out[j].Where)
		}
		return out[i].Field < out[j].Field
	})
}

// schemaProblems turns one failing keyword into problems.
func schemaProblems(name, file string, inst any, prefix []string, e *jsonschema.ValidationError) []Problem {
	loc := e.InstanceLocation
	if prefix != nil {
		loc = append(append([]string(nil), prefix...), loc...)
	}
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
	cut := -1
	cur := inst
	for i, tok := range tokens {
		_, inArray := cur.([]any)
		cur = step(cur, tok)
		if inArray || idOf(cur) != "" {
			cut = i
		}
	}
	if cut < 0 {
		return "", renderPath(inst, tokens)
	}
	elem := inst
	for _, tok := range tokens[:cut+1] {
		elem = step(elem, tok)
	}
	where = renderPath(inst, tokens[:cut+1])
	if id := idOf(elem); id != "" {
		where += " (" + id + ")"
	}
	return where, renderPath(elem, tokens[cut+1:])
}

// idOf returns the row_id (or path) of an object, or "".
func idOf(v any) string {
	obj, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	for _, key := range []string{"row_id", "path"} {
		if id, ok := obj[key].(string); ok && id != "" {
			return id
		}
	}
	return ""
}

// step moves one pointer token down from v (nil when there is nothing).
func step(v any, tok string) any {
	switch c := v.(type) {
	case []any:
		n, err := strconv.Atoi(tok)
		if err != nil || n < 0 || n >= len(c) {
			return nil
		}
		return c[n]
	case map[string]any:
		return c[tok]
	}
	return nil
}

// renderPath renders pointer tokens below v as a.b[3].c.
func renderPath(v any, tokens []string) string {
	var b strings.Builder
	for _, tok := range tokens {
		if _, ok := v.([]any); ok {
			b.WriteString("[" + tok + "]")
		} else {
			if b.Len() > 0 {
				b.WriteString(".")
			}
			b.WriteString(tok)
		}
		v = step(v, tok)
	}
	return b.String()
}

// lessWhere orders Where strings so that configurations[2] comes before
// configurations[10].
func lessWhere(a, b string) bool {
	pa, na := whereKey(a)
	pb, nb := whereKey(b)
	return cmp.Or(strings.Compare(pa, pb), cmp.Compare(na, nb), strings.Compare(a, b)) < 0
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
