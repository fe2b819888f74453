// Package history follows a model's index rows across the releases of a
// store (a folder of dated snapshots or a bucket of releases), each read as
// the catalog serves it, verified: each GPU's index-row energy in every
// release, dated by the release and by the upstream data's compiled date,
// and, for each release that changed a figure, why it changed (why.go):
// the upstream data changed, a row of the model was excluded or restored by
// the build's rules, the index row is a new row or on a new GPU, or the
// code that built the release changed while its sources did not. The
// reasons come from the two releases' manifests and from snapshots/diff's
// report of the two.
//
// It also writes the releases of a store as an Atom feed, each entry with
// its diff's summary against the release before it (feed.go).
//
// The command line's history, the API's /v1/history/{model}, the MCP
// server's get_history and the site's history chart all answer through it,
// with the same objects (History, and Compact for a short answer).
//
// A task is a parameter, any registered one: the primary task's index rows
// are the model files' (best), every other task's its own files'
// (tasks/TASK/models/SLUG.json, as the catalog reads them; Problem
// Solving's, in a release without them, index.json's task comparisons); the task's stable upstream rows are read
// from the release's archived task file. A figure is in the task's unit:
// Wh per million output tokens, per image or per video.
package history

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/leaderboard"
)

// History is one model's index rows in one task across releases.
type History struct {
	Model   string `json:"model"`
	Name    string `json:"name"`
	ModelID string `json:"model_id"`
	// Task is the task's id ("lm-arena-chat"), TaskName its name.
	Task     string `json:"task"`
	TaskName string `json:"task_name"`
	Unit     string `json:"unit"`
	// GPU is the GPU asked for; null for every GPU.
	GPU *string `json:"gpu"`
	// Releases are every release read, by ascending date, whether or not
	// it publishes the model.
	Releases []ReleaseInfo `json:"releases"`
	// Series holds one line per GPU with an index row in some release,
	// in the order of the newest release's GPUs: a point for each release
	// that publishes the model, from the GPU's first index row on.
	Series []Series `json:"series"`
}

// ReleaseInfo names a release and what built it.
type ReleaseInfo struct {
	Date string `json:"date"`
	// Compiled is the upstream data's compiled date (the manifest's
	// evidence): the date a chart puts the release at.
	Compiled       string `json:"compiled"`
	ManifestSHA256 string `json:"manifest_sha256"`
	// LeaderboardVersion is the model files' source version; "" when the
	// release has no model.
	LeaderboardVersion string `json:"leaderboard_version"`
	// Generator names the code that built it: module@version and revision.
	Generator string `json:"generator"`
	// Models counts the release's models.
	Models int `json:"models"`
}

// Series is one GPU's index row across the releases that publish the
// model.
type Series struct {
	GPU    string  `json:"gpu"`
	Points []Point `json:"points"`
}

// Kinds of a Point's change: as snapshots/diff names an index row's.
const (
	Moved   = "moved"   // the same row, its energy moved
	Changed = "changed" // another configuration is the GPU's index row
	Added   = "added"   // the GPU has an index row, and had none in the release before
	Removed = "removed" // the GPU has no index row, and had one in the release before
)

// Point is the GPU's index row in one release.
type Point struct {
	Release  string `json:"release"`
	Compiled string `json:"compiled"`
	// RowID, NumGPUs and the energy are the index row's, as published;
	// null when the GPU has no index row in this release.
	RowID   *string `json:"row_id"`
	NumGPUs *int    `json:"num_gpus"`
	// The energy is under the key named for the task's unit, as a task's
	// index rows publish it, and only that key (null without a row):
	// WhPerMillion a token task's, WhPerImage an image task's, WhPerVideo
	// a video task's (MarshalJSON).
	WhPerMillion *format.Float `json:"wh_per_million_output_tokens,omitempty"`
	WhPerImage   *format.Float `json:"wh_per_image,omitempty"`
	WhPerVideo   *format.Float `json:"wh_per_video,omitempty"`
	// Change is null when the published figure is the release before's
	// (and in the first release); else Moved, Changed, Added or Removed.
	Change *string `json:"change"`
	// RelativeChangePercent is (new / old - 1) x 100 of the unrounded
	// energy, to 2 decimals, when both releases have a row.
	RelativeChangePercent *format.Float `json:"relative_change_percent"`
	// Why says what changed the figure; empty when Change is null.
	Why []Reason `json:"why"`

	// Kind is the task's kind, which names the energy's key; not written
	// (the history's task says it), and found from the key that holds a
	// figure in a point read back.
	Kind format.Kind `json:"-"`
}

// Request asks for a model's history.
type Request struct {
	// Model is a slug, name or model id, as catalog.FindModel takes it.
	Model string
	// Task is a registered task's id, any of format.Tasks(); "" is the
	// primary task.
	Task string
	// GPU restricts the answer to one GPU; "" means every GPU.
	GPU string
}

// LookupTask returns the registered task id names, the primary task for
// "", and a catalog error naming the registered tasks otherwise.
func LookupTask(id string) (format.Task, error) {
	if strings.TrimSpace(id) == "" {
		return format.PrimaryTask(), nil
	}
	if len(id) > catalog.MaxNameBytes {
		return format.Task{}, &catalog.Error{Kind: catalog.Invalid, What: "task", Query: id,
			Detail: fmt.Sprintf("task name over %d bytes", catalog.MaxNameBytes)}
	}
	if t, ok := format.LookupTask(id); ok {
		return t, nil
	}
	var ids []string
	for _, t := range format.Tasks() {
		ids = append(ids, t.ID)
	}
	return format.Task{}, &catalog.Error{Kind: catalog.Invalid, What: "task", Query: id, Nearest: catalog.Nearest(id, ids),
		Detail: fmt.Sprintf("no task %q; the tasks are %s", id, strings.Join(ids, ", "))}
}

// row is an index row of one release: its energy per the task's unit as
// published and unrounded.
type row struct {
	id        string
	numGPUs   int
	wh        format.Float
	unrounded float64
}

// stableRow is what the history reads of a stable upstream row of the
// task: its GPU and configuration, and its unrounded energy per the
// task's unit.
type stableRow struct {
	gpu     string
	numGPUs int
	// size is a token row's max_num_seqs, a diffusion row's batch size:
	// the configuration's figure an exclusion names.
	size int
	wh   float64
}

// view is what the history reads of one release for one model and task.
type view struct {
	info  ReleaseInfo
	snap  *catalog.Snapshot
	model *format.Model // nil when the release does not publish the model
	// index holds each GPU's index row; stable the task's stable upstream
	// rows of the model, by row id; gpus the GPUs they were measured on.
	index  map[string]row
	stable map[string]stableRow
	gpus   map[string]bool
	// changes holds each GPU's change since the release before.
	changes map[string]change
}

// info describes the release s.
func info(s *catalog.Snapshot) ReleaseInfo {
	g := s.Manifest.Generator
	ri := ReleaseInfo{Date: s.Date, Compiled: s.Compiled, ManifestSHA256: s.Info().Manifest,
		Generator: g.Module + "@" + g.Version + " " + g.Revision, Models: len(s.Models)}
	if len(s.Models) > 0 {
		ri.LeaderboardVersion = s.Models[0].Source.Version
	}
	return ri
}

// fromIndex reports whether the release s's index rows of task are read
// from the model files and index.json: the primary task's always, Problem
// Solving's in a release without its own task files (tasks/gpqa/); every
// other task's, and Problem Solving's where it has them, are read from the
// task's model files, which publish the models the model files do not
// (those with Problem Solving rows only) too.
func fromIndex(s *catalog.Snapshot, task format.Task) bool {
	return task.Primary || task.InIndex && len(s.TaskModels(task.ID)) == 0
}

// publishes returns the release s's model slug in task: a model file's
// for the tasks read from the index (fromIndex), the task's model file's
// for another; nil when s does not publish it.
func publishes(s *catalog.Snapshot, slug string, task format.Task) *format.Model {
	if fromIndex(s, task) {
		return s.Published[slug]
	}
	for _, m := range s.TaskModels(task.ID) {
		if m.Slug == slug {
			return m
		}
	}
	return nil
}

// find finds the model query names in the release s's task.
func find(s *catalog.Snapshot, query string, task format.Task) (*format.Model, error) {
	if fromIndex(s, task) {
		return s.FindModel(query)
	}
	return s.FindTaskModel(task.ID, query)
}

// readView reads the release s's view of the model m in task, from the
// rows parsed (the task's stable rows, and the task's index rows of
// index.json for Problem Solving read from the index); a token task's other index rows are
// m's (its task model file's best), a diffusion task's its task model
// file's best.
func readView(s *catalog.Snapshot, p *parsed, m *format.Model, task format.Task) (*view, error) {
	v := &view{info: info(s), snap: s, model: m, index: map[string]row{}, stable: map[string]stableRow{}, gpus: map[string]bool{}}
	prefix := m.Slug + "/"
	for id, r := range p.rows {
		if strings.HasPrefix(id, prefix) {
			v.stable[id] = r
			v.gpus[r.gpu] = true
		}
	}
	add := func(gpu, id string, numGPUs int, wh *format.Float) error {
		r, ok := v.stable[id]
		if !ok || wh == nil {
			return fmt.Errorf("release %s: %s's index row %s on %s is no stable row of %s", s.Date, m.Slug, id, gpu, task.ArchivedPath())
		}
		v.index[gpu] = row{id: id, numGPUs: numGPUs, wh: *wh, unrounded: r.wh}
		return nil
	}
	switch {
	case task.Kind.Diffusion():
		tm := s.TaskDiffusion(task.ID, m.Slug)
		for gpu, c := range tm.Best {
			wh := c.WhPerImage
			if task.Kind == format.Videos {
				wh = c.WhPerVideo
			}
			if err := add(gpu, c.RowID, c.NumGPUs, wh); err != nil {
				return nil, err
			}
		}
	case !fromIndex(s, task) || task.Primary:
		for gpu, c := range m.Best {
			if err := add(gpu, c.RowID, c.NumGPUs, &c.WhPerMillion); err != nil {
				return nil, err
			}
		}
	default:
		for _, tc := range p.comparisons[m.Slug] {
			if tc.Other.Task == task.ID {
				if err := add(tc.GPU, tc.Other.RowID, tc.Other.NumGPUs, &tc.Other.WhPerMillion); err != nil {
					return nil, err
				}
			}
		}
	}
	return v, nil
}

// parsed is what the history reads of a release's files for one task,
// once: the task's stable rows, and index.json's task comparisons by slug
// (for Problem Solving read from the index, whose index rows they are).
type parsed struct {
	rows        map[string]stableRow
	comparisons map[string][]format.TaskComparison
}

// parse reads the release s's files that the history of task needs.
func parse(s *catalog.Snapshot, task format.Task) (*parsed, error) {
	f, ok := s.File(task.ArchivedPath())
	if !ok {
		return nil, fmt.Errorf("release %s archives no %s", s.Date, task.ArchivedPath())
	}
	p := &parsed{rows: map[string]stableRow{}, comparisons: map[string][]format.TaskComparison{}}
	if task.Kind.Diffusion() {
		rows, err := leaderboard.DiffusionTaskRows(task.ID, f.Bytes)
		if err != nil {
			return nil, fmt.Errorf("release %s: %w", s.Date, err)
		}
		for id, r := range rows {
			p.rows[id] = stableRow{gpu: r.GPU, numGPUs: r.NumGPUs, size: r.BatchSize, wh: r.Wh()}
		}
		return p, nil
	}
	rows, err := leaderboard.TaskRows(task.ID, f.Bytes)
	if err != nil {
		return nil, fmt.Errorf("release %s: %w", s.Date, err)
	}
	for id, r := range rows {
		p.rows[id] = stableRow{gpu: r.GPU, numGPUs: r.NumGPUs, size: r.MaxNumSeqs, wh: r.WhPerMillion()}
	}
	if !fromIndex(s, task) || task.Primary {
		return p, nil
	}
	idx, ok := s.File(format.IndexPath)
	if !ok {
		return nil, fmt.Errorf("release %s has no %s", s.Date, format.IndexPath)
	}
	var ix struct {
		TaskComparisons []format.TaskComparison `json:"task_comparisons"`
	}
	if err := json.Unmarshal(idx.Bytes, &ix); err != nil {
		return nil, fmt.Errorf("release %s: %s: %w", s.Date, format.IndexPath, err)
	}
	for _, tc := range ix.TaskComparisons {
		p.comparisons[tc.Slug] = append(p.comparisons[tc.Slug], tc)
	}
	return p, nil
}

// Builder makes a History from releases given one at a time, by ascending
// date, holding only the last one besides the answer: the command line
// reads a store's releases so, one loaded at a time.
type Builder struct {
	ctx  context.Context
	req  Request
	task format.Task
	src  source
	// last is the view of the release added last, with its snapshot and
	// rows, which the next release is compared with.
	last    *view
	views   []*view // the releases that publish the model, without their snapshots
	slug    string
	lastErr error
	h       *History
}

// source reads what the history needs of a release, and the diff of two:
// the Index's caches, or none (the command line reads each release once).
type source interface {
	parse(s *catalog.Snapshot, task format.Task) (*parsed, error)
	why(ctx context.Context, old, new *catalog.Snapshot) (*pairDiff, error)
}

// NewBuilder starts the history req asks for. Its task is checked at once.
func NewBuilder(ctx context.Context, req Request) (*Builder, error) {
	return newBuilder(ctx, req, direct{})
}

func newBuilder(ctx context.Context, req Request, src source) (*Builder, error) {
	task, err := LookupTask(req.Task)
	if err != nil {
		return nil, err
	}
	if len(req.GPU) > catalog.MaxNameBytes {
		return nil, &catalog.Error{Kind: catalog.Invalid, What: "gpu", Query: req.GPU, Detail: fmt.Sprintf("gpu name over %d bytes", catalog.MaxNameBytes)}
	}
	return &Builder{ctx: ctx, req: req, task: task, src: src, h: &History{Task: task.ID, TaskName: task.Name, Unit: task.Unit}}, nil
}

// Add reads the release s, the next by date: the model's index rows in it,
// and why each one that changed since the release before changed.
func (b *Builder) Add(s *catalog.Snapshot) error {
	if err := b.ctx.Err(); err != nil {
		return err
	}
	if b.last != nil && s.Date <= b.last.info.Date {
		return fmt.Errorf("history: release %s given after %s", s.Date, b.last.info.Date)
	}
	b.h.Releases = append(b.h.Releases, info(s))
	if m, err := find(s, b.req.Model, b.task); err != nil {
		b.lastErr = err
	} else if m.Slug != b.slug {
		// The newest release that has the model names it: a query that
		// named another model in earlier releases follows this one.
		b.slug, b.views = m.Slug, nil
		if b.last != nil {
			prev, err := b.view(b.last.snap)
			if err != nil {
				return err
			}
			b.last = prev
		}
	}
	v, err := b.view(s)
	if err != nil {
		return err
	}
	if b.last != nil && v.model != nil {
		if err := b.compare(b.last, v); err != nil {
			return err
		}
	}
	if b.last != nil {
		b.last.snap, b.last.stable, b.last.gpus = nil, nil, nil // compared: only the answer's part is kept
	}
	if v.model != nil {
		b.views = append(b.views, v)
	}
	b.last = v
	return nil
}

// view reads the release s's view of the model the builder follows; a
// release that does not publish it is read no further.
func (b *Builder) view(s *catalog.Snapshot) (*view, error) {
	m := publishes(s, b.slug, b.task)
	if b.slug == "" || m == nil {
		return &view{info: info(s), snap: s}, nil
	}
	p, err := b.src.parse(s, b.task)
	if err != nil {
		return nil, err
	}
	return readView(s, p, m, b.task)
}

// change is a GPU's index row's change since the release before.
type change struct {
	kind string
	rel  *format.Float
	why  []Reason
}

// compare records in cur each GPU's change since prev.
func (b *Builder) compare(prev, cur *view) error {
	gpus := map[string]bool{}
	for g := range prev.index {
		gpus[g] = true
	}
	for g := range cur.index {
		gpus[g] = true
	}
	var pd *pairDiff
	for _, gpu := range sortedKeys(gpus) {
		o, hadOld := prev.index[gpu]
		n, hasNew := cur.index[gpu]
		var kind string
		switch {
		case hadOld && hasNew && o.id == n.id && o.wh == n.wh:
			continue
		case hadOld && hasNew && o.id == n.id:
			kind = Moved
		case hadOld && hasNew:
			kind = Changed
		case hasNew:
			kind = Added
		default:
			kind = Removed
		}
		if pd == nil {
			var err error
			if pd, err = b.src.why(b.ctx, prev.snap, cur.snap); err != nil {
				return err
			}
		}
		c := change{kind: kind, why: classify(pd, prev, cur, b.task, gpu)}
		if hadOld && hasNew && o.unrounded != 0 {
			r := format.Round((n.unrounded/o.unrounded-1)*100, 2)
			c.rel = &r
		}
		if cur.changes == nil {
			cur.changes = map[string]change{}
		}
		cur.changes[gpu] = c
	}
	return nil
}

// History returns the history of the releases added. A model that no
// release publishes is the newest release's error (the nearest names); a
// GPU on which no release has an index row of it is a NotFound error naming
// those that have one.
func (b *Builder) History() (*History, error) {
	h := b.h
	if len(b.views) == 0 {
		if b.lastErr != nil {
			return nil, b.lastErr
		}
		return nil, &catalog.Error{Kind: catalog.NotFound, What: "snapshot", Query: catalog.Latest, Detail: "no snapshot is served yet"}
	}
	newest := b.views[len(b.views)-1]
	h.Model, h.Name, h.ModelID = newest.model.Slug, newest.model.Name, newest.model.ModelID
	var order []string
	seen := map[string]bool{}
	for i := len(b.views) - 1; i >= 0; i-- {
		for _, g := range b.views[i].model.GPUs {
			if !seen[g] {
				seen[g] = true
				order = append(order, g)
			}
		}
	}
	has := map[string]bool{}
	for _, v := range b.views {
		for g := range v.index {
			has[g] = true
		}
	}
	order = slices.DeleteFunc(order, func(g string) bool { return !has[g] })
	if b.req.GPU != "" {
		var found string
		for _, g := range order {
			if strings.EqualFold(g, strings.TrimSpace(b.req.GPU)) {
				found = g
			}
		}
		if found == "" {
			return nil, &catalog.Error{Kind: catalog.NotFound, What: "gpu", Query: b.req.GPU, Nearest: order,
				Detail: fmt.Sprintf("no index row of %s on %q in %s in any release; it has index rows on %s", h.Model, b.req.GPU, h.TaskName, strings.Join(order, ", "))}
		}
		order = []string{found}
		h.GPU = &found
	}
	h.Series = []Series{}
	for _, gpu := range order {
		s := Series{GPU: gpu, Points: []Point{}}
		for _, v := range b.views {
			if _, ok := v.index[gpu]; !ok && len(s.Points) == 0 {
				continue // a series starts at its first index row
			}
			p := Point{Release: v.info.Date, Compiled: v.info.Compiled, Why: []Reason{}, Kind: b.task.Kind}
			if r, ok := v.index[gpu]; ok {
				id, n, wh := r.id, r.numGPUs, r.wh
				p.RowID, p.NumGPUs = &id, &n
				p.setWh(&wh)
			}
			if c, ok := v.changes[gpu]; ok {
				k := c.kind
				p.Change, p.RelativeChangePercent, p.Why = &k, c.rel, c.why
			}
			s.Points = append(s.Points, p)
		}
		h.Series = append(h.Series, s)
	}
	return h, nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
