package validate

// The index check: index.json recomputed from the task files' rows as the
// model files read them (parseTaskFile, filterStable, sortRuns), printed a
// list at a time and compared with the published bytes; only when they
// differ is the published file decoded, to name each differing figure.

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/leadgreen/greentokens/internal/sourcetext"
)

// IndexPath is index.json's path in a snapshot.
const IndexPath = "index.json"

// idxMaxProblems caps the mismatches one check reports.
const idxMaxProblems = 50

// idxSnapshotCheck is the snapshot check: every figure of index.json is
// recomputed from the published tasks' files (parsed once, snap.task;
// their problems are the leaderboard check's when it reads them), its
// header from the manifest's dates and evidence and the fixed text. A
// mismatch names the entry and the field:
//
//	index.json: gpu_comparisons[12] (qwen-3-32b): energy_per_token_ratio is 1.64, recomputed 1.63 from the archived task files
func idxSnapshotCheck(s *snap) []Problem {
	if s.output(IndexPath) == nil && !s.present(IndexPath) {
		return nil
	}
	cannotRead := func(p string, err error) []Problem {
		return []Problem{{File: p, Msg: fmt.Sprintf("cannot be read (%s is computed from it): %v", IndexPath, err)}}
	}
	read := make([]*taskData, len(indexTasks))
	for i := range indexTasks {
		t := &indexTasks[i]
		if read[i] = s.task(t, t.file); read[i].readErr != nil {
			return cannotRead(t.file, read[i].readErr)
		}
	}
	// A task file with problems (reported here unless the leaderboard
	// check reports them) is no ground to recompute the index from.
	var out []Problem
	for i, td := range read {
		if len(td.probs) > 0 {
			// The leaderboard check reports the file it reads: Text
			// Conversation's and the selected tasks', at their source.
			t, src := &indexTasks[i], s.source(indexTasks[i].sourceName())
			if t.id != taskChat && !slices.Contains(s.manifest.Selection.Tasks, t.id) || src == nil || src.Path != td.path {
				out = append(out, td.probs...)
			}
			out = append(out, Problem{File: IndexPath, Msg: fmt.Sprintf("cannot be recomputed: %s has the problems reported above", td.path)})
		}
	}
	if out != nil {
		return out
	}
	pl, fail := idxPrepare(s.manifest, s.text, read)
	if fail != nil {
		return []Problem{*fail}
	}
	want := pl.file()
	printed := writeTree(want)
	if pl.fail != nil {
		return []Problem{*pl.fail}
	}
	data, err := s.read(IndexPath)
	if err != nil {
		return cannotRead(IndexPath, err)
	}
	d := &jdiff{ps: &problems{file: IndexPath}, max: idxMaxProblems,
		note: func(*jnode, string) string { return " from the archived task files" }}
	d.tree(data, printed, want)
	return d.ps.list
}

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

// idxGroup groups the stable rows of t by model and names them (slug: the
// Text Conversation slug where given, else from the nickname).
func idxGroup(t *task, rows []*lbRow, slugs map[string]string) map[string]*idxModel {
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
		m.runs, m.best = sortRuns(slug, t.itlCeilingMS, rows)
		out[id] = m
	}
	return out
}

// The lists of index.json, in the file's order, after its header.
var idxLists = []string{"models", "gpu_comparisons", "task_comparisons", "load_curves"}

// idxPlan is the recomputed index.json, ready to be printed or compared one
// list at a time: the grouped runs, the header (the lists aside), and the
// first entry that could not be recomputed.
type idxPlan struct {
	chat, gpqa map[string]*idxModel
	ids        []string // the Text Conversation models, by slug
	header     *jnode
	fail       *Problem
}

// idxPrepare groups the rows of every task (read, in the order of tasks)
// and recomputes the header.
func idxPrepare(m *Manifest, text *sourcetext.Text, read []*taskData) (*idxPlan, *Problem) {
	chat, gpqa := chatTask(), taskOf(taskGPQA)
	byTask := map[string]*taskData{}
	for _, td := range read {
		byTask[td.task] = td
	}
	pl := &idxPlan{chat: idxGroup(chat, byTask[chat.id].stable, nil)}
	slugs := map[string]string{}
	for id, m := range pl.chat {
		slugs[id] = m.slug
		pl.ids = append(pl.ids, id)
	}
	slices.SortFunc(pl.ids, func(a, b string) int {
		return cmp.Or(strings.Compare(pl.chat[a].slug, pl.chat[b].slug), strings.Compare(a, b))
	})
	pl.gpqa = idxGroup(gpqa, byTask[gpqa.id].stable, slugs)
	// The header repeats the model files' dates and source fields.
	full, err := sourceBlock(&lbInputs{date: m.Date, retrieved: m.Retrieved[:min(10, len(m.Retrieved))], text: text,
		index: &lbIndex{lastUpdated: m.Evidence.Compiled}, commit: &lbCommit{date: m.Evidence.LastCommitDate}})
	if err != nil {
		return nil, &Problem{File: IndexPath, Msg: fmt.Sprintf("cannot be recomputed: %v", err)}
	}
	source, list := indexSource(full), jarr()
	for i, t := range indexTasks {
		list.vals = append(list.vals, jobj().set("task", jstr(t.id)).set("name", jstr(text.Tasks[t.id].Name)).set("file", jstr(t.file)).
			set("stable_configurations", jint(len(read[i].stable))))
	}
	source.set("details", jstr(text.Leaderboard.IndexDetails)).
		set("tasks", list)
	pl.header = jobj().set("version", jstr("1")).set("updated", jstr(m.Date)).set("data_version", jstr(m.Date)).
		set("unit", jstr(text.Tasks[chat.id].Unit)).set("itl_deadline_ms", jint(chat.itlCeilingMS)).
		set("source", source)
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
	for _, r := range m.runs {
		if r.nickname != r0.nickname || r.totalParams != r0.totalParams || r.activeParams != r0.activeParams || r.arch != r0.arch {
			return nil, &Problem{File: chatTask().file, Where: r.where(), Msg: fmt.Sprintf("name, parameters or architecture differ from %s", r0.where())}
		}
	}
	best := jobj()
	for _, b := range m.best {
		c, known := configNode(b)
		if !known {
			return nil, &Problem{File: chatTask().file, Where: b.where(), Field: "weight_precision", Msg: fmt.Sprintf("is %q, which has no published precision", b.precision)}
		}
		best.set(b.gpu, c)
	}
	return jobj().set("slug", jstr(m.slug)).set("name", jstr(r0.nickname)).set("model_id", jstr(m.id)).
		set("params_b", jnum(floatText(r0.totalParams))).set("active_params_b", jnum(floatText(r0.activeParams))).
		set("architecture", jstr(r0.arch)).set("configurations", jint(len(m.runs))).set("gpus", gpuList(m.runs)).
		set("file", jstr("models/"+m.slug+".json")).set("best", best), nil
}

// idxRef is a row reference of index.json: members of the run's
// configuration, in the reference's order.
func idxRef(r *run) *jnode {
	c, _ := configNode(r)
	return pick(c, "row_id", "num_gpus", "max_num_seqs", "avg_running_batch", "wh_per_million_output_tokens",
		"joules_per_output_token", "median_itl_ms", "tokens_per_second", "gpu_power_watts_total", "avg_output_tokens")
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

// file is the recomputed index.json: its header, then each list, computed
// whenever the file is printed or compared, so that no two are held at
// once.
func (pl *idxPlan) file() *jnode {
	top := &jnode{kind: jObj, keys: slices.Clone(pl.header.keys), vals: slices.Clone(pl.header.vals)}
	for _, k := range idxLists {
		top.set(k, &jnode{kind: jArr, lazy: func() *jnode { return pl.list(k) }})
	}
	return top
}

// list recomputes the list k whole, in the order of the Text Conversation
// models; an entry that cannot be recomputed ends it, and is pl.fail.
func (pl *idxPlan) list(k string) *jnode {
	list := jarr()
	for _, id := range pl.ids {
		es, fail := pl.entries(k, pl.chat[id])
		if fail != nil {
			pl.fail = cmp.Or(pl.fail, fail)
			return list
		}
		list.vals = append(list.vals, es...)
	}
	return list
}
