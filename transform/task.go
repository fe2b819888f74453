package transform

// The files of every task but the primary one: tasks/TASK/models/SLUG.json
// and tasks/TASK/index.json (format.TaskModel, format.TaskIndex), built
// from the task's published rows with the task's rule.

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sourcetext"
	"github.com/leadgreen/greentokens/leaderboard"
)

// TaskFile is one published file of a task: its path and the value that
// format.Marshal writes.
type TaskFile struct {
	Path  string
	Value any
}

// TaskFiles builds the files of a task added with AddTaskFile: a model
// file per model, sorted by slug, then the task's index. Each
// configuration's figures are rounded once from the unrounded upstream
// row; each GPU's index row is the lowest energy per unit under the task's
// latency ceiling (leaderboard.Better for a token task,
// leaderboard.BetterDiffusion for a diffusion task); the GPU comparison
// sets each model's H100 index row against its B200 one.
func TaskFiles(lb *Leaderboard, task string) ([]TaskFile, error) {
	t, ok := format.LookupTask(task)
	if !ok || !t.HasFiles() {
		return nil, fmt.Errorf("%s: not a task with files of its own", format.LeaderboardTask(task))
	}
	all, err := sourcetext.Load()
	if err != nil {
		return nil, err
	}
	text := &all.Leaderboard
	compiled, _, _, err := lb.Evidence(text)
	if err != nil {
		return nil, err
	}
	version, err := sourcetext.Fill(text.VersionTemplate, map[string]string{
		"leaderboard_version": text.LeaderboardVersion, "released": text.Released, "compiled": compiled})
	if err != nil {
		return nil, err
	}
	head := header{
		version: format.FormatVersion, date: lb.Date,
		task: format.TaskHeader{ID: t.ID, Name: t.Name, Unit: t.Unit, EnergyKey: t.EnergyKey(), JoulesKey: t.JoulesKey(),
			Ceiling: format.CeilingFile{Field: t.Ceiling.Field, Max: format.Float(t.Ceiling.Max), Unit: t.Ceiling.Unit},
			File:    t.ArchivedPath(), DataURL: lb.TaskURLs[t.ID]},
		source: format.TaskSource{Name: text.Name, Version: version, Released: text.Released, Compiled: compiled,
			Retrieved: lb.Retrieved, Licence: text.Licence, Cite: text.Cite},
	}
	if t.Kind.Diffusion() {
		return diffusionFiles(lb, t, head)
	}
	return tokenFiles(lb, t, head)
}

// header is what every file of a task carries.
type header struct {
	version, date string
	task          format.TaskHeader
	source        format.TaskSource
}

func tokenFiles(lb *Leaderboard, t format.Task, h header) ([]TaskFile, error) {
	stable := lb.Tasks[t.ID]
	byModel := map[string][]*leaderboard.Row{}
	for i := range stable {
		byModel[stable[i].ModelID] = append(byModel[stable[i].ModelID], &stable[i])
	}
	var models []*format.TaskModel[format.Config]
	energy := map[string]map[string]float64{} // slug → GPU → the index row's unrounded energy per token
	for _, id := range slices.Sorted(maps.Keys(byModel)) {
		b, err := newModel(lb, byModel[id])
		if err != nil {
			return nil, err
		}
		m := b.File
		tm := &format.TaskModel[format.Config]{
			Version: h.version, Updated: h.date, DataVersion: h.date, Task: h.task, Source: h.source,
			Slug: m.Slug, Name: m.Name, ModelID: m.ModelID, ParamsB: m.ParamsB, ActiveParamsB: m.ActiveParamsB,
			Architecture: m.Architecture, GPUs: m.GPUs, Configurations: m.Configurations, Best: m.Best,
		}
		energy[m.Slug] = map[string]float64{}
		for gpu, c := range m.Best {
			energy[m.Slug][gpu] = *b.Rows[configIndex(m, c.RowID)].EnergyPerToken
		}
		models = append(models, tm)
	}
	return taskFiles(h, len(stable), models, energy)
}

func diffusionFiles(lb *Leaderboard, t format.Task, h header) ([]TaskFile, error) {
	rows := lb.Diffusion[t.ID]
	byModel := map[string][]*leaderboard.DiffusionRow{}
	for i := range rows {
		byModel[rows[i].ModelID] = append(byModel[rows[i].ModelID], &rows[i])
	}
	var models []*format.TaskModel[format.DiffusionConfig]
	energy := map[string]map[string]float64{}
	for _, id := range slices.Sorted(maps.Keys(byModel)) {
		m, best, err := newDiffusionModel(t, h, byModel[id])
		if err != nil {
			return nil, err
		}
		energy[m.Slug] = best
		models = append(models, m)
	}
	return taskFiles(h, len(rows), models, energy)
}

// taskFiles orders the model files by slug (two models with one slug are
// an error) and adds the task's index after them.
func taskFiles[C any](h header, count int, models []*format.TaskModel[C], energy map[string]map[string]float64) ([]TaskFile, error) {
	sort.SliceStable(models, func(i, j int) bool { return models[i].Slug < models[j].Slug })
	idx := &format.TaskIndex[C]{
		Version: h.version, Updated: h.date, DataVersion: h.date, Task: h.task, Source: h.source,
		StableConfigurations: count, Models: []format.TaskEntry[C]{}, GPUComparisons: []format.TaskGPUComparison[C]{},
	}
	var files []TaskFile
	over, under := comparedGPUs[0], comparedGPUs[1]
	for i, m := range models {
		if i > 0 && models[i-1].Slug == m.Slug {
			return nil, fmt.Errorf("%s: models %s and %s give one slug %q", h.task.File, models[i-1].ModelID, m.ModelID, m.Slug)
		}
		files = append(files, TaskFile{format.TaskModelPath(h.task.ID, m.Slug), m})
		idx.Models = append(idx.Models, m.Entry())
		o, okO := m.Best[over]
		u, okU := m.Best[under]
		if okO && okU {
			idx.GPUComparisons = append(idx.GPUComparisons, format.TaskGPUComparison[C]{
				Slug: m.Slug, Over: o, Under: u, EnergyRatio: format.Sig3(energy[m.Slug][over] / energy[m.Slug][under])})
		}
	}
	return append(files, TaskFile{format.TaskIndexPath(h.task.ID), idx}), nil
}

// newDiffusionModel builds a diffusion model's file of the task from its
// rows, and returns the unrounded energy per unit of each GPU's index row.
func newDiffusionModel(t format.Task, h header, rows []*leaderboard.DiffusionRow) (*format.TaskModel[format.DiffusionConfig], map[string]float64, error) {
	first := rows[0]
	m := &format.TaskModel[format.DiffusionConfig]{
		Version: h.version, Updated: h.date, DataVersion: h.date, Task: h.task, Source: h.source,
		Slug: leaderboard.Slug(first.Nickname), Name: first.Nickname, ModelID: first.ModelID,
		ParamsB: format.Float(first.TotalParams), ActiveParamsB: format.Float(first.ActiveParams),
		Best: map[string]format.DiffusionConfig{},
	}
	switch {
	case !modelIDForm.MatchString(first.ModelID):
		return nil, nil, fmt.Errorf("%s: field %q: %q is not OWNER/NAME (one \"/\", no white space)", first.Label(), leaderboard.FieldModelID, first.ModelID)
	case m.Slug == "":
		return nil, nil, fmt.Errorf("%s: field %q: %q gives an empty slug", first.Label(), leaderboard.FieldNickname, first.Nickname)
	case len(m.Slug) > MaxSlugLen:
		return nil, nil, fmt.Errorf("%s: field %q: the slug of %q is %d bytes long, over %d", first.Label(), leaderboard.FieldNickname, first.Nickname, len(m.Slug), MaxSlugLen)
	}
	for _, r := range rows[1:] {
		if r.Nickname != first.Nickname || r.TotalParams != first.TotalParams || r.ActiveParams != first.ActiveParams {
			return nil, nil, fmt.Errorf("%s: name or parameters differ from %s", r.Label(), first.Label())
		}
	}
	sorted := slices.Clone(rows)
	same := func(a, b *leaderboard.DiffusionRow) bool {
		return a.GPU == b.GPU && leaderboard.DiffusionOrder(a, b) == 0
	}
	slices.SortStableFunc(sorted, func(a, b *leaderboard.DiffusionRow) int {
		return cmp.Or(strings.Compare(a.GPU, b.GPU), leaderboard.DiffusionOrder(a, b))
	})
	best := map[string]int{}
	for i, r := range sorted {
		c, err := diffusionConfig(t, m.Slug, r)
		if err != nil {
			return nil, nil, err
		}
		if i > 0 && same(sorted[i-1], r) {
			c.Repeat = m.Configurations[i-1].Repeat + 1
			c.RowID = format.DiffusionRowID(t.ID, m.Slug, r.GPU, r.NumGPUs, r.BatchSize, r.Ulysses, r.Ring, c.Repeat)
		}
		m.Configurations = append(m.Configurations, c)
		if len(m.GPUs) == 0 || m.GPUs[len(m.GPUs)-1] != r.GPU {
			m.GPUs = append(m.GPUs, r.GPU)
		}
		if !c.UnderLatencyCeiling {
			continue
		}
		if b, ok := best[r.GPU]; !ok || leaderboard.BetterDiffusion(r, c.Repeat, sorted[b], m.Configurations[b].Repeat) {
			best[r.GPU] = i
		}
	}
	energy := map[string]float64{}
	for gpu, i := range best {
		m.Best[gpu] = m.Configurations[i]
		energy[gpu] = *sorted[i].Energy
	}
	return m, energy, nil
}

// diffusionConfig is the published configuration of a diffusion row: its
// figures rounded once, and whether its batch latency is within the
// task's ceiling.
func diffusionConfig(t format.Task, slug string, r *leaderboard.DiffusionRow) (format.DiffusionConfig, error) {
	c := format.DiffusionConfig{
		GPU: r.GPU, NumGPUs: r.NumGPUs, UlyssesDegree: r.Ulysses, RingDegree: r.Ring, BatchSize: r.BatchSize,
		Width: r.Width, Height: r.Height, InferenceSteps: r.Steps,
		BatchLatencyS: format.Round(r.BatchLatency, 2), GPUPowerWatts: format.RoundInt(r.Power),
		UnderLatencyCeiling: r.BatchLatency <= t.Ceiling.Max,
		RowID:               format.DiffusionRowID(t.ID, slug, r.GPU, r.NumGPUs, r.BatchSize, r.Ulysses, r.Ring, 1),
		Repeat:              1,
	}
	if r.Precision != "" {
		p, ok := precisions[r.Precision]
		if !ok {
			return format.DiffusionConfig{}, fmt.Errorf("%s: field %q: unknown precision %q; the mapping to published precisions is reviewed in %s", r.Label(), leaderboard.FieldPrecision, r.Precision, PrecisionsFile)
		}
		c.Precision = p
	}
	wh, j := format.Round(r.Wh(), 4), format.Round(*r.Energy, 1)
	if r.Video {
		fps, secs := format.Float(r.FPS), format.Round(r.VideoSeconds(), 2)
		c.NumFrames, c.FPS, c.VideoSeconds = r.Frames, &fps, &secs
		c.WhPerVideo, c.JoulesPerVideo = &wh, &j
	} else {
		c.WhPerImage, c.JoulesPerImage = &wh, &j
	}
	return c, nil
}
