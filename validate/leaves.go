package validate

// Leaves: the values at the ends of the walk, taken raw.
//
// A value at a site that was not checked before is mostly made of values
// that were: a configuration new to the snapshot because of its row id
// repeats the numbers of many others. A leaf is a subschema the walk to
// the sites (findSites) reaches on a clean way (every schema before it
// has only wayKeys) and does not walk into: one with a keyword outside
// wayKeys (a $ref, a pattern, a minimum, uniqueItems...), or with no
// properties, items or additionalProperties to walk through. It is a site
// like the others, its value taken raw and looked up by its text
// (placed.go), and checked against the leaf's schema alone when the text
// is new; the rest of the file sees a null in its place, and the schema
// with the leaf made true accepts it there.
//
// The same holds inside a placed site's $defs entry: the walk goes on
// from the entry's root (site.inner), and a value at the site whose text
// is new is decoded with its leaves left null, checked against the entry
// with its leaves made true (site.shell), then each leaf's value as
// above. A $ref to an object schema inside the entry is a leaf there. Why
// this decides as the whole schema does is the argument of checkonce.go
// and placed.go, once more: a null at a leaf is seen by no keyword but
// the leaf's own (wayKeys), and the leaf's schema is applied, alone, to
// the value it would have been applied to.

import (
	"crypto/sha256"
	"fmt"
	"maps"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// walkable reports whether the walk to the sites goes on into m: it has
// only wayKeys, and a subschema to go on to.
func walkable(m map[string]any) bool {
	for k := range m {
		if !wayKeys[k] && !annotationKeys[k] {
			return false
		}
	}
	_, props := m["properties"].(map[string]any)
	_, items := m["items"].(map[string]any)
	_, addl := m["additionalProperties"].(map[string]any)
	return props || items || addl
}

// leafKey returns the hash of a leaf's canonical form; ok is false when
// it cannot be taken (see canonSchema), and m is then no leaf.
func leafKey(m map[string]any, defs map[string]any) (key [sha256.Size]byte, ok bool) {
	b, ok := canonSchema(nil, m, defs, 0)
	if !ok {
		return key, false
	}
	return sha256.Sum256(b), true
}

// addLeafDefs gives each leaf of sites, and each placed site's leaves and
// entry with its leaves made true, a new name in defs (a copy of the
// document's $defs, the leaves' $refs resolving there as they did).
func addLeafDefs(sites []site, defs map[string]any) {
	fresh := func(kind string, v any) string {
		for i := len(defs); ; i++ {
			name := fmt.Sprintf("fast-%s-%d", kind, i)
			if _, taken := defs[name]; !taken {
				defs[name] = v
				return name
			}
		}
	}
	for i := range sites {
		st := &sites[i]
		if st.leaf != nil {
			st.def = fresh("leaf", st.leaf)
		}
		addLeafDefs(st.alt, defs)
		if len(st.inner) > 0 {
			addLeafDefs(st.inner, defs)
			st.shellName = fresh("shell", st.shellDef)
		}
	}
}

// compileSites compiles each site's schema, and each placed site's
// leaves and the entry with them made true, from the document added to c
// at url.
func compileSites(c *jsonschema.Compiler, url string, sites []site, defs map[string]any) error {
	for i := range sites {
		st := &sites[i]
		var err error
		if st.sch, err = c.Compile(url + defsRef + st.def); err != nil {
			return err
		}
		if st.leaf != nil {
			st.scalar = newScalarCheck(st.sch)
		}
		if err := compileSites(c, url, st.alt, defs); err != nil {
			return err
		}
		if len(st.inner) == 0 {
			continue
		}
		if err := compileSites(c, url, st.inner, defs); err != nil {
			return err
		}
		shell := &site{def: st.shellName}
		if shell.sch, err = c.Compile(url + defsRef + st.shellName); err != nil {
			return err
		}
		b, ok := canonSchema(nil, st.shellDef, defs, 0)
		if !ok { // cannot happen: the entry's form was taken (siteDef)
			return fmt.Errorf("%s: the form of %s with its leaves made true cannot be taken", url, st.def)
		}
		shell.key = sha256.Sum256(b)
		st.shell, st.innerTree = shell, placedTree(st.inner)
	}
	return nil
}

// textSet is a set of texts, safe for concurrent use.
type textSet struct {
	mu sync.Mutex
	m  map[string]struct{}
}

// texts returns the set of the scalar texts found valid at leaves whose
// schema's key is key.
func (seen *checkedValues) texts(key [sha256.Size]byte) *textSet {
	if s, ok := seen.leaves.Load(key); ok {
		return s.(*textSet)
	}
	s, _ := seen.leaves.LoadOrStore(key, &textSet{m: map[string]struct{}{}})
	return s.(*textSet)
}

func (s *textSet) has(text string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.m[text]
	return ok
}

// add adds a copy of text (which may be a slice of a whole file).
func (s *textSet) add(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[strings.Clone(text)] = struct{}{}
}

// scalar reports whether text, a value's valid JSON text without white
// space around it, is a scalar: it has no white space to leave out, and
// is its own key (a string's text is its literal, escapes and all).
func scalar(text string) bool { return text[0] != '{' && text[0] != '[' }

// size is the number of values and texts seen holds.
func (seen *checkedValues) size() int {
	seen.mu.Lock()
	n := len(seen.seen)
	seen.mu.Unlock()
	seen.leaves.Range(func(_, s any) bool {
		s.(*textSet).mu.Lock()
		n += len(s.(*textSet).m)
		s.(*textSet).mu.Unlock()
		return true
	})
	return n
}

// withDefs returns a copy of the schema document root whose $defs are
// defs.
func withDefs(root any, defs map[string]any) any {
	m := maps.Clone(root.(map[string]any))
	m["$defs"] = defs
	return m
}

// keyRest makes the schemas a file's rest and its lists' entries are
// checked against sites of their own (onceSchema.wholeSite...), keyed by
// their canonical forms; shell is the document they were compiled from.
// The root's $id is left out of its form: every reference is to $defs
// (refsOnlyDefs), which the $id does not move.
func (o *onceSchema) keyRest(shell any, defs map[string]any) {
	o.wholeSite = rootSite(shell, defs, o.whole)
	if o.stream == nil {
		return
	}
	split, lists := splitSchema(shell)
	o.shellSite = rootSite(split, defs, o.stream.shell)
	o.itemSites = map[string]*site{}
	props, _ := shell.(map[string]any)["properties"].(map[string]any)
	for _, p := range lists {
		list, _ := props[p].(map[string]any)
		o.itemSites[p] = keyedSite(nil, list["items"], defs, o.stream.items[p])
	}
}

// rootSite is keyedSite for a schema document's root.
func rootSite(doc any, defs map[string]any, sch *jsonschema.Schema) *site {
	m := maps.Clone(doc.(map[string]any))
	delete(m, "$id")
	return keyedSite([]byte{'W'}, m, defs, sch)
}

// draftKeys puts the document's $schema (the draft its keywords are read
// by; none: newSchemaCompiler's) in the key of every site of o: canonical
// forms leave it out, and two schemas of other drafts may decide
// otherwise.
func (o *onceSchema) draftKeys(draft string) {
	put := func(st *site) {
		if st != nil && !st.unkeyed {
			st.key = sha256.Sum256(appendString(append([]byte("draft"), st.key[:]...), draft))
		}
	}
	var each func(sites []site)
	each = func(sites []site) {
		for i := range sites {
			put(&sites[i])
			put(sites[i].shell)
			each(sites[i].inner)
			each(sites[i].alt)
		}
	}
	each(o.sites)
	put(o.wholeSite)
	put(o.shellSite)
	for _, st := range o.itemSites {
		put(st)
	}
}

// keyedSite returns sch as a site keyed by the canonical form of s
// (after prefix), or unkeyed when it cannot be taken.
func keyedSite(prefix []byte, s any, defs map[string]any, sch *jsonschema.Schema) *site {
	b, ok := canonSchema(prefix, s, defs, 0)
	if !ok {
		return &site{sch: sch, unkeyed: true}
	}
	return &site{sch: sch, key: sha256.Sum256(b)}
}
