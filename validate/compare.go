package validate

import (
	"bytes"
	"fmt"
	"strings"
)

// compareModel compares a model file's bytes with its recomputation and
// reports every field that differs, or else the first differing line.
func compareModel(file, chatPath string, m *wantModel, data []byte) []Problem {
	want := writeTree(m.tree)
	if bytes.Equal(data, want) {
		return nil
	}
	ps := &problems{file: file}
	got, err := parseTree(data)
	if err != nil {
		ps.add("", "", "is not valid JSON: %v", err)
		return ps.list
	}
	d := &modelDiff{ps: ps, m: m, chatPath: chatPath}
	d.object("", "", m.tree, got, nil, d.topField)
	if len(ps.list) == 0 {
		line, col := firstDiff(data, want)
		ps.add("", "", "has the recomputed values but not the published formatting (two-space indentation, \"key\": value, no HTML escaping, no trailing newline): first difference at line %d, column %d", line, col)
	}
	return ps.list
}

type modelDiff struct {
	ps       *problems
	m        *wantModel
	chatPath string
}

// fieldFunc compares one object member.
type fieldFunc func(where, field, key string, want, got *jnode)

// topField compares the model file's top-level members.
func (d *modelDiff) topField(where, field, key string, want, got *jnode) {
	switch key {
	case "configurations":
		d.configurations(want, got)
	case "best":
		d.best(got)
	default:
		d.value(where, field, want, got, "")
	}
}

// object compares two objects: key set, key order, then each member, by
// member (nil: value); note(key) ends a member's mismatch message (nil: no
// note).
func (d *modelDiff) object(where, field string, want, got *jnode, note func(key string) string, member fieldFunc) {
	if got.kind != jObj {
		d.ps.add(where, field, "is %s %s, recomputed an object", got.kind, got.show())
		return
	}
	join := func(key string) string {
		if field == "" {
			return key
		}
		return field + "." + key
	}
	seen := map[string]bool{}
	var common []string
	for _, k := range got.keys {
		if seen[k] {
			d.ps.add(where, join(k), "appears more than once")
			continue
		}
		seen[k] = true
		if want.get(k) == nil {
			d.ps.add(where, join(k), "is not a field of the recomputed file")
		} else {
			common = append(common, k)
		}
	}
	noteOf := func(key string) string {
		if note == nil {
			return ""
		}
		return note(key)
	}
	var wantCommon []string
	for i, k := range want.keys {
		if got.get(k) == nil {
			d.ps.add(where, join(k), "is missing, recomputed %s%s", want.vals[i].show(), noteOf(k))
			continue
		}
		wantCommon = append(wantCommon, k)
	}
	if strings.Join(common, ",") != strings.Join(wantCommon, ",") {
		d.ps.add(where, field, "has its keys out of order: %s, want %s", strings.Join(common, ", "), strings.Join(wantCommon, ", "))
	}
	for i, k := range want.keys {
		switch g := got.get(k); {
		case g != nil && member != nil:
			member(where, join(k), k, want.vals[i], g)
		case g != nil:
			d.value(where, join(k), want.vals[i], g, noteOf(k))
		}
	}
}

// value compares two values of the same path. note ends a mismatch
// message (provenance).
func (d *modelDiff) value(where, field string, want, got *jnode, note string) {
	if want.kind != got.kind {
		d.ps.add(where, field, "is %s %s, recomputed %s %s%s", got.kind, got.show(), want.kind, want.show(), note)
		return
	}
	switch want.kind {
	case jObj:
		d.object(where, field, want, got, nil, nil)
	case jArr:
		if len(got.vals) != len(want.vals) {
			d.ps.add(where, field, "has %d entries, recomputed %d%s", len(got.vals), len(want.vals), note)
		}
		for i := 0; i < len(want.vals) && i < len(got.vals); i++ {
			d.value(where, fmt.Sprintf("%s[%d]", field, i), want.vals[i], got.vals[i], note)
		}
	case jStr:
		if want.text != got.text {
			d.ps.add(where, field, "%s%s", stringDiff(got.text, want.text), note)
		}
	default:
		if want.text != got.text {
			d.ps.add(where, field, "is %s, recomputed %s%s", got.text, want.text, note)
		}
	}
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

// provenance ends a configuration field's mismatch message.
func (d *modelDiff) provenance(c *wantConfig, key string) string {
	s := fmt.Sprintf(" from %s configurations[%d]", d.chatPath, c.index)
	if o := c.origin(key); o != "" {
		s += " (" + o + ")"
	}
	return s
}

// config compares one configuration object.
func (d *modelDiff) config(where string, c *wantConfig, got *jnode) {
	d.object(where, "", c.node, got, func(key string) string { return d.provenance(c, key) }, nil)
}

// configurations compares the configurations array; when its length is
// wrong, entries are matched by row_id.
func (d *modelDiff) configurations(want, got *jnode) {
	if got.kind != jArr {
		d.ps.add("", "configurations", "is %s %s, recomputed an array of %d", got.kind, got.show(), len(want.vals))
		return
	}
	cs := d.m.configs
	if len(got.vals) == len(cs) {
		for i, c := range cs {
			d.config(fmt.Sprintf("configurations[%d] (%s)", i, c.rowID()), c, got.vals[i])
		}
		return
	}
	d.ps.add("", "configurations", "has %d entries, recomputed %d (the stable rows of %s in %s)", len(got.vals), len(cs), d.m.modelID, d.chatPath)
	byID := map[string]int{}
	for j, g := range got.vals {
		if id := g.get("row_id"); id != nil && id.kind == jStr {
			if _, dup := byID[id.text]; !dup {
				byID[id.text] = j
			}
		}
	}
	matched := map[int]bool{}
	for _, c := range cs {
		j, ok := byID[c.rowID()]
		if !ok {
			d.ps.add("", "configurations", "has no entry for %s, recomputed from %s configurations[%d]", c.rowID(), d.chatPath, c.index)
			continue
		}
		matched[j] = true
		d.config(fmt.Sprintf("configurations[%d] (%s)", j, c.rowID()), c, got.vals[j])
	}
	for j, g := range got.vals {
		if !matched[j] {
			id := "no row_id"
			if n := g.get("row_id"); n != nil {
				id = n.show()
			}
			d.ps.add(fmt.Sprintf("configurations[%d] (%s)", j, id), "", "is not a recomputed configuration: no stable row of %s in %s has this row_id", d.m.modelID, d.chatPath)
		}
	}
}

// best compares the best object: which configuration each GPU's entry is,
// then the entry itself.
func (d *modelDiff) best(got *jnode) {
	if got.kind != jObj {
		d.ps.add("", "best", "is %s %s, recomputed an object", got.kind, got.show())
		return
	}
	want := d.m.tree.get("best")
	var common []string
	seen := map[string]bool{}
	for _, k := range got.keys {
		switch {
		case seen[k]:
			d.ps.add("", "best."+k, "appears more than once")
		case want.get(k) == nil:
			d.ps.add("", "best."+k, "is present, but no stable configuration of %s on %s has a median inter-token latency within %d ms", d.m.modelID, k, chatTask().itlCeilingMS)
		default:
			common = append(common, k)
		}
		seen[k] = true
	}
	var wantCommon []string
	for _, c := range d.m.best {
		g := c.gpu
		entry := got.get(g)
		why := fmt.Sprintf("the lowest unrounded energy per token among %s's %s configurations with median_itl_ms <= %d, from %s configurations[%d] (energy_per_token_joules %s)",
			d.m.modelID, g, c.ceilingMS, d.chatPath, c.index, rawText(*c.energy))
		if entry == nil {
			d.ps.add("", "best."+g, "is missing, recomputed %s: %s", c.rowID(), why)
			continue
		}
		wantCommon = append(wantCommon, g)
		where := fmt.Sprintf("best.%s (%s)", g, c.rowID())
		if id := entry.get("row_id"); id != nil && id.kind == jStr && id.text != c.rowID() {
			d.ps.add(where, "row_id", "is %s, recomputed %s: %s", id.text, c.rowID(), why)
			continue
		}
		d.config(where, c, entry)
	}
	if strings.Join(common, ",") != strings.Join(wantCommon, ",") {
		d.ps.add("", "best", "has its keys out of order: %s, want %s", strings.Join(common, ", "), strings.Join(wantCommon, ", "))
	}
}
