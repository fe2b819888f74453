package site

// The tasks beside Text Conversation: a section of the index page per
// task (its models' index rows, and H100 against B200 where a model has
// index rows on both), and a page per model of a task,
// tasks/TASK/SLUG.html, apart from the model pages (models/SLUG.html),
// which stay the Markdown page's document.

import (
	"encoding/json"
	"fmt"
	"html/template"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/pricing"
	"github.com/leadgreen/greentokens/render"
	"github.com/leadgreen/greentokens/site/chart"
)

// taskModelPath is the page of the model slug in the task with the id
// task: "tasks/text-to-image/flux-1-dev.html".
func taskModelPath(task, slug string) string { return "tasks/" + task + "/" + slug + ".html" }

// taskTable is a table whose cells may link to a page of the site.
type taskTable struct {
	Caption string
	Head    []string
	Rows    [][]cell
}

// taskSection is the index page's section of one task.
type taskSection struct {
	ID, Name, Note string
	Table          *taskTable
	// CmpNote, CmpChart and CmpTable are H100 against B200, for the
	// models with index rows on both.
	CmpNote  string
	CmpChart template.HTML
	CmpTable *taskTable
}

// taskIndexRow is one GPU's index row of a model in a task, as a section
// or a page prints it.
type taskIndexRow struct {
	gpu     string
	numGPUs int
	rowID   string
	energy  format.Float // as published
	raw     float64      // unrounded
	batch   string       // the running batch, or the batch size
	latency string       // median ITL in ms, or the batch latency in s
	made    string       // what a diffusion generation made
	row     catalog.TaskRow
}

// batchHead and latencyHead name a task's batch and latency columns.
func batchHead(t format.Task) string {
	if t.Kind.Diffusion() {
		return "Batch size"
	}
	return "Running batch"
}

func latencyHead(t format.Task) string {
	if t.Kind.Diffusion() {
		return "Batch latency (s)"
	}
	return "Median ITL (ms)"
}

// ceilingText is a task's index row rule in words.
func ceilingText(t format.Task) string {
	max := strconv.FormatFloat(t.Ceiling.Max, 'g', -1, 64)
	if t.Kind.Diffusion() {
		return "the lowest energy per " + unitNoun(t) + " whose batch latency is at most " + max + " s (the leaderboard's default)"
	}
	return "the lowest energy per output token whose median inter-token latency is at most " + max + " ms"
}

// unitNoun is one unit of a task's output: "image", "video", "output token".
func unitNoun(t format.Task) string {
	switch t.Kind {
	case format.Images:
		return "image"
	case format.Videos:
		return "video"
	}
	return "output token"
}

// pubNum prints a published figure as the files print it.
func pubNum(f format.Float) string {
	s, _ := format.FormatFloat(float64(f))
	return s
}

// taskIndexRows returns the index rows of the model slug in task, by GPU.
func (s *Site) taskIndexRows(t format.Task, slug string) []taskIndexRow {
	var out []taskIndexRow
	if t.Kind.Diffusion() {
		m, rows := s.snap.TaskDiffusion(t.ID, slug), s.snap.TaskRows(t.ID, slug)
		for _, gpu := range m.GPUs {
			b, ok := m.Best[gpu]
			if !ok {
				continue
			}
			i := slices.IndexFunc(m.Configurations, func(c format.DiffusionConfig) bool { return c.RowID == b.RowID })
			out = append(out, taskIndexRow{gpu: gpu, numGPUs: b.NumGPUs, rowID: b.RowID, energy: *diffusionEnergy(b), raw: rows[i].Wh,
				batch: strconv.Itoa(b.BatchSize), latency: pubNum(b.BatchLatencyS), made: madeText(b), row: rows[i]})
		}
		return out
	}
	for _, m := range s.snap.TaskModels(t.ID) {
		if m.Slug != slug {
			continue
		}
		rows := s.snap.TaskRows(t.ID, slug)
		for _, gpu := range m.GPUs {
			b, ok := m.Best[gpu]
			if !ok {
				continue
			}
			i := slices.IndexFunc(m.Configurations, func(c format.Config) bool { return c.RowID == b.RowID })
			out = append(out, taskIndexRow{gpu: gpu, numGPUs: b.NumGPUs, rowID: b.RowID, energy: b.WhPerMillion, raw: rows[i].Wh,
				batch: pubNum(b.AvgRunningBatch), latency: pubNum(b.MedianITL), row: rows[i]})
		}
	}
	return out
}

// diffusionEnergy is a diffusion configuration's published energy per
// image or video.
func diffusionEnergy(c format.DiffusionConfig) *format.Float {
	if c.WhPerImage != nil {
		return c.WhPerImage
	}
	return c.WhPerVideo
}

// madeText says what each generation of a diffusion configuration made:
// "1024 × 1024, 28 steps", "832 × 480, 50 steps, 81 frames at 15 fps (5.4 s)".
func madeText(c format.DiffusionConfig) string {
	s := fmt.Sprintf("%d × %d, %d steps", c.Width, c.Height, c.InferenceSteps)
	if c.FPS != nil && c.VideoSeconds != nil {
		s += fmt.Sprintf(", %d frames at %s fps (%s s)", c.NumFrames, pubNum(*c.FPS), pubNum(*c.VideoSeconds))
	}
	return s
}

// taskSections makes the index page's section of every task beside the
// primary one that the snapshot has files of.
func (s *Site) taskSections() ([]taskSection, error) {
	var out []taskSection
	for _, t := range s.snap.Tasks() {
		sec, err := s.taskSection1(t)
		if err != nil {
			return nil, err
		}
		out = append(out, sec)
	}
	return out, nil
}

func (s *Site) taskSection1(t format.Task) (taskSection, error) {
	models := s.snap.TaskModels(t.ID)
	sec := taskSection{ID: "task-" + t.ID, Name: t.Name}
	sec.Note = fmt.Sprintf("%d models, in %s. Each model's index row on a GPU is %s. GPU energy only.",
		len(models), t.Unit, ceilingText(t))
	gpus := []string{"B200", "H100"}
	tbl := &taskTable{Caption: t.Name + ": each model's index row per GPU", Head: []string{"Model"}}
	for _, g := range gpus {
		tbl.Head = append(tbl.Head, g+" "+t.UnitShort(), g+" GPUs", g+" "+strings.ToLower(batchHead(t)))
	}
	for _, m := range models {
		row := []cell{{Text: m.Name, Href: taskModelPath(t.ID, m.Slug)}}
		idx := s.taskIndexRows(t, m.Slug)
		for _, g := range gpus {
			i := slices.IndexFunc(idx, func(r taskIndexRow) bool { return r.gpu == g })
			if i < 0 {
				row = append(row, cell{Text: "–"}, cell{Text: "–"}, cell{Text: "–"})
				continue
			}
			r := idx[i]
			row = append(row, cell{Text: pubNum(r.energy), Num: true}, cell{Text: strconv.Itoa(r.numGPUs), Num: true}, cell{Text: r.batch, Num: true})
		}
		tbl.Rows = append(tbl.Rows, row)
	}
	sec.Table = tbl
	cmps, err := s.taskComparisons(t)
	if err != nil || len(cmps) == 0 {
		return sec, err
	}
	sort.SliceStable(cmps, func(i, j int) bool { return cmps[i].ratio > cmps[j].ratio })
	f := &render.Figure{ID: "gpu-ratio-" + t.ID, Title: t.Name + ": H100 over B200 at the index rows",
		XLabel: "H100 ÷ B200, energy per " + strings.TrimPrefix(unitNoun(t), "output "), Ref: 1, RefLabel: "1×",
		Note: "Dashed line: 1×, the same energy on both GPUs."}
	ct := &taskTable{Caption: t.Name + ": index rows on H100 and B200, largest ratio first",
		Head: []string{"Model", "H100 " + t.UnitShort(), "H100 GPUs", "B200 " + t.UnitShort(), "B200 GPUs", "H100 ÷ B200"}}
	var parts []string
	above := 0
	for _, c := range cmps {
		ratio := render.Times(c.ratio)
		f.Bars = append(f.Bars, render.Bar{Label: c.name, Value: float64(c.ratio), Text: ratio})
		ct.Rows = append(ct.Rows, []cell{{Text: c.name, Href: taskModelPath(t.ID, c.slug)},
			{Text: pubNum(c.over), Num: true}, {Text: strconv.Itoa(c.overGPUs), Num: true},
			{Text: pubNum(c.under), Num: true}, {Text: strconv.Itoa(c.underGPUs), Num: true}, {Text: ratio, Num: true}})
		parts = append(parts, c.name+" "+ratio)
		if c.ratio > 1 {
			above++
		}
	}
	f.Alt = "Bar chart, largest first: " + strings.Join(parts, ", ") + "."
	h, err := chart.HTML(f)
	if err != nil {
		return sec, err
	}
	sec.CmpChart, sec.CmpTable = h, ct
	sec.CmpNote = fmt.Sprintf("For the %d models with index rows on both GPUs, the H100 row's energy per %s over the B200 row's (%s's energy_ratio); %d of them use more on H100.",
		len(cmps), unitNoun(t), format.TaskIndexPath(t.ID), above)
	return sec, nil
}

// taskCmp is one model's H100 against B200 in a task, as the task's
// index publishes it.
type taskCmp struct {
	slug, name          string
	over, under         format.Float
	overGPUs, underGPUs int
	ratio               format.Float
}

// taskComparisons reads the GPU comparisons of the task's index.
func (s *Site) taskComparisons(t format.Task) ([]taskCmp, error) {
	f, ok := s.snap.File(format.TaskIndexPath(t.ID))
	if !ok {
		return nil, nil
	}
	names := map[string]string{}
	for _, m := range s.snap.TaskModels(t.ID) {
		names[m.Slug] = m.Name
	}
	var out []taskCmp
	if t.Kind.Diffusion() {
		var idx format.TaskIndex[format.DiffusionConfig]
		if err := json.Unmarshal(f.Bytes, &idx); err != nil {
			return nil, fmt.Errorf("%s: %w", f.Path, err)
		}
		for _, c := range idx.GPUComparisons {
			out = append(out, taskCmp{slug: c.Slug, name: names[c.Slug], over: *diffusionEnergy(c.Over), under: *diffusionEnergy(c.Under),
				overGPUs: c.Over.NumGPUs, underGPUs: c.Under.NumGPUs, ratio: c.EnergyRatio})
		}
		return out, nil
	}
	var idx format.TaskIndex[format.Config]
	if err := json.Unmarshal(f.Bytes, &idx); err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, err)
	}
	for _, c := range idx.GPUComparisons {
		out = append(out, taskCmp{slug: c.Slug, name: names[c.Slug], over: c.Over.WhPerMillion, under: c.Under.WhPerMillion,
			overGPUs: c.Over.NumGPUs, underGPUs: c.Under.NumGPUs, ratio: c.EnergyRatio})
	}
	return out, nil
}

// taskPages lists the page of every model of every task.
func (s *Site) taskPages() []string {
	var out []string
	for _, t := range s.snap.Tasks() {
		for _, m := range s.snap.TaskModels(t.ID) {
			out = append(out, taskModelPath(t.ID, m.Slug))
		}
	}
	return out
}

// taskOfPage returns the task and model of a task model page's path.
func (s *Site) taskOfPage(p string) (format.Task, *format.Model, bool) {
	rest, ok := strings.CutPrefix(p, "tasks/")
	if !ok {
		return format.Task{}, nil, false
	}
	id, file, ok := strings.Cut(rest, "/")
	slug, isHTML := strings.CutSuffix(file, ".html")
	if !ok || !isHTML {
		return format.Task{}, nil, false
	}
	for _, t := range s.snap.Tasks() {
		if t.ID != id {
			continue
		}
		for _, m := range s.snap.TaskModels(t.ID) {
			if m.Slug == slug {
				return t, m, true
			}
		}
	}
	return format.Task{}, nil, false
}

// taskModelPage is the page of model m in task t: its index rows, what
// they cost on the display grids, energy against batch, every
// configuration, and with Options.History its index rows across the
// releases (historyBlocks).
func (s *Site) taskModelPage(t format.Task, m *format.Model) ([]byte, error) {
	page := taskModelPath(t.ID, m.Slug)
	data := modelData{frame: s.frame(m.Name+" · "+t.Name, page, ""), GPUs: t.Name}
	idx := s.taskIndexRows(t, m.Slug)
	var parts []string
	for _, r := range idx {
		parts = append(parts, fmt.Sprintf("%s %s on %s", pubNum(r.energy), t.Unit, render.On(r.numGPUs, r.gpu)))
	}
	head := fmt.Sprintf("%s, %s task of the %s: ", m.Name, t.Name, s.pages.Index.Source.Name)
	if len(parts) == 0 {
		head += fmt.Sprintf("no configuration meets the index row rule (%s).", ceilingText(t))
	} else {
		head += "at its index rows, " + render.List(parts) + ". GPU energy only: a floor."
	}
	data.Description = firstSentence(head, len(m.Name))
	blocks := []htmlBlock{{Kind: "h1", Text: m.Name + ": " + t.Name}, {Kind: "p", Segs: segs(head)},
		{Kind: "h2", ID: "index-rows", Text: "Index rows"},
		{Kind: "p", Segs: segs("Each GPU's index row is " + ceilingText(t) + "; figures are rounded once from the upstream rows (" + t.Ceiling.Field + " is the latency bounded).")}}
	it := &render.Table{Caption: m.Name + ": index rows, " + t.Name, Head: []string{"GPU", t.UnitShort(), batchHead(t), latencyHead(t)}}
	if t.Kind.Diffusion() {
		it.Head = append(it.Head, "Each generation")
	}
	for _, r := range idx {
		cells := []string{render.On(r.numGPUs, r.gpu), pubNum(r.energy), r.batch, r.latency}
		if t.Kind.Diffusion() {
			cells = append(cells, r.made)
		}
		it.Rows = append(it.Rows, render.TableRow{Cells: cells})
	}
	blocks = append(blocks, htmlBlock{Kind: "table", Table: it})
	if ct := s.taskCarbonTable(t, m, idx); ct != nil {
		blocks = append(blocks, htmlBlock{Kind: "h2", ID: "carbon", Text: "Carbon on the grids", Close: true},
			htmlBlock{Kind: "p", Segs: segs("Each index row priced on the page's grids at a PUE of 1 (GPU energy as measured; embodied emissions not included): " + unitFormulas(t) + ".")},
			htmlBlock{Kind: "table", Table: ct})
	}
	f, ct := s.taskEnergyFigure(t, m)
	h, err := chart.HTML(f)
	if err != nil {
		return nil, err
	}
	blocks = append(blocks, htmlBlock{Kind: "h2", ID: "configurations", Text: "Energy against batch", Close: true},
		htmlBlock{Kind: "figs", Figs: []template.HTML{h}}, htmlBlock{Kind: "table", Table: ct})
	hist, err := s.historyBlocks(t, m.Slug, true)
	if err != nil {
		return nil, err
	}
	data.Blocks, data.Open = append(blocks, hist...), true
	for _, p := range []string{format.TaskModelPath(t.ID, m.Slug), format.TaskIndexPath(t.ID), t.ArchivedPath()} {
		data.Files = append(data.Files, fileLink{Name: p, Href: dataHref(data.Root, p)})
	}
	return execute("model.tmpl", data)
}

// unitFormulas says how a task's prices are made, in words.
func unitFormulas(t format.Task) string {
	var out []string
	for _, u := range pricing.UnitsOf(t) {
		if u.Basis == pricing.RequestEnergy {
			continue
		}
		f, _, _ := strings.Cut(u.Formula, ", from")
		out = append(out, f)
	}
	return strings.Join(out, "; ")
}

// taskCarbonTable prices each index row of m on the page's grids; nil
// without grid.json or an index row.
func (s *Site) taskCarbonTable(t format.Task, m *format.Model, idx []taskIndexRow) *render.Table {
	g := s.snap.Grid
	if g == nil || len(idx) == 0 {
		return nil
	}
	var units []pricing.Unit
	for _, u := range pricing.UnitsOf(t) {
		if u.Basis != pricing.RequestEnergy {
			units = append(units, u)
		}
	}
	tb := &render.Table{Caption: m.Name + ": carbon at each index row, by grid", Head: []string{"Grid", "g CO2e/kWh", "GPU"}}
	for _, u := range units {
		tb.Head = append(tb.Head, u.Mass+" CO2e per "+u.Name)
	}
	grids := s.opts.Grids
	if grids == nil {
		grids = render.DefaultGrids()
	}
	for _, q := range grids {
		a, err := pricing.Lookup(g, q)
		if err != nil {
			continue
		}
		label := a.Name
		if a.Year != g.Year {
			label += fmt.Sprintf(" (%d)", a.Year)
		}
		for _, r := range idx {
			cells := []string{label, pubNum(a.GCO2ePerKWh), render.On(r.numGPUs, r.gpu)}
			for _, u := range units {
				wh, ok := r.row.Energy(u)
				if !ok {
					cells = append(cells, "–")
					continue
				}
				cells = append(cells, pubNum(u.Price(wh, pricing.DefaultPUE, float64(a.GCO2ePerKWh))))
			}
			tb.Rows = append(tb.Rows, render.TableRow{Cells: cells})
		}
	}
	return tb
}

// taskEnergyFigure is energy per unit against batch (log scales), one line
// per GPU, GPU count (and for diffusion the sequence parallelism), the
// index rows ringed and the rows over the latency ceiling hollow; and the
// table of every configuration beneath it.
func (s *Site) taskEnergyFigure(t format.Task, m *format.Model) (*render.Figure, *render.Table) {
	f := &render.Figure{ID: "energy", Title: "Energy per " + unitNoun(t) + " against batch", LogX: true, LogY: true,
		YLabel: "Energy per " + unitNoun(t) + " (" + t.UnitShort() + ")"}
	tb := &render.Table{Caption: m.Name + ": every configuration, " + t.Name, Head: []string{"GPU", batchHead(t), t.UnitShort(), latencyHead(t)}}
	type key struct {
		gpu              string
		n, ulysses, ring int
	}
	series := map[key]*render.Series{}
	var order []key
	add := func(k key, name string, p render.Point) {
		if series[k] == nil {
			series[k] = &render.Series{Name: name}
			order = append(order, k)
		}
		series[k].Points = append(series[k].Points, p)
	}
	over := 0
	if t.Kind.Diffusion() {
		dm, rows := s.snap.TaskDiffusion(t.ID, m.Slug), s.snap.TaskRows(t.ID, m.Slug)
		f.XLabel = "Batch size (" + unitNoun(t) + "s generated at once)"
		tb.Head = append(tb.Head, "Parallelism", "Each generation")
		for i, c := range dm.Configurations {
			index := dm.Best[c.GPU].RowID == c.RowID
			name := render.On(c.NumGPUs, c.GPU)
			if c.NumGPUs > 1 {
				name += fmt.Sprintf(" (Ulysses %d, ring %d)", c.UlyssesDegree, c.RingDegree)
			}
			label := fmt.Sprintf("%s, batch %d: %s %s, batch latency %s s", name, c.BatchSize, pubNum(*diffusionEnergy(c)), t.UnitShort(), pubNum(c.BatchLatencyS))
			if index {
				label += ", index row"
			}
			if !c.UnderLatencyCeiling {
				label += fmt.Sprintf(", batch latency over %s s", strconv.FormatFloat(t.Ceiling.Max, 'g', -1, 64))
				over++
			}
			add(key{c.GPU, c.NumGPUs, c.UlyssesDegree, c.RingDegree}, name, render.Point{X: float64(c.BatchSize), Y: rows[i].Wh, Label: label, Index: index, Over: !c.UnderLatencyCeiling})
			tb.Rows = append(tb.Rows, render.TableRow{Marked: index, Cells: []string{render.On(c.NumGPUs, c.GPU), strconv.Itoa(c.BatchSize), pubNum(*diffusionEnergy(c)),
				pubNum(c.BatchLatencyS), fmt.Sprintf("Ulysses %d, ring %d", c.UlyssesDegree, c.RingDegree), madeText(c)}})
		}
	} else {
		rows := s.snap.TaskRows(t.ID, m.Slug)
		f.XLabel = "Running batch (requests decoded at once)"
		for i, c := range m.Configurations {
			index := m.Best[c.GPU].RowID == c.RowID
			name := render.On(c.NumGPUs, c.GPU)
			label := fmt.Sprintf("%s, cap %d: running batch %s, %s Wh/M, median ITL %s ms", name, c.MaxNumSeqs, pubNum(c.AvgRunningBatch), pubNum(c.WhPerMillion), pubNum(c.MedianITL))
			if index {
				label += ", index row"
			}
			if !c.UnderITLDeadline {
				label += fmt.Sprintf(", median ITL over %d ms", format.ITLDeadlineMS)
				over++
			}
			add(key{gpu: c.GPU, n: c.NumGPUs}, name, render.Point{X: rows[i].Batch, Y: rows[i].Wh, Label: label, Index: index, Over: !c.UnderITLDeadline})
			tb.Rows = append(tb.Rows, render.TableRow{Marked: index, Cells: []string{name, pubNum(c.AvgRunningBatch), pubNum(c.WhPerMillion), pubNum(c.MedianITL)}})
		}
	}
	var parts []string
	for _, k := range order {
		sr := series[k]
		f.Series = append(f.Series, *sr)
		parts = append(parts, fmt.Sprintf("%s, %d configurations", sr.Name, len(sr.Points)))
	}
	f.Note = "Ringed: the index row of each GPU."
	if over > 0 {
		ceiling := fmt.Sprintf("a median inter-token latency over %d ms", format.ITLDeadlineMS)
		if t.Kind.Diffusion() {
			ceiling = "a batch latency over " + strconv.FormatFloat(t.Ceiling.Max, 'g', -1, 64) + " s"
		}
		f.Note += fmt.Sprintf(" Hollow, on a dashed line: %s (%d).", ceiling, over)
	}
	f.Alt = fmt.Sprintf("Line chart of %s in %s, logarithmic scales, energy per %s against batch: %s. %s", m.Name, t.Name, unitNoun(t), strings.Join(parts, "; "), f.Note)
	return f, tb
}
