package validate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/leadgreen/greentokens/internal/sourcetext"
)

// lbRead is what the leaderboard check read of the archived sources.
type lbRead struct {
	idx               *lbIndex
	commit            *lbCommit
	idxPath, commPath string
	filtered          map[string]bool                   // the tasks read
	excluded          map[ManifestExclusion]excludedRow // by the row as the manifest lists it, Reason empty
	exOrder           []ManifestExclusion
	chat              *taskData  // nil when the chat task file could not be read
	chatPS            *problems  // the chat task file's problems, with the model files' (none when not read)
	others            []taskRead // every other task read, in selection order
	probs             []Problem  // the sources' own, in the order they were read
}

// checkLeaderboard recomputes the manifest's selection, evidence and
// exclusions and every model file from the archived leaderboard files.
func checkLeaderboard(s *snap) []Problem {
	m := s.manifest
	mp := &problems{file: ManifestPath}
	tasks := checkSelection(mp, m.Selection)
	rd := readLeaderboard(s, mp, tasks)
	out := rd.probs
	checkExclusions(mp, m.Exclusions, rd)
	if rd.idx != nil {
		checkTasksListed(mp, m.Selection.Tasks, rd)
	}
	switch {
	case rd.idx == nil || rd.commit == nil:
		out = append(out, rd.chatPS.list...)
		for _, tr := range rd.others {
			out = append(out, tr.ps.list...)
		}
	default:
		checkEvidence(mp, m.Evidence, rd, &s.text.Leaderboard)
		in := inputs(s, mp, rd)
		if rd.chat != nil {
			out = append(out, checkModelFiles(s, rd, in)...)
		}
		out = append(out, checkTaskFiles(s, rd, in)...)
	}
	return append(out, mp.list...) // the manifest's problems come last
}

// checkSelection checks the selection parameters against the published
// rule's and returns the published tasks to read, Text Conversation always.
func checkSelection(mp *problems, sel ManifestSelection) []*task {
	chat, rule := chatTask(), sel
	rule.ITLDeadlineMS, rule.MinSteadyStateSeconds, rule.MinBatchFraction = chat.itlCeilingMS, minSteadySeconds, minBatchFraction
	compareBlock(mp, "selection", sel, rule, func(string) string { return " (the published rule)" })
	var selected []*task
	for _, id := range sel.Tasks {
		switch t := taskOf(id); {
		case t == nil:
			mp.add("", "selection.tasks", "lists %q, which is not a published task", id)
		case !slices.Contains(selected, t):
			selected = append(selected, t)
		}
	}
	if !slices.Contains(sel.Tasks, chat.id) {
		mp.add("", "selection.tasks", "lacks %s, the task the model files are built from", chat.id)
		selected = append(selected, chat)
	}
	return selected
}

// checkTasksListed checks that selection.tasks lists only tasks the
// archived index.json lists (any, when it lists none; Text Conversation
// always), in the order of tasks.
func checkTasksListed(mp *problems, got []string, rd *lbRead) {
	var order []string
	for _, t := range tasks {
		if slices.Contains(got, t.id) {
			order = append(order, t.id)
		}
		if slices.Contains(got, t.id) && t.id != taskChat && rd.idx.tasks != nil && !slices.Contains(rd.idx.tasks, t.id) {
			mp.add("", "selection.tasks", "lists %s, which %s does not list", t.id, rd.idxPath)
		}
	}
	if len(order) == len(got) && !slices.Equal(got, order) {
		mp.add("", "selection.tasks", "is %s, not in the published order %s", strings.Join(got, ", "), strings.Join(order, ", "))
	}
}

// readLeaderboard reads the archived index.json and commits.json, and
// parses and filters every task of selected (snap.task).
func readLeaderboard(s *snap, mp *problems, selected []*task) *lbRead {
	rd := &lbRead{filtered: map[string]bool{}, excluded: map[ManifestExclusion]excludedRow{}, chatPS: &problems{}}
	// read parses the source named name with parse, and returns its path.
	read := func(name string, parse func(ps *problems, data []byte)) string {
		src := s.source(name)
		if src == nil {
			mp.add("", "sources", "has no entry for %s", name)
			return ""
		}
		ps := &problems{file: src.Path}
		if b, err := s.read(src.Path); err == nil { // else the manifest check reports a missing file
			parse(ps, b)
		}
		rd.probs = append(rd.probs, ps.list...)
		return src.Path
	}
	rd.idxPath = read(lbIndexName, func(ps *problems, b []byte) { rd.idx = parseIndex(ps, b) })
	rd.commPath = read(lbCommitsName, func(ps *problems, b []byte) { rd.commit = parseCommits(ps, b) })
	idxPS := &problems{file: rd.idxPath}
	for _, t := range selected {
		rd.filtered[t.id] = true
		src := s.source(t.sourceName())
		if src == nil {
			mp.add("", "sources", "has no entry for %s", t.sourceName())
			continue
		}
		td := s.task(t, src.Path)
		if td.readErr != nil {
			continue // the manifest check reports a missing file
		}
		for _, e := range td.excluded {
			rd.excluded[e.key] = e
			rd.exOrder = append(rd.exOrder, e.key)
		}
		if t.id == taskChat {
			rd.chat = td
			rd.chatPS = &problems{file: td.path, list: append([]Problem(nil), td.probs...)}
			continue
		}
		if rd.idx != nil {
			checkIndexed(idxPS, rd.idx, t.id, td.rows)
			checkIndexed(idxPS, rd.idx, t.id, td.drows)
		}
		rd.others = append(rd.others, taskRead{t, td, &problems{file: td.path, list: append([]Problem(nil), td.probs...)}})
	}
	rd.probs = append(rd.probs, idxPS.list...) // rows of models index.json does not list
	return rd
}

// checkExclusions checks that the manifest lists exactly the rows the
// stability filter excludes.
func checkExclusions(mp *problems, exclusions []ManifestExclusion, rd *lbRead) {
	listed := map[ManifestExclusion]bool{}
	for i, e := range exclusions {
		where, k := fmt.Sprintf("exclusions[%d]", i), e
		k.Reason = ""
		desc := fmt.Sprintf("%s configurations[%d] (%s on %d x %s, max_num_seqs %d)", e.Task, e.Row, e.ModelID, e.NumGPUs, e.GPU, e.MaxNumSeqs)
		if e.BatchSize != 0 {
			desc = fmt.Sprintf("%s configurations[%d] (%s on %d x %s, batch_size %d)", e.Task, e.Row, e.ModelID, e.NumGPUs, e.GPU, e.BatchSize)
		}
		switch {
		case listed[k]:
			mp.add(where, "", "lists %s twice", desc)
		case !rd.filtered[e.Task]:
			mp.add(where, "task", "is %s, which is not in selection.tasks", e.Task)
		case rd.excluded[k].reason == "":
			mp.add(where, "", "lists %s, which the stability filter keeps (or which is not that row of the archived task file)", desc)
		}
		listed[k] = true
		if strings.TrimSpace(e.Reason) == "" {
			mp.add(where, "reason", "is empty")
		}
	}
	for _, k := range rd.exOrder {
		if !listed[k] {
			e := rd.excluded[k]
			mp.add("", "exclusions", "lacks %s %s, which the stability filter excludes: %s", k.Task, e.where, e.reason)
		}
	}
}

// checkEvidence recomputes the manifest's evidence block, its conflict
// from the fixed text's template when the two dates differ.
func checkEvidence(mp *problems, ev ManifestEvidence, rd *lbRead, text *sourcetext.Leaderboard) {
	idx, commit := rd.idx, rd.commit
	want := ManifestEvidence{IndexLastUpdated: idx.lastUpdated, LastCommitSHA: commit.sha, LastCommitDate: commit.date, Compiled: idx.lastUpdated}
	dates := fmt.Sprintf(" (none: %s last_updated and the newest commit's UTC date agree, %s)", rd.idxPath, idx.lastUpdated)
	if commit.date != idx.lastUpdated {
		conflict, err := fill(text.ConflictTemplate, map[string]string{"compiled": idx.lastUpdated, "commit_sha": commit.sha, "commit_date": commit.date})
		if err != nil {
			mp.add("", "evidence.conflict", "cannot be recomputed: %v", err)
			return
		}
		want.Conflict = conflict
		dates = fmt.Sprintf(" from the fixed text's template, as %s last_updated %s and the newest commit's UTC date %s (%s [0]) differ",
			rd.idxPath, idx.lastUpdated, commit.date, rd.commPath)
	}
	from := map[string]string{
		"index_last_updated": " from " + rd.idxPath + " last_updated", "compiled": " from " + rd.idxPath + " last_updated",
		"last_commit_sha": " from " + rd.commPath + " [0].sha", "last_commit_date": " from " + rd.commPath + " [0].commit.committer.date (UTC)",
		"conflict": dates,
	}
	compareBlock(mp, "evidence", ev, want, func(key string) string { return from[key] })
}

// inputs is what the model files and the task files are recomputed from:
// Text Conversation's rows, when its file was read.
func inputs(s *snap, mp *problems, rd *lbRead) *lbInputs {
	m := s.manifest
	in := &lbInputs{date: m.Date, index: rd.idx, commit: rd.commit, text: s.text, task: chatTask()}
	if rd.chat != nil {
		in.dataURL, in.chatPath, in.stable = s.source(chatTask().sourceName()).URL, rd.chat.path, rd.chat.stable
	}
	if len(m.Retrieved) >= 10 && isDate(m.Retrieved[:10]) {
		in.retrieved = m.Retrieved[:10]
	} else {
		mp.add("", "retrieved", "%q does not start with a YYYY-MM-DD date", m.Retrieved)
	}
	if !isDate(m.Date) {
		mp.add("", "date", "%q is not a YYYY-MM-DD date", m.Date)
	}
	return in
}

// checkModelFiles recomputes and compares every model file, one at a
// time; a model file no model gives is reported too.
func checkModelFiles(s *snap, rd *lbRead, in *lbInputs) []Problem {
	idxPS := &problems{file: rd.idxPath}
	var modelProbs []Problem
	want := map[string]bool{}
	configs, index := taskTables(taskChat, "model.schema.json", "/$defs/configuration")
	broken, err := eachModel(in, rd.chatPS, idxPS, func(wm *wantModel) {
		p := "models/" + wm.slug + ".json"
		want[p] = true
		exportModel(configs, index, wm.tree, modelHeads)
		if !s.present(p) {
			modelProbs = append(modelProbs, Problem{File: p, Msg: fmt.Sprintf("is missing: %s has %d stable configurations of %s", in.chatPath, len(wm.configs), wm.modelID)})
			return
		}
		data, err := s.read(p)
		if err != nil {
			modelProbs = append(modelProbs, cannotRead(p, err))
			return
		}
		modelProbs = append(modelProbs, compareModel(p, in.chatPath, wm, data)...)
	})
	s.exports.add(configs, index)
	out := append(rd.chatPS.list, idxPS.list...)
	if err != nil {
		return append(out, Problem{File: "models", Msg: fmt.Sprintf("cannot be recomputed: %v", err)})
	}
	if !rd.chat.rowsOK {
		out = append(out, Problem{File: "models", Msg: fmt.Sprintf("are recomputed without the rows of %s reported above", in.chatPath)})
	}
	out = append(out, modelProbs...)
	for _, p := range s.files { // sorted
		if strings.HasPrefix(p, "models/") && !want[p] && !broken[strings.TrimSuffix(strings.TrimPrefix(p, "models/"), ".json")] {
			out = append(out, Problem{File: p, Msg: fmt.Sprintf("is not a recomputed model file: no Text Conversation model in %s has this slug", in.chatPath)})
		}
	}
	return out
}
