package catalog

// The tasks of a snapshot beside the primary one: each task's files
// (tasks/TASK/index.json, tasks/TASK/models/SLUG.json) decoded, each
// configuration paired with the row of the archived task file behind it,
// whose unrounded figures a price starts from.

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/leaderboard"
	"github.com/leadgreen/greentokens/pricing"
)

// ParamTask is the price and list requests' parameter naming a task, as
// Error.What and the API's query name it.
const ParamTask = "task"

// taskData is one task's files of a snapshot, decoded. A token task's
// models are format.Model values with the task file's configurations and
// index rows (the model files' own type), so that a token task is priced
// as the primary one is; a diffusion task's keep their own configurations
// in diffusion.
type taskData struct {
	task format.Task
	// models are the task's models by slug, as FindModel finds them.
	models []*format.Model
	// tokenRows are the archived rows behind a token task's
	// configurations, by slug, in order.
	tokenRows map[string][]*leaderboard.Row
	// diffusion are a diffusion task's model files by slug, and diffRows
	// the archived rows behind their configurations, in order.
	diffusion map[string]*format.TaskModel[format.DiffusionConfig]
	diffRows  map[string][]*leaderboard.DiffusionRow
	// sources are the source blocks of the model files, by slug.
	sources map[string]format.TaskSource
	// stable is the index's stable_configurations.
	stable int
}

// loadTasks decodes the files of every task but the primary one that the
// snapshot publishes (a snapshot built before the registry had a task has
// no files of it, and is served without it) and pairs each configuration
// with its archived row: the row its row id names, whose rounded energy is
// the published one.
func (s *Snapshot) loadTasks() error {
	s.tasks = map[string]*taskData{}
	for _, t := range format.Tasks() {
		if !t.HasFiles() {
			continue
		}
		idxFile, ok := s.files[format.TaskIndexPath(t.ID)]
		if !ok {
			continue
		}
		src, ok := s.files[t.ArchivedPath()]
		if !ok {
			return fmt.Errorf("%s: its task file %s is not in %s", idxFile.Path, t.ArchivedPath(), format.ManifestPath)
		}
		var idx struct {
			Stable int `json:"stable_configurations"`
			Models []struct {
				Slug string `json:"slug"`
			} `json:"models"`
		}
		if err := json.Unmarshal(idxFile.Bytes, &idx); err != nil {
			return fmt.Errorf("%s: %w", idxFile.Path, err)
		}
		td := &taskData{task: t, stable: idx.Stable, sources: map[string]format.TaskSource{}}
		var err error
		if t.Kind.Diffusion() {
			err = td.loadDiffusion(s, src.Bytes, idx.Models)
		} else {
			err = td.loadTokens(s, src.Bytes, idx.Models)
		}
		if err != nil {
			return err
		}
		s.tasks[t.ID] = td
	}
	return nil
}

// modelFile returns the bytes of the task model file of slug.
func (s *Snapshot) taskModelFile(task, slug string) ([]byte, error) {
	p := format.TaskModelPath(task, slug)
	f, ok := s.files[p]
	if !ok {
		return nil, fmt.Errorf("%s lists %s, which is not in %s", format.TaskIndexPath(task), p, format.ManifestPath)
	}
	return f.Bytes, nil
}

func (td *taskData) loadTokens(s *Snapshot, src []byte, entries []struct {
	Slug string `json:"slug"`
}) error {
	t := td.task
	rows, err := leaderboard.TaskRows(t.ID, src)
	if err != nil {
		return fmt.Errorf("archived sources: %w", err)
	}
	td.tokenRows = map[string][]*leaderboard.Row{}
	for _, e := range entries {
		b, err := s.taskModelFile(t.ID, e.Slug)
		if err != nil {
			return err
		}
		var tm format.TaskModel[format.Config]
		if err := json.Unmarshal(b, &tm); err != nil {
			return fmt.Errorf("%s: %w", format.TaskModelPath(t.ID, e.Slug), err)
		}
		m := &format.Model{Slug: tm.Slug, Name: tm.Name, ModelID: tm.ModelID, ParamsB: tm.ParamsB, ActiveParamsB: tm.ActiveParamsB,
			Architecture: tm.Architecture, Unit: t.Unit, GPUs: tm.GPUs, Configurations: tm.Configurations, Best: tm.Best}
		paired := make([]*leaderboard.Row, len(m.Configurations))
		for i, c := range m.Configurations {
			r := rows[c.RowID]
			if r == nil || r.ModelID != m.ModelID || format.Round(r.WhPerMillion(), 2) != c.WhPerMillion {
				return fmt.Errorf("%s: configurations[%d] (%s) differs from the archived sources", format.TaskModelPath(t.ID, m.Slug), i, c.RowID)
			}
			paired[i] = r
		}
		for gpu, b := range m.Best {
			if i, ok := pricing.BestWith(m, paired, gpu, 0); !ok || m.Configurations[i].RowID != b.RowID {
				return fmt.Errorf("%s: best[%s] differs from the archived sources", format.TaskModelPath(t.ID, m.Slug), gpu)
			}
		}
		td.models = append(td.models, m)
		td.tokenRows[m.Slug] = paired
		td.sources[m.Slug] = tm.Source
	}
	return nil
}

func (td *taskData) loadDiffusion(s *Snapshot, src []byte, entries []struct {
	Slug string `json:"slug"`
}) error {
	t := td.task
	rows, err := leaderboard.DiffusionTaskRows(t.ID, src)
	if err != nil {
		return fmt.Errorf("archived sources: %w", err)
	}
	td.diffusion = map[string]*format.TaskModel[format.DiffusionConfig]{}
	td.diffRows = map[string][]*leaderboard.DiffusionRow{}
	for _, e := range entries {
		b, err := s.taskModelFile(t.ID, e.Slug)
		if err != nil {
			return err
		}
		var tm format.TaskModel[format.DiffusionConfig]
		if err := json.Unmarshal(b, &tm); err != nil {
			return fmt.Errorf("%s: %w", format.TaskModelPath(t.ID, e.Slug), err)
		}
		paired := make([]*leaderboard.DiffusionRow, len(tm.Configurations))
		for i, c := range tm.Configurations {
			r := rows[c.RowID]
			if r == nil || r.ModelID != tm.ModelID || r.Energy == nil || diffusionWh(c) == nil || format.Round(r.Wh(), 4) != *diffusionWh(c) {
				return fmt.Errorf("%s: configurations[%d] (%s) differs from the archived sources", format.TaskModelPath(t.ID, tm.Slug), i, c.RowID)
			}
			paired[i] = r
		}
		for gpu, b := range tm.Best {
			if i, ok := pricing.BestDiffusion(&tm, paired, gpu, 0); !ok || tm.Configurations[i].RowID != b.RowID {
				return fmt.Errorf("%s: best[%s] differs from the archived sources", format.TaskModelPath(t.ID, tm.Slug), gpu)
			}
		}
		td.models = append(td.models, &format.Model{Slug: tm.Slug, Name: tm.Name, ModelID: tm.ModelID,
			ParamsB: tm.ParamsB, ActiveParamsB: tm.ActiveParamsB, Unit: t.Unit, GPUs: tm.GPUs})
		td.diffusion[tm.Slug] = &tm
		td.diffRows[tm.Slug] = paired
		td.sources[tm.Slug] = tm.Source
	}
	return nil
}

// diffusionWh is c's published energy per image or video.
func diffusionWh(c format.DiffusionConfig) *format.Float {
	if c.WhPerImage != nil {
		return c.WhPerImage
	}
	return c.WhPerVideo
}

// FindTask finds a task of the registry by its id ("text-to-image"), key
// ("text_to_image") or name ("Text to Image"), ignoring case, spaces and
// punctuation; "" is the primary task. A task the registry has but the
// snapshot has no files of is a NotFound error, a name of no task an
// Invalid one (a value the parameter cannot take), each naming the
// snapshot's tasks.
func (s *Snapshot) FindTask(query string) (format.Task, error) {
	if err := checkName(ParamTask, query); err != nil {
		return format.Task{}, err
	}
	q := strings.TrimSpace(query)
	if q == "" {
		return format.PrimaryTask(), nil
	}
	var names []string
	for _, t := range s.servedTasks() {
		names = append(names, t.ID)
	}
	for _, t := range format.Tasks() {
		if fold(q) != fold(t.ID) && fold(q) != fold(t.Key) && fold(q) != fold(t.Name) {
			continue
		}
		if t.Primary || s.tasks[t.ID] != nil {
			return t, nil
		}
		return format.Task{}, &Error{Kind: NotFound, What: ParamTask, Query: q, Nearest: names,
			Detail: "snapshot " + s.Date + " has no files of task " + t.ID + " (it was built from a leaderboard version without it)"}
	}
	return format.Task{}, &Error{Kind: Invalid, What: ParamTask, Query: q, Nearest: nearest(q, names),
		Detail: "no task " + strconv.Quote(q) + " in snapshot " + s.Date + "; its tasks are " + strings.Join(names, ", ")}
}

// fold is s in lower case without spaces and punctuation.
func fold(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// servedTasks are the registry's tasks the snapshot publishes, in order:
// the primary task, then every task with files in the snapshot.
func (s *Snapshot) servedTasks() []format.Task {
	var out []format.Task
	for _, t := range format.Tasks() {
		if t.Primary || s.tasks[t.ID] != nil {
			out = append(out, t)
		}
	}
	return out
}

// TaskList lists a snapshot's tasks.
type TaskList struct {
	Snapshot string     `json:"snapshot"`
	Tasks    []TaskInfo `json:"tasks"`
}

// TaskInfo is one task of a snapshot: what it measures, its unit, the
// keys of its energies and prices, its index row rule and its files.
type TaskInfo struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Kind is "tokens", "images" or "videos".
	Kind string `json:"kind"`
	Unit string `json:"unit"`
	// EnergyKey is the key of a configuration's energy per unit.
	EnergyKey string             `json:"energy_key"`
	Ceiling   format.CeilingFile `json:"latency_ceiling"`
	// Primary is true for the task the model files publish and a request
	// without a task asks for.
	Primary bool `json:"primary"`
	Models  int  `json:"models"`
	// Index is the file listing the task's models: index.json for the
	// primary task, tasks/TASK/index.json for another.
	Index string `json:"index"`
	// Units are the keys of the prices of a carbon answer of the task.
	Units []string `json:"functional_units"`
}

// KindName is the name of a task's kind in the answers.
func KindName(k format.Kind) string {
	switch k {
	case format.Images:
		return "images"
	case format.Videos:
		return "videos"
	}
	return "tokens"
}

// ListTasks lists s's tasks, in the registry's order.
func (s *Snapshot) ListTasks() *TaskList {
	l := &TaskList{Snapshot: s.Date, Tasks: []TaskInfo{}}
	for _, t := range s.servedTasks() {
		info := TaskInfo{ID: t.ID, Name: t.Name, Kind: KindName(t.Kind), Unit: t.Unit, EnergyKey: t.EnergyKey(),
			Ceiling: format.CeilingFile{Field: t.Ceiling.Field, Max: format.Float(t.Ceiling.Max), Unit: t.Ceiling.Unit},
			Primary: t.Primary, Models: len(s.Models), Index: format.IndexPath}
		if !t.Primary {
			info.Models, info.Index = len(s.tasks[t.ID].models), format.TaskIndexPath(t.ID)
		}
		for _, u := range pricing.UnitsOf(t) {
			info.Units = append(info.Units, u.Key)
		}
		l.Tasks = append(l.Tasks, info)
	}
	return l
}

// TaskModelList lists the models of a task beside the primary one.
type TaskModelList struct {
	Snapshot string             `json:"snapshot"`
	Task     string             `json:"task"`
	Unit     string             `json:"unit"`
	Models   []TaskModelSummary `json:"models"`
}

// TaskModelSummary is a model of a task with its index rows.
type TaskModelSummary struct {
	Slug      string         `json:"slug"`
	Name      string         `json:"name"`
	ModelID   string         `json:"model_id"`
	GPUs      []string       `json:"gpus"`
	IndexRows []TaskIndexRow `json:"index_rows"`
}

// TaskIndexRow is a model's index row of a task on one GPU, as published:
// a token task's with its running batch and median ITL, a diffusion
// task's with its batch size and latency, its energy per unit under the
// key named for the unit.
type TaskIndexRow struct {
	GPU             string        `json:"gpu"`
	NumGPUs         int           `json:"num_gpus"`
	RowID           string        `json:"row_id"`
	WhPerMillion    *format.Float `json:"wh_per_million_output_tokens,omitempty"`
	AvgRunningBatch *format.Float `json:"avg_running_batch,omitempty"`
	MedianITL       *format.Float `json:"median_itl_ms,omitempty"`
	WhPerImage      *format.Float `json:"wh_per_image,omitempty"`
	WhPerVideo      *format.Float `json:"wh_per_video,omitempty"`
	BatchSize       *int          `json:"batch_size,omitempty"`
	BatchLatencyS   *format.Float `json:"batch_latency_s,omitempty"`
}

// ListTaskModels lists the models of the task query names (FindTask):
// ListModels for the primary task, by slug, each with its index rows.
func (s *Snapshot) ListTaskModels(query string) (any, error) {
	t, err := s.FindTask(query)
	if err != nil {
		return nil, err
	}
	if t.Primary {
		return s.ListModels(), nil
	}
	return s.taskModels(t), nil
}

func (s *Snapshot) taskModels(t format.Task) *TaskModelList {
	td := s.tasks[t.ID]
	l := &TaskModelList{Snapshot: s.Date, Task: t.ID, Unit: t.Unit, Models: make([]TaskModelSummary, 0, len(td.models))}
	for _, m := range td.models {
		l.Models = append(l.Models, TaskModelSummary{Slug: m.Slug, Name: m.Name, ModelID: m.ModelID, GPUs: m.GPUs, IndexRows: td.indexRows(m)})
	}
	return l
}

// indexRows returns m's index rows in the task, by GPU.
func (td *taskData) indexRows(m *format.Model) []TaskIndexRow {
	rows := []TaskIndexRow{}
	for _, gpu := range m.GPUs {
		if !td.task.Kind.Diffusion() {
			b, ok := m.Best[gpu]
			if !ok {
				continue
			}
			wh, batch, itl := b.WhPerMillion, b.AvgRunningBatch, b.MedianITL
			rows = append(rows, TaskIndexRow{GPU: gpu, NumGPUs: b.NumGPUs, RowID: b.RowID, WhPerMillion: &wh, AvgRunningBatch: &batch, MedianITL: &itl})
			continue
		}
		b, ok := td.diffusion[m.Slug].Best[gpu]
		if !ok {
			continue
		}
		bs, lat := b.BatchSize, b.BatchLatencyS
		rows = append(rows, TaskIndexRow{GPU: gpu, NumGPUs: b.NumGPUs, RowID: b.RowID, WhPerImage: b.WhPerImage, WhPerVideo: b.WhPerVideo,
			BatchSize: &bs, BatchLatencyS: &lat})
	}
	return rows
}

// findTaskModel finds a model of td by slug, name or model id, as
// FindModel does among the primary task's.
func (s *Snapshot) findTaskModel(td *taskData, query string) (*format.Model, error) {
	m, err := s.findIn(td.models, query, "task "+td.task.ID+" of snapshot "+s.Date)
	var e *Error
	if errors.As(err, &e) && e.Cause != nil {
		e.Cause = fmt.Errorf("%w (task %s)", e.Cause, td.task.ID)
	}
	return m, err
}

// FindTaskModel finds a model of the task with the id task (one of
// ListTasks' but the primary) by slug, name or model id.
func (s *Snapshot) FindTaskModel(task, query string) (*format.Model, error) {
	td, ok := s.tasks[task]
	if !ok {
		return nil, &Error{Kind: NotFound, What: ParamTask, Query: task, Detail: "snapshot " + s.Date + " has no files of task " + task}
	}
	return s.findTaskModel(td, query)
}

// TaskModelListBrief lists a task's models in a few words each: slug,
// name and each index row's GPU, GPU count and energy per unit.
type TaskModelListBrief struct {
	Snapshot string          `json:"snapshot"`
	Task     string          `json:"task"`
	Unit     string          `json:"unit"`
	Models   []TaskModelItem `json:"models"`
}

// TaskModelItem is a model of a task with each GPU's index row in one
// figure.
type TaskModelItem struct {
	Slug      string            `json:"slug"`
	Name      string            `json:"name"`
	IndexRows []TaskIndexFigure `json:"index_rows"`
}

// TaskIndexFigure is an index row's GPU, GPU count and energy per unit,
// under the key named for the task's unit.
type TaskIndexFigure struct {
	GPU          string        `json:"gpu"`
	NumGPUs      int           `json:"num_gpus"`
	WhPerMillion *format.Float `json:"wh_per_million_output_tokens,omitempty"`
	WhPerImage   *format.Float `json:"wh_per_image,omitempty"`
	WhPerVideo   *format.Float `json:"wh_per_video,omitempty"`
}

// Brief is the list in a few words per model.
func (l *TaskModelList) Brief() *TaskModelListBrief {
	b := &TaskModelListBrief{Snapshot: l.Snapshot, Task: l.Task, Unit: l.Unit, Models: make([]TaskModelItem, 0, len(l.Models))}
	for _, m := range l.Models {
		it := TaskModelItem{Slug: m.Slug, Name: m.Name, IndexRows: make([]TaskIndexFigure, 0, len(m.IndexRows))}
		for _, r := range m.IndexRows {
			it.IndexRows = append(it.IndexRows, TaskIndexFigure{GPU: r.GPU, NumGPUs: r.NumGPUs, WhPerMillion: r.WhPerMillion, WhPerImage: r.WhPerImage, WhPerVideo: r.WhPerVideo})
		}
		b.Models = append(b.Models, it)
	}
	return b
}

// TaskModelBrief is a model of a task in a few lines: what it is, its
// index rows and the source to cite, without its configurations (its
// task model file has them).
type TaskModelBrief struct {
	Slug          string       `json:"slug"`
	Name          string       `json:"name"`
	ModelID       string       `json:"model_id"`
	ParamsB       format.Float `json:"params_b"`
	ActiveParamsB format.Float `json:"active_params_b"`
	Task          string       `json:"task"`
	Unit          string       `json:"unit"`
	GPUs          []string     `json:"gpus"`
	// Configurations is how many configurations the task model file
	// holds.
	Configurations int               `json:"configurations"`
	IndexRows      []TaskIndexRow    `json:"index_rows"`
	Source         format.TaskSource `json:"source"`
}

// TaskBrief returns the brief of the model slug of the task with the id
// task; false when s has no such model in it.
func (s *Snapshot) TaskBrief(task, slug string) (*TaskModelBrief, bool) {
	td, ok := s.tasks[task]
	if !ok {
		return nil, false
	}
	for _, m := range td.models {
		if m.Slug != slug {
			continue
		}
		n := len(m.Configurations)
		if td.task.Kind.Diffusion() {
			n = len(td.diffusion[slug].Configurations)
		}
		return &TaskModelBrief{Slug: m.Slug, Name: m.Name, ModelID: m.ModelID, ParamsB: m.ParamsB, ActiveParamsB: m.ActiveParamsB,
			Task: task, Unit: td.task.Unit, GPUs: m.GPUs, Configurations: n, IndexRows: td.indexRows(m), Source: td.sources[slug]}, true
	}
	return nil, false
}

// TaskModels returns the models of the task with the id task, by slug: a
// token task's with their configurations and index rows, a diffusion
// task's with neither (TaskDiffusion has them). Nil for a task s has no
// files of, and for the primary task (Models has its models).
func (s *Snapshot) TaskModels(task string) []*format.Model {
	if td, ok := s.tasks[task]; ok {
		return td.models
	}
	return nil
}

// TaskRow is the archived row behind a configuration of a task model,
// with the unrounded figures a page draws and prices.
type TaskRow struct {
	// Wh is the unrounded energy per the task's unit: Wh per million
	// output tokens, per image or per video.
	Wh float64
	// Batch is a token task's unrounded average running batch, a
	// diffusion task's batch size.
	Batch float64
	token *leaderboard.Row
	gen   *leaderboard.DiffusionRow
}

// Energy returns the row's unrounded energy in Wh per u's basis
// (pricing.Basis.Energy for a token task's row, DiffusionEnergy for a
// diffusion task's); false when the row has no such figure.
func (r TaskRow) Energy(u pricing.Unit) (float64, bool) {
	if r.gen != nil {
		return u.Basis.DiffusionEnergy(r.gen)
	}
	return u.Basis.Energy(r.token)
}

// TaskRows returns the archived rows behind the configurations of the
// model slug in the task with the id task, in the order of its task model
// file; nil when there is no such model.
func (s *Snapshot) TaskRows(task, slug string) []TaskRow {
	td, ok := s.tasks[task]
	if !ok {
		return nil
	}
	var out []TaskRow
	for _, r := range td.tokenRows[slug] {
		out = append(out, TaskRow{Wh: r.WhPerMillion(), Batch: r.AvgBatch, token: r})
	}
	for _, r := range td.diffRows[slug] {
		out = append(out, TaskRow{Wh: r.Wh(), Batch: float64(r.BatchSize), gen: r})
	}
	return out
}

// TaskDiffusion returns the model file of the model slug in the diffusion
// task with the id task; nil when there is no such model.
func (s *Snapshot) TaskDiffusion(task, slug string) *format.TaskModel[format.DiffusionConfig] {
	if td, ok := s.tasks[task]; ok && td.diffusion != nil {
		return td.diffusion[slug]
	}
	return nil
}

// Tasks returns the registry's tasks s has files of, in order, the
// primary task not among them.
func (s *Snapshot) Tasks() []format.Task {
	var out []format.Task
	for _, t := range s.servedTasks() {
		if !t.Primary {
			out = append(out, t)
		}
	}
	return out
}
