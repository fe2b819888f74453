package validate

// The index check: index.json recomputed from the task files' rows as the
// model files read them (parseTask, filterStable, sortRuns), printed and
// compared with the published bytes an entry at a time; only when they
// differ is the published file decoded, again an entry at a time, to name
// each differing figure. Its unexported names start with idx.

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/leadgreen/greentokens/internal/sourcetext"
)

// Paths of the files the index check reads, relative to a snapshot folder.
const (
	IndexPath        = "index.json"
	IndexChatTask    = "sources/leaderboard/tasks/lm-arena-chat.json"
	IndexProblemTask = "sources/leaderboard/tasks/gpqa.json"
)

// idxMaxProblems caps the mismatches one check reports.
const idxMaxProblems = 50

// idxCannotRead is the problem of an input that cannot be read.
func idxCannotRead(p string, err error) []Problem {
	return []Problem{{File: p, Msg: fmt.Sprintf("cannot be read (%s is computed from it): %v", IndexPath, err)}}
}

// idxSnapshotCheck is the snapshot check: every figure of index.json is
// recomputed from the two task files (parsed once, Snap.task; their
// problems are the leaderboard check's when it reads them), its header
// from the manifest's dates and evidence and the fixed text. A mismatch
// names the entry (list, model, GPU) and the field:
//
//	index.json: gpu_comparisons, model qwen-3-32b: energy_per_token_ratio is 1.64, recomputed 1.63 from the archived task files
func idxSnapshotCheck(s *Snap) []Problem {
	if s.Output(IndexPath) == nil && !s.OnDisk(IndexPath) {
		return nil
	}
	chat := s.task(taskChat, IndexChatTask)
	if chat.readErr != nil {
		return idxCannotRead(IndexChatTask, chat.readErr)
	}
	gpqa := s.task(taskGPQA, IndexProblemTask)
	if gpqa.readErr != nil {
		return idxCannotRead(IndexProblemTask, gpqa.readErr)
	}
	// A task file with problems (reported here unless the leaderboard
	// check reports them) is no ground to recompute the index from.
	var out []Problem
	for _, t := range []*taskData{chat, gpqa} {
		if t.readErr != nil || len(t.probs) > 0 {
			if !s.leaderboardReports(t.task, t.path) {
				out = append(out, t.probs...)
			}
			out = append(out, Problem{File: IndexPath, Msg: fmt.Sprintf("cannot be recomputed: %s has the problems reported above", t.path)})
		}
	}
	if out != nil {
		return out
	}
	pl, fail := idxPrepare(s.Manifest, chat, gpqa)
	if fail != nil {
		return []Problem{*fail}
	}
	return pl.check(s)
}

// check compares the recomputed file with index.json: the bytes first,
// then, when they differ, every figure.
func (pl *idxPlan) check(s *Snap) []Problem {
	r, err := s.Open(IndexPath)
	if err != nil {
		return idxCannotRead(IndexPath, err)
	}
	cmp := &idxBytes{r: bufio.NewReaderSize(r, 64<<10), buf: make([]byte, 32<<10)}
	pl.write(cmp)
	r.Close()
	if cmp.err != nil {
		return idxCannotRead(IndexPath, cmp.err)
	}
	if !cmp.diff {
		return nil
	}

	// They differ: name every differing figure.
	if r, err = s.Open(IndexPath); err != nil {
		return idxCannotRead(IndexPath, err)
	}
	defer r.Close()
	probs := pl.compare(r)
	if len(probs) == 0 {
		// Figures agree: the bytes must too (key order, indentation, number
		// spelling, no trailing newline).
		probs = append(probs, Problem{File: IndexPath, Msg: fmt.Sprintf("line %d: the layout differs from the recomputed file (key order, indentation or trailing newline)", 1+cmp.lines)})
	}
	return probs
}

// idxBytes compares the recomputed file, as it is printed, with the
// published bytes as they are read.
type idxBytes struct {
	r     *bufio.Reader
	buf   []byte
	lines int  // newlines in the recomputed bytes before the first difference
	diff  bool // a difference was found
	err   error
}

// compare compares the next recomputed bytes p with the next published ones.
func (c *idxBytes) compare(p []byte) {
	for len(p) > 0 && !c.diff {
		n := min(len(p), len(c.buf))
		m, err := io.ReadFull(c.r, c.buf[:n])
		i := 0
		for i < m && c.buf[i] == p[i] {
			i++
		}
		c.lines += bytes.Count(p[:i], []byte("\n"))
		if i < n {
			c.diff = true
			if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
				c.err = err
			}
			return
		}
		p = p[n:]
	}
}

// end reports a published file longer than the recomputed one.
func (c *idxBytes) end() {
	if c.diff {
		return
	}
	if _, err := c.r.ReadByte(); err != io.EOF {
		c.diff = true
		if err != nil {
			c.err = err
		}
	}
}

// ---- the recomputed file ----

// idxModel is one model's stable runs of one task, as the model files
// list them, with its best run of each GPU.
type idxModel struct {
	id, slug   string
	runs, best []*run
}

// bestOn returns the model's best run on gpu, or nil.
func (m *idxModel) bestOn(gpu string) *run {
	if m == nil {
		return nil
	}
	for _, r := range m.best {
		if r.gpu == gpu {
			return r
		}
	}
	return nil
}

// idxGroup groups stable rows by model and names them (slug: the Text
// Conversation slug where given, else from the nickname).
func idxGroup(rows []*lbRow, slugs map[string]string) map[string]*idxModel {
	byModel := map[string][]*lbRow{}
	for _, r := range rows {
		byModel[r.modelID] = append(byModel[r.modelID], r)
	}
	out := map[string]*idxModel{}
	for id, rows := range byModel {
		slug, ok := slugs[id]
		if !ok {
			slug = slugOf(rows[0].nickname)
		}
		m := &idxModel{id: id, slug: slug}
		m.runs, m.best = sortRuns(slug, rows)
		out[id] = m
	}
	return out
}

// The lists of index.json, in the file's order, after its header.
var idxLists = []string{"models", "gpu_comparisons", "task_comparisons", "load_curves"}

// idxPlan is the recomputed index.json, ready to be printed or compared one
// entry at a time: the grouped runs, and the header (the lists aside).
type idxPlan struct {
	chat, gpqa map[string]*idxModel
	ids        []string // the Text Conversation models, by slug
	header     *jnode
}

// idxPrepare groups the rows, recomputes the header and every entry once,
// so that whatever stops the recomputation is found before comparing.
func idxPrepare(m *Manifest, chat, gpqa *taskData) (*idxPlan, *Problem) {
	pl := &idxPlan{chat: idxGroup(chat.stable, nil)}
	slugs := map[string]string{}
	for id, m := range pl.chat {
		slugs[id] = m.slug
		pl.ids = append(pl.ids, id)
	}
	slices.SortFunc(pl.ids, func(a, b string) int {
		return cmp.Or(strings.Compare(pl.chat[a].slug, pl.chat[b].slug), strings.Compare(a, b))
	})
	pl.gpqa = idxGroup(gpqa.stable, slugs)
	// The header repeats the model files' dates and source fields.
	text, err := sourcetext.LoadLeaderboard()
	var full *jnode
	if err == nil {
		full, err = sourceBlock(&lbInputs{date: m.Date, retrieved: m.Retrieved[:min(10, len(m.Retrieved))], text: text,
			index: &lbIndex{lastUpdated: m.Evidence.Compiled}, commit: &lbCommit{date: m.Evidence.LastCommitDate}})
	}
	if err != nil {
		return nil, &Problem{File: IndexPath, Msg: fmt.Sprintf("cannot be recomputed: %v", err)}
	}
	source := jobj()
	for _, k := range []string{"name", "version", "released", "compiled", "retrieved", "licence", "cite"} {
		source.set(k, full.get(k))
	}
	source.set("details", jstr("each model file's source block (models/SLUG.json, key source) holds the full text: publisher, method, selection, licence evidence")).
		set("tasks", jarr(
			jobj().set("task", jstr(taskChat)).set("name", jstr("Text Conversation")).set("file", jstr(IndexChatTask)).
				set("stable_configurations", jint(len(chat.stable))),
			jobj().set("task", jstr(taskGPQA)).set("name", jstr("Problem Solving")).set("file", jstr(IndexProblemTask)).
				set("stable_configurations", jint(len(gpqa.stable)))))
	pl.header = jobj().set("version", jstr("1")).set("updated", jstr(m.Date)).set("data_version", jstr(m.Date)).
		set("unit", jstr(text.Unit)).set("itl_deadline_ms", jint(itlDeadlineMS)).
		set("source", source)
	for _, list := range idxLists {
		for _, id := range pl.ids {
			if _, fail := pl.entries(list, pl.chat[id]); fail != nil {
				return nil, fail
			}
		}
	}
	return pl, nil
}

// entries recomputes a model's entries of one list, in the file's order.
func (pl *idxPlan) entries(list string, m *idxModel) ([]*jnode, *Problem) {
	switch list {
	case "models":
		e, fail := idxModelEntry(m)
		return []*jnode{e}, fail
	case "gpu_comparisons":
		h, b := m.bestOn("H100"), m.bestOn("B200")
		if h == nil || b == nil {
			return nil, nil
		}
		return []*jnode{jobj().set("slug", jstr(m.slug)).set("h100", idxRef(h)).set("b200", idxRef(b)).
			set("energy_per_token_ratio", jnum(sig3Text(*h.energy / *b.energy)))}, nil
	case "task_comparisons":
		var out []*jnode
		for _, c := range m.best {
			p := pl.gpqa[m.id].bestOn(c.gpu)
			if p == nil {
				continue
			}
			ce, pe := *c.energy*c.outputTokens(), *p.energy*p.outputTokens()
			out = append(out, jobj().set("slug", jstr(m.slug)).set("gpu", jstr(c.gpu)).
				set("text_conversation", idxRef(c).set("joules_per_response", jnum(roundedText(ce, 1)))).
				set("problem_solving", idxRef(p).set("joules_per_response", jnum(roundedText(pe, 1)))).
				set("energy_per_response_ratio", jnum(sig3Text(pe/ce))).
				set("energy_per_token_ratio", jnum(sig3Text(*p.energy / *c.energy))))
		}
		return out, nil
	case "load_curves":
		var out []*jnode
		for _, b := range m.best {
			out = append(out, idxCurve(m, b))
		}
		return out, nil
	}
	panic("validate: index: no list " + list)
}

// idxModelEntry recomputes a model's entry of the models list.
func idxModelEntry(m *idxModel) (*jnode, *Problem) {
	r0 := m.runs[0]
	gpus := jarr()
	for i, r := range m.runs {
		if i == 0 || r.gpu != m.runs[i-1].gpu {
			gpus.vals = append(gpus.vals, jstr(r.gpu))
		}
		if r.nickname != r0.nickname || r.totalParams != r0.totalParams || r.activeParams != r0.activeParams || r.arch != r0.arch {
			return nil, &Problem{File: IndexChatTask, Where: r.where(), Msg: fmt.Sprintf("name, parameters or architecture differ from %s", r0.where())}
		}
	}
	best := jobj()
	for _, b := range m.best {
		c, known := configNode(b)
		if !known {
			return nil, &Problem{File: IndexChatTask, Where: b.where(), Field: "weight_precision", Msg: fmt.Sprintf("is %q, which has no published precision", b.precision)}
		}
		best.set(b.gpu, c)
	}
	return jobj().set("slug", jstr(m.slug)).set("name", jstr(r0.nickname)).set("model_id", jstr(m.id)).
		set("params_b", jnum(floatText(r0.totalParams))).set("active_params_b", jnum(floatText(r0.activeParams))).
		set("architecture", jstr(r0.arch)).set("configurations", jint(len(m.runs))).set("gpus", gpus).
		set("file", jstr("models/"+m.slug+".json")).set("best", best), nil
}

// idxRef is a row reference of index.json.
func idxRef(r *run) *jnode {
	return jobj().set("row_id", jstr(r.rowID())).set("num_gpus", jint(r.numGPUs)).set("max_num_seqs", jint(r.maxNumSeqs)).
		set("avg_running_batch", jnum(roundedText(r.avgBatch, 1))).
		set("wh_per_million_output_tokens", jnum(roundedText(r.whPerMillion(), 2))).
		set("joules_per_output_token", jnum(roundedText(*r.energy, 7))).
		set("median_itl_ms", jnum(roundedText(r.medianITL, 1))).
		set("tokens_per_second", jnum(roundedText(r.throughput, 1))).
		set("gpu_power_watts_total", jnum(roundedInt(r.power))).
		set("avg_output_tokens", jnum(roundedInt(r.outputTokens())))
}

// idxCurve is the load curve of best, over the model's runs on its GPU at
// its GPU count: from the first (smallest cap) to best, the highest median
// ITL up to best's cap, and the first run past it (null when best has the
// highest cap). The plausibility bounds keep every divisor above zero.
func idxCurve(m *idxModel, best *run) *jnode {
	var from, top, past *run
	for _, r := range m.runs {
		if r.gpu != best.gpu || r.numGPUs != best.numGPUs {
			continue
		}
		if from == nil {
			from = r
		}
		if r.maxNumSeqs <= best.maxNumSeqs {
			if top == nil || r.medianITL > top.medianITL {
				top = r
			}
		} else if past == nil {
			past = r
		}
	}
	pastNode := jnull()
	if past != nil {
		pastNode = idxRef(past)
	}
	return jobj().set("slug", jstr(m.slug)).set("gpu", jstr(best.gpu)).set("num_gpus", jint(best.numGPUs)).
		set("from", idxRef(from)).set("to", idxRef(best)).
		set("energy_per_token_fall", jnum(sig3Text(*from.energy / *best.energy))).
		set("gpu_power_rise_percent", jnum(roundedInt((best.power/from.power-1)*100))).
		set("throughput_rise", jnum(sig3Text(best.throughput/from.throughput))).
		set("max_median_itl_ms", jnum(roundedText(top.medianITL, 1))).
		set("max_median_itl_row_id", jstr(top.rowID())).
		set("past", pastNode)
}

// ---- printing and comparing the bytes ----

// write prints the recomputed file as writeTree would and compares it
// with the published bytes as it goes, until they differ.
func (pl *idxPlan) write(cmp *idxBytes) {
	var b bytes.Buffer
	flush := func() bool {
		cmp.compare(b.Bytes())
		b.Reset()
		return !cmp.diff
	}
	b.WriteByte('{')
	for i, k := range pl.header.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n  ")
		quoteJSON(&b, k)
		b.WriteString(": ")
		writeValue(&b, pl.header.vals[i], 1)
	}
	for _, list := range idxLists {
		b.WriteString(",\n  ")
		quoteJSON(&b, list)
		b.WriteString(": [")
		empty := true
		for _, id := range pl.ids {
			es, _ := pl.entries(list, pl.chat[id]) // idxPrepare found no failure
			for _, e := range es {
				if !empty {
					b.WriteByte(',')
				}
				empty = false
				b.WriteString("\n    ")
				writeValue(&b, e, 2)
			}
			if b.Len() >= 32<<10 && !flush() {
				return
			}
		}
		if !empty {
			b.WriteString("\n  ")
		}
		b.WriteByte(']')
	}
	b.WriteString("\n}")
	if flush() {
		cmp.end()
	}
}

// ---- naming what differs ----

type idxCompare struct{ probs []Problem }

func (c *idxCompare) fail(path []string, format string, a ...any) {
	switch {
	case len(c.probs) == idxMaxProblems:
		c.probs = append(c.probs, Problem{File: IndexPath, Msg: "more mismatches not shown"})
		return
	case len(c.probs) > idxMaxProblems:
		return
	}
	where, field := idxPlace(path)
	c.probs = append(c.probs, Problem{File: IndexPath, Where: where, Field: field, Msg: fmt.Sprintf(format, a...)})
}

// idxPlace names a place in the file: the list and its entry (model, GPU)
// as Where, then the field within the entry.
func idxPlace(path []string) (where, field string) {
	if len(path) >= 2 && strings.HasPrefix(path[1], "[") {
		where = path[0] + ", " + strings.Trim(path[1], "[]")
		path = path[2:]
	}
	var f strings.Builder
	for _, p := range path {
		if f.Len() > 0 && !strings.HasPrefix(p, "[") {
			f.WriteByte('.')
		}
		f.WriteString(p)
	}
	return where, f.String()
}

// idxEntryKey names an array element: "model SLUG" or "model SLUG on GPU"
// for the index's entries, the task id for the task list.
func idxEntryKey(v *jnode, i int) string {
	if t := v.get("task"); t != nil && t.kind == jStr {
		return "task " + t.text
	}
	slug := v.get("slug")
	if slug == nil || slug.kind != jStr {
		return fmt.Sprintf("item %d", i)
	}
	if gpu := v.get("gpu"); gpu != nil && gpu.kind == jStr {
		return "model " + slug.text + " on " + gpu.text
	}
	return "model " + slug.text
}

// value compares a recomputed value with the published one at path.
func (c *idxCompare) value(want, got *jnode, path []string) {
	at := func(k string) []string { return append(path[:len(path):len(path)], k) }
	switch {
	case want.kind == jObj && got.kind != jObj:
		c.fail(path, "is %s, want an object", got.show())
	case want.kind == jObj:
		for i, k := range want.keys {
			if v := got.get(k); v != nil {
				c.value(want.vals[i], v, at(k))
			} else {
				c.fail(at(k), "is missing")
			}
		}
		for _, k := range got.keys {
			if want.get(k) == nil {
				c.fail(at(k), "is not a key of %s", IndexPath)
			}
		}
	case want.kind == jArr && got.kind != jArr:
		c.fail(path, "is %s, want an array", got.show())
	case want.kind == jArr:
		// Elements are matched by their key (model, GPU), so a missing
		// entry is named rather than shifting every later one.
		byKey := map[string]*jnode{}
		for i, x := range got.vals {
			byKey[idxEntryKey(x, i)] = x
		}
		seen := map[string]bool{}
		for i, x := range want.vals {
			k := idxEntryKey(x, i)
			seen[k] = true
			switch v, ok := byKey[k]; {
			case ok:
				c.value(x, v, at("["+k+"]"))
			case x.kind == jObj:
				c.fail(at("["+k+"]"), "is missing: the task files give this entry")
			default:
				c.fail(path, "is %s, recomputed %s", got.show(), want.show())
				return
			}
		}
		for i, x := range got.vals {
			if k := idxEntryKey(x, i); !seen[k] {
				c.fail(at("["+k+"]"), "is an entry the task files do not give")
			}
		}
	case want.kind != got.kind || want.text != got.text:
		c.fail(path, "is %s, recomputed %s from the archived task files", got.show(), want.show())
	}
}

// compare decodes the published file a member and list entry at a time
// and names every figure that differs from the recomputed one.
func (pl *idxPlan) compare(r io.Reader) []Problem {
	invalid := func(err error) []Problem {
		return []Problem{{File: IndexPath, Msg: fmt.Sprintf("is not valid JSON: %v", err)}}
	}
	dec := json.NewDecoder(bufio.NewReaderSize(r, 64<<10))
	dec.UseNumber()
	c := &idxCompare{}
	tok, err := dec.Token()
	if err != nil {
		return invalid(err)
	}
	if tok != json.Delim('{') {
		v, err := parseAfter(dec, tok)
		if err != nil {
			return invalid(err)
		}
		c.fail(nil, "is %s, want an object", v.show())
		return c.probs
	}
	seen := map[string]bool{}
	var extra []string
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return invalid(err)
		}
		k, _ := kt.(string)
		seen[k] = true
		if slices.Contains(idxLists, k) {
			err = pl.compareList(dec, c, k)
		} else if want := pl.header.get(k); want != nil {
			var v *jnode
			if v, err = parseValue(dec); err == nil {
				c.value(want, v, []string{k})
			}
		} else {
			extra = append(extra, k)
			_, err = parseValue(dec)
		}
		if err != nil {
			return invalid(err)
		}
	}
	if _, err := dec.Token(); err != nil { // '}'
		return invalid(err)
	}
	for _, k := range append(slices.Clone(pl.header.keys), idxLists...) {
		if !seen[k] {
			c.fail([]string{k}, "is missing")
		}
	}
	for _, k := range extra {
		c.fail([]string{k}, "is not a key of %s", IndexPath)
	}
	if dec.More() {
		return []Problem{{File: IndexPath, Msg: "has data after the top-level value"}}
	}
	return c.probs
}

// compareList compares one of the file's lists an entry at a time,
// matched by key (model, GPU) so that a missing entry is named rather
// than shifting every later one.
func (pl *idxPlan) compareList(dec *json.Decoder, c *idxCompare, list string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != json.Delim('[') {
		v, err := parseAfter(dec, tok)
		if err == nil {
			c.fail([]string{list}, "is %s, want an array", v.show())
		}
		return err
	}
	type at struct {
		m *idxModel
		j int
	}
	where := map[string]at{}
	var order []string
	for _, id := range pl.ids {
		es, _ := pl.entries(list, pl.chat[id])
		for j, e := range es {
			k := idxEntryKey(e, len(order))
			if _, dup := where[k]; !dup {
				where[k] = at{pl.chat[id], j}
				order = append(order, k)
			}
		}
	}
	seen := map[string]bool{}
	var extra []string
	for i := 0; dec.More(); i++ {
		x, err := parseValue(dec)
		if err != nil {
			return err
		}
		k := idxEntryKey(x, i)
		a, ok := where[k]
		if !ok {
			extra = append(extra, k)
			continue
		}
		seen[k] = true
		es, _ := pl.entries(list, a.m)
		c.value(es[a.j], x, []string{list, "[" + k + "]"})
	}
	if _, err := dec.Token(); err != nil { // ']'
		return err
	}
	for _, k := range order {
		if !seen[k] {
			c.fail([]string{list, "[" + k + "]"}, "is missing: the task files give this entry")
		}
	}
	for _, k := range extra {
		c.fail([]string{list, "[" + k + "]"}, "is an entry the task files do not give")
	}
	return nil
}
