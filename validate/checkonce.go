package validate

// A value checked once.
//
// A snapshot repeats its values. Each model's best configurations are
// entries of its configurations list; index.json repeats them under
// models[].best; its GPU comparisons and load curves share their points. At
// 10,000 models the files hold 70,000 configurations of which 30,000
// differ, and 60,000 points of which 20,000 differ. The schema library
// takes as long over a value it has checked before as over a new one, and
// these checks were the largest part of a build.
//
// So a file's check first runs a fast pass (checkedValues.bytes, and
// checkedValues.stream for a file too large to hold). A "site" is a
// subschema that is nothing but a $ref to an object schema in $defs,
// reached from the root only through properties, items and
// additionalProperties. The fast pass checks the file against its schema
// with every site made true, and each value at a site against the schema
// the site refers to, unless a value with the same content was already
// found valid against a schema with the same content in the same check of
// the snapshot (checkedValues). Where nothing but the site's own schema
// sees them, values at a site are first looked up by their text, and
// decoded only when it is new (placed.go); there, the ends of the walk are
// sites too, and so are those inside a site's entry (leaves.go).
//
// A file the fast pass finds valid is valid: the two passes apply the same
// keywords to the same values (below). A file it does not find valid is
// checked again, as before, against the whole schema, which finds the
// problems and words them; the fast pass reports nothing itself.
//
// Why the same keywords apply:
//   - A site's subschema applies to exactly the values the walk finds at
//     it. Every reference in the schema is a $ref to a $defs entry by a
//     plain name (refsOnlyDefs): nothing else reaches the walked schemas.
//     No schema on the way to a site has the keywords that change which
//     members or elements properties, items or additionalProperties apply
//     to (patternProperties, prefixItems), that read what its subschema
//     evaluated (unevaluatedProperties, unevaluatedItems), or that move
//     where its $ref resolves ($id, $anchor, $dynamicAnchor).
//   - Making a site true changes nothing else: the value stays in the
//     instance, and every other keyword sees it. (At a placed site a null
//     stands in for it, which no other keyword sees: placed.go.)
//   - Two values with the same canonical form (canon) decode to equal
//     trees. Two schemas with the same canonical form (canonSchema) decide
//     alike: annotations are left out, and $refs into $defs are replaced by
//     what they refer to. Every schema is compiled by newSchemaCompiler
//     (the same draft, formats asserted).

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/leadgreen/greentokens/internal/jsonvalid"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// siteStep is one step from a schema to a subschema, and from a value to
// the values that subschema applies to.
type siteStep struct {
	kind byte   // 'p': properties[name]; 'i': items; 'a': additionalProperties
	name string // 'p'
	// except are the names properties lists beside additionalProperties.
	except map[string]bool
}

// site is a $ref to an object schema in $defs found in a schema, or a
// leaf (leaves.go).
type site struct {
	steps []siteStep // from the file's root
	def   string     // the $defs entry's name
	sch   *jsonschema.Schema
	key   [sha256.Size]byte // the canonical form of the schema, hashed
	// placed: every schema on the way to the site has only wayKeys, so
	// that no keyword but the site's own sees the values at it: the fast
	// pass takes them raw (placedSites), and the rest of the file sees a
	// null in their place.
	placed bool
	// leaf is the schema of a leaf site (leaves.go), nil for a $ref to an
	// object schema.
	leaf any
	// scalar applies a leaf's schema to scalars where it can (scalar.go),
	// nil where it cannot.
	scalar *scalarCheck
	// A placed site's leaves: the sites within its $defs entry's schema
	// (steps from the site's value), where they are (innerTree), and the
	// entry with them made true (shell, compiled as sch for the value
	// with nulls in their place). Nil when it has none.
	inner     []site
	innerTree *siteNode
	shellDef  any
	shellName string
	// unkeyed: the site has no key (a schema whose form cannot be taken),
	// and each value is checked against it.
	unkeyed bool
	// shell is the entry with its leaves made true, as a site of its own:
	// a value with its leaves null is checked against it once per
	// canonical form (which, where every member is a leaf, is its names).
	shell *site
	// alt is a leaf's objectBranch as a site (one, or none): an object at
	// the leaf is taken as a value at it.
	alt []site
}

// onceSchema is a schema's form for the fast pass.
type onceSchema struct {
	whole  *jsonschema.Schema // the schema with its sites true
	stream *schemaStream      // its split form, or nil
	sites  []site
	placed *siteNode // where the placed sites' values are, or nil
	// The schemas the rest of a file is checked against, as sites of their
	// own (wholeSite: whole; shellSite and itemSites: stream's): a file's
	// rest, and a list's entry, with its sites' values null, is checked
	// once per canonical form (mostly its names).
	wholeSite, shellSite *site
	itemSites            map[string]*site
}

// Keywords whose values are subschemas, or maps or lists of them: how
// canonSchema reads a schema.
var (
	subschemaKeys     = map[string]bool{"items": true, "additionalProperties": true, "propertyNames": true, "not": true, "if": true, "then": true, "else": true, "contains": true, "unevaluatedItems": true, "unevaluatedProperties": true, "contentSchema": true}
	subschemaMapKeys  = map[string]bool{"properties": true, "patternProperties": true, "dependentSchemas": true}
	subschemaListKeys = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true}
	// literalKeys hold no subschema: canonSchema compares their values as
	// they are. Any keyword neither here nor above makes a schema's form
	// untakeable (the library compiles draft 7's dependencies, for one, as
	// subschemas, whose $refs would be compared as text).
	literalKeys = map[string]bool{"type": true, "enum": true, "const": true, "multipleOf": true, "maximum": true, "exclusiveMaximum": true,
		"minimum": true, "exclusiveMinimum": true, "maxLength": true, "minLength": true, "pattern": true, "maxItems": true, "minItems": true,
		"uniqueItems": true, "maxContains": true, "minContains": true, "maxProperties": true, "minProperties": true, "required": true,
		"dependentRequired": true, "format": true, "contentEncoding": true, "contentMediaType": true}
	// annotationKeys do not decide validity.
	annotationKeys = map[string]bool{"description": true, "title": true, "$comment": true, "examples": true, "default": true, "deprecated": true, "readOnly": true, "writeOnly": true}
	// notOnTheWay are the keywords no schema between the root and a site
	// may have (see this file's first comment).
	notOnTheWay = []string{"patternProperties", "prefixItems", "unevaluatedProperties", "unevaluatedItems", "$id", "$anchor", "$dynamicAnchor"}
	// wayKeys are the keywords a schema on the way to a placed site may
	// have besides annotations: none sees a member's or an element's value
	// but through properties, items or additionalProperties (required,
	// propertyNames and dependentRequired read names, the others count).
	wayKeys = map[string]bool{"$schema": true, "$defs": true, "type": true, "properties": true, "additionalProperties": true, "items": true,
		"required": true, "propertyNames": true, "dependentRequired": true, "minProperties": true, "maxProperties": true, "minItems": true, "maxItems": true}
)

const defsRef = "#/$defs/"

// compileOnce compiles a schema document's form for the fast pass, or
// returns nil when it has no site.
func compileOnce(name string, doc any) (*onceSchema, error) {
	root, ok := doc.(map[string]any)
	if !ok {
		return nil, nil
	}
	defs, _ := root["$defs"].(map[string]any)
	if !refsOnlyDefs(root, defs) {
		return nil, nil
	}
	var sites []site
	shell := findSites(root, defs, nil, true, true, false, &sites)
	if len(sites) == 0 {
		return nil, nil
	}
	defs = maps.Clone(defs)
	if defs == nil {
		defs = map[string]any{}
	}
	addLeafDefs(sites, defs)
	shell = withDefs(shell, defs)
	c := newSchemaCompiler()
	if err := c.AddResource(schemaBase+name, shell); err != nil {
		return nil, err
	}
	o := &onceSchema{sites: sites}
	var err error
	if o.whole, err = c.Compile(schemaBase + name); err != nil {
		return nil, err
	}
	if err := compileSites(c, schemaBase+name, o.sites, defs); err != nil {
		return nil, err
	}
	if o.stream, err = compileStream(c, name, shell); err != nil {
		return nil, err
	}
	o.keyRest(shell, defs)
	draft, _ := root["$schema"].(string)
	o.draftKeys(draft)
	o.placed = placedTree(o.sites)
	return o, nil
}

// refsOnlyDefs reports whether every reference in a schema document is a
// $ref to an entry of its $defs by a plain name. A $ref to the root or to
// a property's schema would resolve, in the form with sites made true, to
// a copy in which the values it reaches go unchecked; a name with "~",
// "%" or "/" is decoded by the library as a JSON pointer, which siteDef
// does not do. (Every map in the document is looked at, keywords' values
// too: it refuses more than it needs to, never less.)
func refsOnlyDefs(node any, defs map[string]any) bool {
	switch n := node.(type) {
	case map[string]any:
		for k, v := range n {
			switch k {
			case "$ref":
				ref, _ := v.(string)
				name, ok := strings.CutPrefix(ref, defsRef)
				if _, found := defs[name]; !ok || !found || !plainDefName.MatchString(name) {
					return false
				}
			case "$dynamicRef", "$recursiveRef":
				return false
			}
			if !refsOnlyDefs(v, defs) {
				return false
			}
		}
	case []any:
		for _, e := range n {
			if !refsOnlyDefs(e, defs) {
				return false
			}
		}
	}
	return true
}

var plainDefName = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// findSites returns node with its sites made true (a copy where it
// changes), appending the sites to sites. way tells whether every schema
// on the way to node has only wayKeys (see site.placed).
//
// Inside a site's $defs entry (inner), only leaves are sites: a $ref to
// another object schema there is a leaf.
func findSites(node any, defs map[string]any, steps []siteStep, root, way, inner bool, sites *[]site) any {
	m, ok := node.(map[string]any)
	if !ok {
		return node
	}
	ownID := root && !inner
	if !root {
		if def, key, ok := siteDef(m, defs); ok && !inner {
			st := site{steps: slices.Clone(steps), def: def, key: key, placed: way}
			if way {
				st.shellDef = findSites(defs[def], defs, nil, true, true, true, &st.inner)
			}
			*sites = append(*sites, st)
			return true
		}
		if way && !walkable(m) {
			if key, ok := leafKey(m, defs); ok {
				st := site{steps: slices.Clone(steps), key: key, placed: true, leaf: m}
				if def, key, ok := objectBranch(m, defs); ok {
					alt := site{def: def, key: key, placed: true}
					if !inner { // an inner leaf's alt has no leaves: checkLeaves does not nest
						alt.shellDef = findSites(defs[def], defs, nil, true, true, true, &alt.inner)
					}
					st.alt = []site{alt}
				}
				*sites = append(*sites, st)
				return true
			}
		}
	}
	for k := range m {
		way = way && (wayKeys[k] || annotationKeys[k] || ownID && k == "$id")
	}
	for _, k := range notOnTheWay {
		if _, ok := m[k]; ok && !(ownID && k == "$id") {
			return node
		}
	}
	out, copied := m, false
	set := func(k string, v any) {
		if !copied {
			out, copied = maps.Clone(m), true
		}
		out[k] = v
	}
	props, _ := m["properties"].(map[string]any)
	if props != nil {
		var newProps map[string]any
		for _, name := range slices.Sorted(maps.Keys(props)) {
			n := len(*sites)
			sub := findSites(props[name], defs, append(steps, siteStep{kind: 'p', name: name}), false, way, inner, sites)
			if len(*sites) == n {
				continue
			}
			if newProps == nil {
				newProps = maps.Clone(props)
			}
			newProps[name] = sub
		}
		if newProps != nil {
			set("properties", newProps)
		}
	}
	if items, ok := m["items"].(map[string]any); ok {
		n := len(*sites)
		if sub := findSites(items, defs, append(steps, siteStep{kind: 'i'}), false, way, inner, sites); len(*sites) > n {
			set("items", sub)
		}
	}
	if ap, ok := m["additionalProperties"].(map[string]any); ok {
		except := map[string]bool{}
		for name := range props {
			except[name] = true
		}
		n := len(*sites)
		if sub := findSites(ap, defs, append(steps, siteStep{kind: 'a', except: except}), false, way, inner, sites); len(*sites) > n {
			set("additionalProperties", sub)
		}
	}
	return out
}

// objectBranch finds the one branch a leaf's oneOf or anyOf can take for
// an object: m is nothing but the oneOf or anyOf (and annotations), one
// branch is a site's schema (siteDef: a $ref to an object schema), and
// every other is nothing but a type that is not "object", which no object
// meets. For an object, the leaf then decides as that branch does (one
// branch met, or none), and the fast pass takes it as a value at a site
// of that schema (site.alt): index.json's load curve's "past", null or a
// row.
func objectBranch(m map[string]any, defs map[string]any) (name string, key [sha256.Size]byte, ok bool) {
	var branches []any
	for k, v := range m {
		switch {
		case k == "oneOf" || k == "anyOf":
			if branches != nil {
				return "", key, false
			}
			branches, _ = v.([]any)
		case !annotationKeys[k]:
			return "", key, false
		}
	}
	found := false
	for _, b := range branches {
		bm, _ := b.(map[string]any)
		if def, k, ok := siteDef(bm, defs); ok {
			if found {
				return "", key, false
			}
			name, key, found = def, k, true
			continue
		}
		if !typeOnlyNotObject(bm) {
			return "", key, false
		}
	}
	return name, key, found
}

// typeOnlyNotObject reports whether m is nothing but a type (and
// annotations) that an object does not meet: one or more of the JSON
// types but "object" (the library leaves out a name it does not know, and
// an empty list, which every value meets).
func typeOnlyNotObject(m map[string]any) bool {
	var types []any
	switch t := m["type"].(type) {
	case string:
		types = []any{t}
	case []any:
		types = t
	default:
		return false
	}
	if len(types) == 0 {
		return false
	}
	for _, t := range types {
		if s, ok := t.(string); !ok || s == "object" || typeBits[s] == 0 {
			return false
		}
	}
	for k := range m {
		if k != "type" && !annotationKeys[k] {
			return false
		}
	}
	return true
}

// siteDef returns the $defs entry a site refers to, and the hash of its
// canonical form: m is nothing but a $ref (and annotations) to an object
// schema whose canonical form can be taken.
func siteDef(m map[string]any, defs map[string]any) (name string, key [sha256.Size]byte, ok bool) {
	ref, ok := m["$ref"].(string)
	if !ok || !strings.HasPrefix(ref, defsRef) {
		return "", key, false
	}
	for k := range m {
		if k != "$ref" && !annotationKeys[k] {
			return "", key, false
		}
	}
	name = ref[len(defsRef):]
	def, ok := defs[name].(map[string]any)
	if !ok || def["type"] != "object" {
		return "", key, false
	}
	b, ok := canonSchema(nil, def, defs, 0)
	if !ok {
		return "", key, false
	}
	return name, sha256.Sum256(b), true
}

// canonSchema appends the canonical form of a schema to b: its keywords
// sorted, annotations left out, every $ref into $defs replaced by the
// canonical form of what it refers to. ok is false for a schema whose form
// cannot be taken so: another $ref, an identifier of its own, or $refs
// nested deeper than 16 (a $defs entry that refers to itself).
func canonSchema(b []byte, s any, defs map[string]any, depth int) ([]byte, bool) {
	m, isMap := s.(map[string]any)
	if !isMap {
		if _, isBool := s.(bool); !isBool {
			return b, false
		}
		return canon(append(b, 'S'), s)
	}
	if depth > 16 {
		return b, false
	}
	var keys []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !annotationKeys[k] && k != "$defs" && k != "$schema" {
			keys = append(keys, k)
		}
	}
	b = binary.AppendUvarint(append(b, 'S', '{'), uint64(len(keys)))
	ok := true
	for _, k := range keys {
		v := m[k]
		b = appendString(b, k)
		switch {
		case k == "$ref":
			ref, _ := v.(string)
			def, found := defs[strings.TrimPrefix(ref, defsRef)]
			if !strings.HasPrefix(ref, defsRef) || !found {
				return b, false
			}
			b, ok = canonSchema(b, def, defs, depth+1)
		case k == "$id" || k == "$anchor" || k == "$dynamicAnchor" || k == "$dynamicRef" || k == "$recursiveRef" || k == "$recursiveAnchor" || k == "$vocabulary":
			return b, false
		case subschemaKeys[k]:
			b, ok = canonSchema(b, v, defs, depth)
		case subschemaMapKeys[k]:
			sub, isMap := v.(map[string]any)
			if !isMap {
				return b, false
			}
			b = binary.AppendUvarint(append(b, '{'), uint64(len(sub)))
			for _, name := range slices.Sorted(maps.Keys(sub)) {
				b = appendString(b, name)
				if b, ok = canonSchema(b, sub[name], defs, depth); !ok {
					return b, false
				}
			}
		case subschemaListKeys[k]:
			list, isList := v.([]any)
			if !isList {
				return b, false
			}
			b = binary.AppendUvarint(append(b, '['), uint64(len(list)))
			for _, e := range list {
				if b, ok = canonSchema(b, e, defs, depth); !ok {
					return b, false
				}
			}
		case literalKeys[k]: // a keyword's value: compared as it is
			b, ok = canon(b, v)
		default: // a keyword that may hold subschemas (dependencies, definitions...) or that this does not know
			return b, false
		}
		if !ok {
			return b, false
		}
	}
	return b, true
}

// canon appends the canonical form of a decoded JSON value to b: a tag,
// a length and the content, object members sorted by key. Equal forms are
// equal values. ok is false for a value of another Go type.
func canon(b []byte, v any) ([]byte, bool) {
	var k keyOrders
	return k.canon(b, v)
}

// keyOrders remembers the sorted keys of the last few objects canon
// wrote: a file's objects of one kind have the same keys, and so do the
// files of one kind (a pooled decoder holds the fast pass's, see
// instanceDecoder.orders), which are then found in the cache (a lookup
// per key) instead of sorted again.
type keyOrders struct {
	sorted [][]string
	next   int
}

// of returns m's keys, sorted.
func (c *keyOrders) of(m map[string]any) []string {
	for _, keys := range c.sorted {
		if len(keys) == len(m) && hasKeys(m, keys) {
			return keys // the same set: keys are distinct, and all in m
		}
	}
	keys := slices.Sorted(maps.Keys(m))
	if len(c.sorted) < 8 {
		c.sorted = append(c.sorted, keys)
	} else {
		c.sorted[c.next%8] = keys
		c.next++
	}
	return keys
}

func hasKeys(m map[string]any, keys []string) bool {
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}

func (c *keyOrders) canon(b []byte, v any) ([]byte, bool) {
	switch v := v.(type) {
	case map[string]any:
		b = binary.AppendUvarint(append(b, 'o'), uint64(len(v)))
		for _, k := range c.of(v) {
			b = appendString(b, k)
			var ok bool
			if b, ok = c.canon(b, v[k]); !ok {
				return b, false
			}
		}
	case []any:
		b = binary.AppendUvarint(append(b, 'a'), uint64(len(v)))
		for _, e := range v {
			var ok bool
			if b, ok = c.canon(b, e); !ok {
				return b, false
			}
		}
	case string:
		b = appendString(append(b, 's'), v)
	case json.Number:
		b = appendString(append(b, 'n'), string(v))
	case bool:
		if v {
			b = append(b, 't')
		} else {
			b = append(b, 'f')
		}
	case nil:
		b = append(b, 'z')
	default:
		return b, false
	}
	return b, true
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// eachAt calls fn with every value that the subschema at the end of steps
// applies to in v; it stops when fn returns false, and returns false then.
func eachAt(v any, steps []siteStep, fn func(any) bool) bool {
	if len(steps) == 0 {
		return fn(v)
	}
	st, rest := steps[0], steps[1:]
	switch st.kind {
	case 'i':
		list, _ := v.([]any)
		for _, e := range list {
			if !eachAt(e, rest, fn) {
				return false
			}
		}
	case 'a':
		obj, _ := v.(map[string]any)
		for k, e := range obj {
			if !st.except[k] && !eachAt(e, rest, fn) {
				return false
			}
		}
	default:
		obj, _ := v.(map[string]any)
		if e, ok := obj[st.name]; ok {
			return eachAt(e, rest, fn)
		}
	}
	return true
}

// checkedValues are the values found valid so far in one check of a
// snapshot: the hash of each one's canonical form and of its schema's.
type checkedValues struct {
	mu   sync.Mutex
	seen map[[sha256.Size]byte]struct{}
	// leaves are the texts of the scalar values found valid at leaves,
	// by the leaf's key: a *textSet each (leaves.go).
	leaves sync.Map
}

func newCheckedValues() *checkedValues {
	return &checkedValues{seen: map[[sha256.Size]byte]struct{}{}}
}

// onceParts is the fast pass over a file's parts (see fileParts): valid
// stays true while every part is valid.
type onceParts struct {
	o    *onceSchema
	seen *checkedValues
	// dec decodes the file, taking the values at placed sites raw; plain
	// decodes those values that must be checked.
	dec, plain *instanceDecoder
	// inner decodes the values at sites with leaves (nil until needed).
	inner *instanceDecoder
	buf   []byte
	valid bool
}

// newOnceParts returns the fast pass over a file, to release once done.
func newOnceParts(o *onceSchema, seen *checkedValues) *onceParts {
	dec := getDecoder()
	dec.placed = o.placed
	return &onceParts{o: o, seen: seen, dec: dec, plain: getDecoder(), valid: true}
}

func (c *onceParts) release() {
	c.dec.release()
	c.plain.release()
	if c.inner != nil {
		c.inner.release()
	}
}

func (c *onceParts) decoder() *instanceDecoder { return c.dec }

func (c *onceParts) split(k string) bool {
	return c.o.stream != nil && c.o.stream.items[k] != nil
}

func (c *onceParts) entry(k string, _ int, x any) {
	defer c.placedSites()
	if !c.valid {
		return
	}
	if !c.check(c.o.itemSites[k], x) {
		return
	}
	for i := 0; i < len(c.o.sites) && c.valid; i++ {
		st := &c.o.sites[i]
		if !st.placed && len(st.steps) >= 2 && st.steps[0].kind == 'p' && st.steps[0].name == k && st.steps[1].kind == 'i' {
			c.sites(st, x, st.steps[2:])
		}
	}
}

func (c *onceParts) rest(whole any) {
	defer c.placedSites()
	if !c.valid {
		return
	}
	st := c.o.wholeSite
	if c.o.stream != nil {
		st = c.o.shellSite
	}
	if !c.check(st, whole) {
		return
	}
	for i := 0; i < len(c.o.sites) && c.valid; i++ {
		if st := &c.o.sites[i]; !st.placed {
			c.sites(st, whole, st.steps)
		}
	}
}

// sites checks the values at a site in v (found from v by steps).
func (c *onceParts) sites(st *site, v any, steps []siteStep) {
	eachAt(v, steps, func(x any) bool { return c.check(st, x) })
}

// check checks x, a value at the site st, unless a value with the same
// canonical form was found valid there before; it returns c.valid.
func (c *onceParts) check(st *site, x any) bool {
	var ok bool
	if !st.unkeyed { // a schema whose form could not be taken has no key
		c.buf, ok = c.dec.orders.canon(append(c.buf[:0], st.key[:]...), x)
	}
	if !ok { // or canon refused x, which cannot happen: the decoder makes only what it takes
		c.valid = c.valid && st.sch.Validate(x) == nil
		return c.valid
	}
	key := sha256.Sum256(c.buf)
	if c.seen.has(key) {
		return true
	}
	if st.sch.Validate(x) != nil {
		c.valid = false
		return false
	}
	c.seen.add(key)
	return true
}

func (seen *checkedValues) has(key [sha256.Size]byte) bool {
	seen.mu.Lock()
	defer seen.mu.Unlock()
	_, ok := seen.seen[key]
	return ok
}

func (seen *checkedValues) add(key [sha256.Size]byte) {
	seen.mu.Lock()
	defer seen.mu.Unlock()
	seen.seen[key] = struct{}{}
}

// bytes is the fast pass over data, a whole file: whether it finds the file
// valid against o.
func (seen *checkedValues) bytes(o *onceSchema, data []byte) bool {
	// The full check's json.Valid, at three times its speed: the fast pass
	// decodes as the full check does (the last of repeated keys wins,
	// invalid UTF-8 replaced), and decides alike.
	if !jsonvalid.Valid(data) {
		return false
	}
	c := newOnceParts(o, seen)
	defer c.release()
	decodeBytes(data, c)
	return c.valid
}

// stream is the fast pass over a file read from r: whether it finds the
// file valid against o. It reads with jsontext, at three times
// encoding/json's speed, which is stricter (invalid UTF-8 is an error): a
// file it cannot read is left to the check that follows, as an invalid
// one is. A repeated key is read as the check that follows reads it, the
// last value winning.
func (seen *checkedValues) stream(o *onceSchema, r io.Reader) bool {
	c := newOnceParts(o, seen)
	defer c.release()
	return decodeStreamStrict(r, c) == nil && c.valid
}

// decodeStreamStrict hands the parts of the JSON object read from r to c
// as decodeStream does, reading with jsontext (names given twice allowed:
// tracking them was a tenth of the time); another top-level value is an
// error.
func decodeStreamStrict(r io.Reader, c fileParts) error {
	dec := jsontext.NewDecoder(r, jsontext.AllowDuplicateNames(true))
	inst := c.decoder()
	expect := func(kind jsontext.Kind) error {
		tok, err := dec.ReadToken()
		if err == nil && tok.Kind() != kind {
			err = errors.New("unexpected " + tok.Kind().String())
		}
		return err
	}
	if err := expect('{'); err != nil {
		return err
	}
	shell := map[string]any{}
	for dec.PeekKind() == '"' {
		kt, err := dec.ReadToken()
		if err != nil {
			return err
		}
		k := kt.String()
		if !c.split(k) || dec.PeekKind() != '[' {
			raw, err := dec.ReadValue()
			if err != nil {
				return err
			}
			shell[k] = inst.decodeAt(raw, inst.placed.member(k))
			continue
		}
		if err := expect('['); err != nil {
			return err
		}
		n := 0
		for ; dec.PeekKind() != ']'; n++ {
			raw, err := dec.ReadValue()
			if err != nil {
				return err
			}
			c.entry(k, n, inst.decodeAt(raw, inst.placed.member(k).element()))
		}
		if err := expect(']'); err != nil {
			return err
		}
		shell[k] = make([]any, n)
	}
	if err := expect('}'); err != nil {
		return err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return errors.New("data after the top-level value")
	}
	c.rest(shell)
	return nil
}
