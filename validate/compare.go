package validate

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// jdiff, the one diff engine of every recomputed JSON file and manifest
// block, compares a recomputed JSON value with the published one and
// reports each difference as a problem of one file, naming the entry
// (Where: a list's object, "configurations[3] (qwen-3-32b/B200/1/64)",
// "load_curves[5] (qwen-3-32b on B200)") and the field within it
// ("source.licence"). An object's members are matched by key: one given
// twice, unknown, missing or out of order is named. A list's entries are
// matched by position, or, when the counts differ and the entries have ids
// (entryID), by id, so that a missing entry is named rather than shifting
// every later one.
type jdiff struct {
	ps  *problems
	max int // the most problems reported; 0: no limit
	// note ends the mismatch message of the member key of the recomputed
	// object parent (key "": of parent itself, as a list's entry), saying
	// where its value comes from.
	note func(parent *jnode, key string) string
	// member compares a member itself and reports whether it did; nil or
	// false: value compares it.
	member func(where, field string, want, got *jnode) bool
}

func (d *jdiff) add(where, field, format string, a ...any) {
	switch n := len(d.ps.list); {
	case d.max > 0 && n == d.max:
		d.ps.add("", "", "more mismatches not shown")
		return
	case d.max > 0 && n > d.max:
		return
	}
	d.ps.add(where, field, format, a...)
}

// join names the member key of field.
func join(field, key string) string {
	if field == "" {
		return key
	}
	return field + "." + key
}

// value compares the published got with the recomputed want; note ends a
// mismatch message.
func (d *jdiff) value(where, field string, want, got *jnode, note string) {
	switch want = want.value(); {
	case want.kind != got.kind:
		d.add(where, field, "is %s, recomputed %s%s", got.describe(), want.describe(), note)
	case want.kind == jObj:
		d.members(where, field, want, got)
		for i, k := range want.keys {
			if g := got.get(k); g != nil && (d.member == nil || !d.member(where, join(field, k), want.vals[i], g)) {
				d.value(where, join(field, k), want.vals[i], g, d.note(want, k))
			}
		}
	case want.kind == jArr:
		d.list(where, field, want, got, note)
	case want.text == got.text:
	case want.kind == jStr:
		d.add(where, field, "%s%s", stringDiff(got.text, want.text), note)
	default:
		d.add(where, field, "is %s, recomputed %s%s", got.text, want.text, note)
	}
}

// members compares two objects' keys: each given once, known, present and
// in the recomputed order.
func (d *jdiff) members(where, field string, want, got *jnode) {
	seen := map[string]bool{}
	var common, wantCommon []string
	for _, k := range got.keys {
		switch {
		case seen[k]:
			d.add(where, join(field, k), "appears more than once")
		case want.get(k) == nil:
			d.add(where, join(field, k), "is not a field of the recomputed file%s", d.note(want, k))
		default:
			common = append(common, k)
		}
		seen[k] = true
	}
	for i, k := range want.keys {
		if got.get(k) == nil {
			d.add(where, join(field, k), "is missing, recomputed %s%s", want.vals[i].show(), d.note(want, k))
		} else {
			wantCommon = append(wantCommon, k)
		}
	}
	if !slices.Equal(common, wantCommon) {
		d.add(where, field, "has its keys out of order: %s, want %s", strings.Join(common, ", "), strings.Join(wantCommon, ", "))
	}
}

// list compares two lists' entries: by id when the counts differ and the
// entries have ids, else by position.
func (d *jdiff) list(where, field string, want, got *jnode, note string) {
	n, m := len(want.vals), len(got.vals)
	if n != m {
		d.add(where, field, "has %d entries, recomputed %d%s", m, n, note)
	}
	if n == m || n == 0 || entryID(want.vals[0]) == "" {
		for i := range max(n, m) {
			switch at := fmt.Sprintf("%s[%d]", field, i); {
			case i >= m:
				d.add(where, at, "is missing, recomputed %s%s", want.vals[i].show(), note)
			case i >= n:
				d.add(where, at, "is %s, not among the recomputed entries%s", got.vals[i].describe(), note)
			default:
				d.entry(where, field, i, want.vals[i], got.vals[i], note)
			}
		}
		return
	}
	at := map[string]int{} // id → the first published entry with it
	for j := m - 1; j >= 0; j-- {
		at[entryID(got.vals[j])] = j
	}
	matched := map[int]bool{}
	for _, w := range want.vals {
		j, ok := at[entryID(w)]
		if !ok {
			d.add(where, field, "has no entry for %s, recomputed one%s", entryID(w), d.note(w, ""))
			continue
		}
		matched[j] = true
		d.entry(where, field, j, w, got.vals[j], note)
	}
	for j, g := range got.vals {
		if !matched[j] {
			d.add(entryWhere(where, field, j, cmp.Or(entryID(g), "no id")), "", "is not among the recomputed entries%s", note)
		}
	}
}

// entry compares the entry i of a list: an object with an id is an entry of
// its own (Where), anything else a field.
func (d *jdiff) entry(where, field string, i int, want, got *jnode, note string) {
	if id := entryID(want); id != "" {
		d.value(entryWhere(where, field, i, id), "", want, got, note)
		return
	}
	d.value(where, fmt.Sprintf("%s[%d]", field, i), want, got, note)
}

func entryWhere(where, field string, i int, id string) string {
	if where != "" {
		field = where + "." + field
	}
	return fmt.Sprintf("%s[%d] (%s)", field, i, id)
}

// entryID names a list's entry: the row_id of a configuration, the task of
// index.json's source.tasks, the slug (and GPU) of index.json's lists, the
// name of grid.json's areas; "" for anything else.
func entryID(v *jnode) string {
	id := cmp.Or(v.str("row_id"), v.str("task"))
	if id == "" && v.str("slug") != "" && v.str("gpu") != "" {
		return v.str("slug") + " on " + v.str("gpu")
	}
	return cmp.Or(id, v.str("slug"), v.str("name"))
}

// stringDiff describes how a string differs from the recomputed one; long
// strings are shown around the first difference.
func stringDiff(got, want string) string {
	if len(got) <= 80 && len(want) <= 80 {
		return fmt.Sprintf("is %q, recomputed %q", got, want)
	}
	g, w := []rune(got), []rune(want)
	i := 0
	for i < len(g) && i < len(w) && g[i] == w[i] {
		i++
	}
	window := func(r []rune) string {
		lo, hi := max(0, i-20), min(len(r), i+40)
		s := fmt.Sprintf("%q", string(r[lo:hi]))
		if lo > 0 {
			s = "..." + s
		}
		if hi < len(r) {
			s += "..."
		}
		return s
	}
	return fmt.Sprintf("differs from the recomputed text at character %d: is %s, recomputed %s", i+1, window(g), window(w))
}

// tree compares the published file data with printed, the bytes of the
// recomputed want: when they differ, each differing field is named, or
// else the first differing byte. printed is not held while the fields are
// compared.
func (d *jdiff) tree(data, printed []byte, want *jnode) {
	if bytes.Equal(data, printed) {
		return
	}
	line, col := firstDiff(data, printed)
	before := len(d.ps.list)
	if got := parseFile(d.ps, data); got != nil {
		d.value("", "", want, got, "")
	}
	if len(d.ps.list) == before {
		d.ps.add("", "", "has the recomputed values but not the published layout (two-space indentation, keys in order, \"key\": value, no HTML escaping, no trailing newline): first difference at line %d, column %d", line, col)
	}
}

// compareFile compares the published file data with its recomputation
// want, at most idxMaxProblems mismatches, each message ended by note.
func compareFile(file string, data []byte, want *jnode, note string) []Problem {
	d := &jdiff{ps: &problems{file: file}, max: idxMaxProblems, note: func(*jnode, string) string { return note }}
	d.tree(data, writeTree(want), want)
	return d.ps.list
}

// parseFile decodes a published file that differs from its recomputation,
// or reports why it cannot be.
func parseFile(ps *problems, data []byte) *jnode {
	got, err := parseTree(data)
	switch {
	case errors.Is(err, errAfterValue):
		ps.add("", "", "has data after the top-level value")
	case err != nil:
		ps.add("", "", "is not valid JSON: %v", err)
	}
	return got
}

// compareBlock compares a block of manifest.json, got as decoded, with its
// recomputation want (of the same type), each as encoding/json prints it,
// naming each member that differs under field; note(key) ends the message
// of a mismatch of the member key.
func compareBlock(ps *problems, field string, got, want any, note func(key string) string) {
	d := &jdiff{ps: ps, note: func(_ *jnode, key string) string { return note(key) }}
	d.value("", field, blockTree(want), blockTree(got), note(""))
}

// blockTree is v as encoding/json prints it: a manifest type always encodes.
func blockTree(v any) *jnode {
	b, _ := json.Marshal(v)
	n, _ := parseTree(b)
	return n
}

// compareModel compares a model file's bytes with its recomputation and
// reports every field that differs, or else the first differing byte.
func compareModel(file, chatPath string, m *wantModel, data []byte) []Problem {
	byNode := map[*jnode]*run{}
	for _, c := range m.configs {
		byNode[c.node] = c
	}
	best := m.tree.get("best")
	d := &jdiff{ps: &problems{file: file}}
	d.note = func(parent *jnode, key string) string {
		switch c := byNode[parent]; {
		case c != nil:
			s := fmt.Sprintf(" from %s configurations[%d]", chatPath, c.index)
			if o := c.origin(key); o != "" {
				s += " (" + o + ")"
			}
			return s
		case parent == m.tree && key == "configurations":
			return fmt.Sprintf(" (the stable rows of %s in %s)", m.modelID, chatPath)
		case parent == best:
			return m.whyBest(chatPath, key)
		}
		return ""
	}
	d.member = func(where, field string, w, g *jnode) bool {
		if where != "" || field != "best" || g.kind != jObj {
			return false
		}
		// Each GPU's entry is first the configuration the rule picks, by
		// its row_id, then that configuration.
		d.members("", "best", w, g)
		for _, c := range m.best {
			entry, where := g.get(c.gpu), fmt.Sprintf("best.%s (%s)", c.gpu, c.rowID())
			if id := entry.str("row_id"); id != "" && id != c.rowID() {
				d.add(where, "row_id", "is %s, recomputed %s%s", id, c.rowID(), m.whyBest(chatPath, c.gpu))
			} else if entry != nil {
				d.value(where, "", c.node, entry, "")
			}
		}
		return true
	}
	d.tree(data, writeTree(m.tree), m.tree)
	return d.ps.list
}

// whyBest says why gpu's best entry is the configuration it is, or why the
// GPU has none.
func (m *wantModel) whyBest(chatPath, gpu string) string {
	for _, c := range m.best {
		if c.gpu == gpu {
			return fmt.Sprintf(": the lowest unrounded energy per token among %s's %s configurations with median_itl_ms <= %d, from %s configurations[%d] (energy_per_token_joules %s)",
				m.modelID, gpu, c.ceilingMS, chatPath, c.index, rawText(*c.energy))
		}
	}
	return fmt.Sprintf(": no stable configuration of %s on %s has a median inter-token latency within %d ms", m.modelID, gpu, chatTask().itlCeilingMS)
}
