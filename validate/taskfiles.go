package validate

// The files of every task but Text Conversation: tasks/TASK/models/SLUG.json
// and tasks/TASK/index.json, recomputed from the archived task file by the
// task's own rule (a token task's rows as the model files read them,
// sortRuns and configNode; a diffusion task's by sortDiffusion and dNode)
// and compared byte for byte.

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// taskModel is a recomputed model file of a task.
type taskModel struct {
	slug string
	tree *jnode
	best []taskBest // by GPU
}

// taskBest is a model's index row on one GPU: its node and its unrounded
// energy per unit.
type taskBest struct {
	gpu    string
	node   *jnode
	energy float64
}

// taskHeader is the task block every file of a task carries.
func taskHeader(t *task, in *lbInputs, dataURL string) *jnode {
	text := in.text.Tasks[t.id]
	field, unit, energy, joules := "median_itl_ms", "ms", "wh_per_million_output_tokens", "joules_per_output_token"
	ceiling := float64(t.itlCeilingMS)
	if t.unit != "" {
		field, unit, energy, joules, ceiling = "batch_latency_s", "s", "wh_per_"+t.unit, "joules_per_"+t.unit, t.batchCeilingS
	}
	return jobj().set("id", jstr(t.id)).set("name", jstr(text.Name)).set("unit", jstr(text.Unit)).
		set("energy_key", jstr(energy)).set("joules_key", jstr(joules)).
		set("latency_ceiling", jobj().set("field", jstr(field)).set("max", jnum(floatText(ceiling))).set("unit", jstr(unit))).
		set("file", jstr(t.file)).set("data_url", jstr(dataURL))
}

// taskFileTop is the start of every file of a task: its versions, task
// block and source block.
func taskFileTop(in *lbInputs, head, src *jnode) *jnode {
	return jobj().set("version", jstr(modelVersion)).set("updated", jstr(in.date)).set("data_version", jstr(in.date)).
		set("task", head).set("source", src)
}

// taskModelTree is a task's model file of the model's first row (its
// names and sizes), configurations and index rows.
func taskModelTree(head, src *jnode, in *lbInputs, slug string, first rowIdent, gpus *jnode, configs []*jnode, best []taskBest) *jnode {
	n := taskFileTop(in, head, src).set("slug", jstr(slug)).set("name", jstr(first.nickname)).set("model_id", jstr(first.modelID)).
		set("params_b", jnum(floatText(first.totalParams))).set("active_params_b", jnum(floatText(first.activeParams)))
	if first.arch != "" {
		n.set("architecture", jstr(first.arch))
	}
	bestNode := jobj()
	for _, b := range best {
		bestNode.set(b.gpu, b.node)
	}
	return n.set("gpus", gpus).set("configurations", jarr(configs...)).set("best", bestNode)
}

// taskIndexTree is a task's index of its model files, in slug order.
func taskIndexTree(t *task, head, src *jnode, in *lbInputs, stable int, models []*taskModel) *jnode {
	entries, comparisons := jarr(), jarr()
	for _, m := range models {
		e := pick(m.tree, modelHeads...).set("configurations", jint(len(m.tree.get("configurations").vals))).set("gpus", m.tree.get("gpus")).
			set("file", jstr("tasks/"+t.id+"/models/"+m.slug+".json")).set("best", m.tree.get("best"))
		entries.vals = append(entries.vals, e)
		byGPU := map[string]*taskBest{}
		for i := range m.best {
			byGPU[m.best[i].gpu] = &m.best[i]
		}
		if over, under := byGPU["H100"], byGPU["B200"]; over != nil && under != nil {
			comparisons.vals = append(comparisons.vals, jobj().set("slug", jstr(m.slug)).set("over", over.node).
				set("under", under.node).set("energy_ratio", jnum(sig3Text(over.energy/under.energy))))
		}
	}
	return taskFileTop(in, head, src).set("stable_configurations", jint(stable)).
		set("models", entries).set("gpu_comparisons", comparisons)
}

// taskRead is a task other than Text Conversation as the leaderboard
// check read it: its file, parsed and filtered, and the file's problems.
type taskRead struct {
	t  *task
	td *taskData
	ps *problems
}

// checkTaskFiles recomputes and compares every file of every task of the
// selection but Text Conversation; a file under tasks/ that none of them
// gives is reported too.
func checkTaskFiles(s *snap, rd *lbRead, in *lbInputs) []Problem {
	full, err := sourceBlock(in)
	if err != nil {
		return []Problem{{File: "tasks", Msg: fmt.Sprintf("cannot be recomputed: %v", err)}}
	}
	src := indexSource(full)
	var out []Problem
	want := map[string]bool{}
	for _, tr := range rd.others {
		t, td := tr.t, tr.td
		head, idxPS := taskHeader(t, in, s.source(t.sourceName()).URL), &problems{file: rd.idxPath}
		models, broken, count := taskModels(t, td, in, head, src, tr.ps, idxPS)
		out = append(append(out, tr.ps.list...), idxPS.list...)
		if !td.rowsOK {
			out = append(out, Problem{File: "tasks/" + t.id, Msg: fmt.Sprintf("are recomputed without the rows of %s reported above", td.path)})
		}
		dir := "tasks/" + t.id + "/"
		s.exportTask(t, models)
		for slug := range broken {
			want[dir+"models/"+slug+".json"] = true
		}
		for _, m := range append(models, &taskModel{slug: "", tree: taskIndexTree(t, head, src, in, count, models)}) {
			p := dir + "models/" + m.slug + ".json"
			if m.slug == "" {
				p = dir + "index.json"
			}
			want[p] = true
			out = append(out, compareTaskFile(s, p, m.tree, td.path)...)
		}
	}
	for _, p := range s.files {
		if strings.HasPrefix(p, "tasks/") && !want[p] {
			out = append(out, Problem{File: p, Msg: "is not a recomputed file: no task of selection.tasks, model or row gives it"})
		}
	}
	return out
}

// taskModels recomputes a task's model files from its published rows, in
// slug order, with the slugs of the models that cannot be built and the
// count of the rows published.
func taskModels(t *task, td *taskData, in *lbInputs, head, src *jnode, file, index *problems) (models []*taskModel, broken map[string]bool, count int) {
	add := func(slug string, first rowIdent, gpus *jnode, configs []*jnode, best []taskBest) {
		models = append(models, &taskModel{slug: slug, best: best,
			tree: taskModelTree(head, src, in, slug, first, gpus, configs, best)})
	}
	if t.unit == "" {
		tin := *in
		tin.task, tin.stable, tin.chatPath = t, td.stable, td.path
		broken, err := eachModel(&tin, file, index, func(wm *wantModel) {
			var best []taskBest
			for _, r := range wm.best {
				best = append(best, taskBest{r.gpu, r.node, *r.energy})
			}
			add(wm.slug, wm.configs[0].ident(), wm.tree.get("gpus"), wm.tree.get("configurations").vals, best)
		})
		if err != nil {
			file.add("", "", "cannot be recomputed: %v", err)
		}
		return models, broken, len(td.stable)
	}
	ids, byModel, ok, broken := groupModels(t.id, td.drows, in.index, file, index)
	for _, slug := range slices.Sorted(maps.Keys(ids)) {
		runs, best := sortDiffusion(slug, t.batchCeilingS, byModel[ids[slug]])
		var configs []*jnode
		nodes, gpus := map[*dRow]*jnode{}, jarr()
		for i, r := range runs {
			n, known := dNode(r, t.batchCeilingS)
			if !known {
				file.add(r.where(), "weight_precision", "is %q, which has no published precision (the mapping is reviewed in transform/model.go, Precisions)", r.precision)
				ok[slug] = false
			}
			nodes[r] = n
			configs = append(configs, n)
			if i == 0 || runs[i-1].gpu != r.gpu {
				gpus.vals = append(gpus.vals, jstr(r.gpu))
			}
		}
		if !ok[slug] {
			broken[slug] = true
			continue
		}
		var bests []taskBest
		for _, r := range best {
			bests = append(bests, taskBest{r.gpu, nodes[r], *r.energy})
		}
		add(slug, runs[0].ident(), gpus, configs, bests)
	}
	return models, broken, len(td.drows)
}

// compareTaskFile compares a task's file with its recomputation.
func compareTaskFile(s *snap, p string, want *jnode, from string) []Problem {
	if !s.present(p) {
		return []Problem{{File: p, Msg: "is missing: it is recomputed from " + from}}
	}
	data, err := s.read(p)
	if err != nil {
		return []Problem{cannotRead(p, err)}
	}
	return compareFile(p, data, want, " from "+from)
}
