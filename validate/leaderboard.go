package validate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/leadgreen/greentokens/transform/sourcetext"
)

// checkLeaderboard recomputes, from the archived leaderboard files alone,
// the manifest's selection parameters, evidence and exclusions and every
// model file, and compares them with the snapshot.
func checkLeaderboard(s *Snap) (out []Problem) {
	m := s.Manifest
	mp := &problems{file: ManifestPath}
	flush := func(ps ...*problems) {
		for _, p := range ps {
			out = append(out, p.list...)
			p.list = nil
		}
	}
	defer flush(mp)

	// The selection parameters are the published rule's.
	sel := m.Selection
	if sel.ITLDeadlineMS != itlDeadlineMS {
		mp.add("", "selection.itl_deadline_ms", "is %d, but the published rule is %d", sel.ITLDeadlineMS, itlDeadlineMS)
	}
	if sel.MinSteadyStateSeconds != minSteadySeconds {
		mp.add("", "selection.min_steady_state_seconds", "is %v, but the stability rule is %v", sel.MinSteadyStateSeconds, minSteadySeconds)
	}
	if sel.MinBatchFraction != minBatchFraction {
		mp.add("", "selection.min_batch_fraction", "is %v, but the stability rule is %v", sel.MinBatchFraction, minBatchFraction)
	}
	tasks := append([]string(nil), sel.Tasks...)
	if !contains(tasks, taskChat) {
		mp.add("", "selection.tasks", "lacks %s, the task the model files are built from", taskChat)
		tasks = append(tasks, taskChat)
	}

	// read returns an archived source's bytes and its snapshot path.
	read := func(name string) ([]byte, string) {
		src := s.Source(name)
		if src == nil {
			mp.add("", "sources", "has no entry for %s", name)
			return nil, ""
		}
		b, err := s.Read(src.Path)
		if err != nil {
			return nil, src.Path // the manifest check reports a missing file
		}
		return b, src.Path
	}

	idxData, idxPath := read(lbIndexName)
	commitsData, commitsPath := read(lbCommitsName)
	idxPS, commitsPS := &problems{file: idxPath}, &problems{file: commitsPath}
	var idx *lbIndex
	var commit *lbCommit
	if idxData != nil {
		idx = parseIndex(idxPS, idxData)
	}
	if commitsData != nil {
		commit = parseCommits(commitsPS, commitsData)
	}
	flush(idxPS, commitsPS)

	// The stability filter, on every task of the selection. Each task file
	// is parsed once per Snapshot call (Snap.task); the index check shares
	// its rows.
	var chatStable []*lbRow
	chatOK := false
	var chatPath string
	var chatPS *problems
	type exKey struct {
		task                string
		row                 int
		model, gpu          string
		numGPUs, maxNumSeqs int
	}
	excluded := map[exKey]excludedRow{}
	var exOrder []exKey
	filtered := map[string]bool{}
	for _, task := range tasks {
		if filtered[task] {
			continue
		}
		filtered[task] = true
		src := s.Source(lbTaskName(task))
		if src == nil {
			mp.add("", "sources", "has no entry for %s", lbTaskName(task))
			continue
		}
		td := s.task(task, src.Path)
		if td.readErr != nil {
			continue // the manifest check reports a missing file
		}
		for _, e := range td.excluded {
			k := exKey{task, e.row.index, e.row.modelID, e.row.gpu, e.row.numGPUs, e.row.maxNumSeqs}
			excluded[k] = e
			exOrder = append(exOrder, k)
		}
		if task != taskChat && idx != nil {
			rows := append([]*lbRow(nil), td.stable...)
			for _, e := range td.excluded {
				rows = append(rows, e.row)
			}
			checkIndexed(idxPS, idx, task, rows)
		}
		if task == taskChat {
			chatStable, chatOK, chatPath = td.stable, td.rowsOK, td.path
			chatPS = &problems{file: td.path, list: append([]Problem(nil), td.probs...)}
		} else {
			out = append(out, td.probs...)
		}
	}

	flush(idxPS)

	// Exclusions: exactly the rows the filter excludes.
	listed := map[exKey]bool{}
	for i, e := range m.Exclusions {
		where := fmt.Sprintf("exclusions[%d]", i)
		k := exKey{e.Task, e.Row, e.ModelID, e.GPU, e.NumGPUs, e.MaxNumSeqs}
		desc := fmt.Sprintf("%s configurations[%d] (%s on %d x %s, max_num_seqs %d)", e.Task, e.Row, e.ModelID, e.NumGPUs, e.GPU, e.MaxNumSeqs)
		switch {
		case listed[k]:
			mp.add(where, "", "lists %s twice", desc)
		case !filtered[e.Task]:
			mp.add(where, "task", "is %s, which is not in selection.tasks", e.Task)
		case excluded[k].row == nil:
			mp.add(where, "", "lists %s, which the stability filter keeps (or which is not that row of the archived task file)", desc)
		}
		listed[k] = true
		if strings.TrimSpace(e.Reason) == "" {
			mp.add(where, "reason", "is empty")
		}
	}
	for _, k := range exOrder {
		if !listed[k] {
			e := excluded[k]
			mp.add("", "exclusions", "lacks %s %s, which the stability filter excludes: %s", k.task, e.row.where(), e.reason)
		}
	}

	// Evidence.
	text, err := sourcetext.LoadLeaderboard()
	if err != nil {
		mp.add("", "", "cannot be checked: %v", err)
		if chatPS != nil {
			flush(chatPS) // the chat task file's own problems stand
		}
		return out
	}
	if idx != nil && commit != nil {
		ev := m.Evidence
		check := func(field, got, want, from string) {
			if got != want {
				mp.add("", "evidence."+field, "is %q, recomputed %q from %s", got, want, from)
			}
		}
		check("index_last_updated", ev.IndexLastUpdated, idx.lastUpdated, idxPath+" last_updated")
		check("compiled", ev.Compiled, idx.lastUpdated, idxPath+" last_updated")
		check("last_commit_sha", ev.LastCommitSHA, commit.sha, commitsPath+" [0].sha")
		check("last_commit_date", ev.LastCommitDate, commit.date, commitsPath+" [0].commit.committer.date (UTC)")
		switch differ := commit.date != idx.lastUpdated; {
		case differ && strings.TrimSpace(ev.Conflict) == "":
			mp.add("", "evidence.conflict", "is empty, but index.json last_updated %s and the newest commit's UTC date %s differ", idx.lastUpdated, commit.date)
		case !differ && ev.Conflict != "":
			mp.add("", "evidence.conflict", "is %q, but index.json last_updated and the newest commit's UTC date agree (%s)", ev.Conflict, idx.lastUpdated)
		}
	}

	// Model files.
	if idx == nil || commit == nil || chatPS == nil {
		if chatPS != nil {
			flush(chatPS)
		}
		return out
	}
	chatSrc := s.Source(lbTaskName(taskChat))
	in := &lbInputs{
		date:     m.Date,
		dataURL:  chatSrc.URL,
		chatPath: chatPath,
		index:    idx,
		commit:   commit,
		text:     text,
		stable:   chatStable,
	}
	if len(m.Retrieved) >= 10 && isDate(m.Retrieved[:10]) {
		in.retrieved = m.Retrieved[:10]
	} else {
		mp.add("", "retrieved", "%q does not start with a YYYY-MM-DD date", m.Retrieved)
	}
	if !isDate(m.Date) {
		mp.add("", "date", "%q is not a YYYY-MM-DD date", m.Date)
	}
	idxPS = &problems{file: idxPath}
	// Each model file is recomputed, read and compared in turn, and let go:
	// memory does not grow with the number of models.
	var modelProbs []Problem
	want := map[string]bool{}
	broken, err := eachModel(in, chatPS, idxPS, func(wm *wantModel) {
		p := "models/" + wm.slug + ".json"
		want[p] = true
		if !s.OnDisk(p) {
			modelProbs = append(modelProbs, Problem{File: p, Msg: fmt.Sprintf("is missing: %s has %d stable configurations of %s", chatPath, len(wm.configs), wm.modelID)})
			return
		}
		data, err := s.Read(p)
		if err != nil {
			modelProbs = append(modelProbs, Problem{File: p, Msg: fmt.Sprintf("cannot be read: %v", err)})
			return
		}
		modelProbs = append(modelProbs, compareModel(p, chatPath, wm, data)...)
	})
	flush(chatPS, idxPS)
	if err != nil {
		out = append(out, Problem{File: "models", Msg: fmt.Sprintf("cannot be recomputed: %v", err)})
		return out
	}
	if !chatOK {
		out = append(out, Problem{File: "models", Msg: fmt.Sprintf("are recomputed without the rows of %s reported above", chatPath)})
	}
	out = append(out, modelProbs...)
	var extra []string
	for _, p := range s.Files {
		if strings.HasPrefix(p, "models/") && !want[p] {
			slug := strings.TrimSuffix(strings.TrimPrefix(p, "models/"), ".json")
			if !broken[slug] {
				extra = append(extra, p)
			}
		}
	}
	sort.Strings(extra)
	for _, p := range extra {
		out = append(out, Problem{File: p, Msg: fmt.Sprintf("is not a recomputed model file: no Text Conversation model in %s has this slug", chatPath)})
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
