package site

import (
	"fmt"
	"html/template"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/render"
	"github.com/leadgreen/greentokens/site/chart"
)

type column struct {
	Name, Type, GPU, Key, Title string
}

type cell struct {
	Text, Sort, Href string
	Num              bool
}

type indexRow struct {
	Slug  string
	Cells []cell
}

type indexData struct {
	frame
	Intro               []string
	TableNote           string
	Deadline            int
	GPUs                []string
	Columns             []column
	Rows                []indexRow
	GPUChart            template.HTML
	GPUNote, TaskNote   string
	GPUTable, TaskTable *render.Table
	// Tasks are the sections of the tasks beside Text Conversation.
	Tasks []taskSection
}

// gpuKey is a GPU's key in data attributes and column keys: "b200".
func gpuKey(gpu string) string { return strings.ToLower(strings.ReplaceAll(gpu, " ", "-")) }

// indexGPUs are the GPUs with an index row in any model: B200 and H100
// first, then any other in name order.
func (s *Site) indexGPUs() []string {
	seen := map[string]bool{}
	for _, e := range s.pages.Index.Models {
		for g := range e.Best {
			seen[g] = true
		}
	}
	var out []string
	for g := range seen {
		out = append(out, g)
	}
	rank := func(g string) int {
		switch g {
		case "B200":
			return 0
		case "H100":
			return 1
		}
		return 2
	}
	sort.Slice(out, func(i, j int) bool {
		if rank(out[i]) != rank(out[j]) {
			return rank(out[i]) < rank(out[j])
		}
		return out[i] < out[j]
	})
	return out
}

func (s *Site) indexPage() ([]byte, error) {
	idx := s.pages.Index
	src := idx.Source
	d := indexData{frame: s.frame("GPU energy per million output tokens", "index.html", "index"), Deadline: idx.ITLDeadlineMS}
	d.Script = true
	d.Intro = []string{
		fmt.Sprintf("The GPU energy that %d open language models use per million output tokens (Wh/M), from the %s %s (data compiled %s, retrieved %s), %s task. Each model's index row on a GPU is its most energy-efficient configuration measured whose median inter-token latency is %d ms or less: a floor on a busy server, GPU energy only. %s",
			len(idx.Models), src.Name, leaderboardVersion(src.Version), render.LongDate(src.Compiled), render.LongDate(src.Retrieved), format.PrimaryTask().Name, idx.ITLDeadlineMS, format.EnergyScope()),
	}
	d.Description = firstSentence(d.Intro[0], 0)
	if g := s.pages.Grid; g != nil {
		earlier := 0
		for _, a := range g.Areas {
			if a.Year != g.Year {
				earlier++
			}
		}
		if earlier == 0 {
			d.Intro = append(d.Intro, fmt.Sprintf("Carbon per token depends on the grid: the %d grids of %s %d, and a calculator, are on the grids page.", len(g.Areas), g.Source.Name, g.Year))
		} else {
			d.Intro = append(d.Intro, fmt.Sprintf("Carbon per token depends on the grid: %d grids from %s, each with its %d value or, for %d without one, its latest earlier value, and a calculator, are on the grids page.", len(g.Areas), g.Source.Name, g.Year, earlier))
		}
	}
	d.TableNote = "Select a column heading to sort by it; models without a row on a GPU go last. Wh/M, running batch and latency are rounded once from the upstream figures."
	d.GPUs = s.indexGPUs()
	d.Columns = []column{{Name: "Model", Type: "text", Key: "model"}}
	for _, g := range d.GPUs {
		k := gpuKey(g)
		d.Columns = append(d.Columns,
			column{"Wh/M", "num", g, k + "-wh", g + ": watt-hours per million output tokens"},
			column{"GPUs", "num", g, k + "-gpus", g + ": GPUs of the index row"},
			column{"Batch", "num", g, k + "-batch", g + ": running batch, average requests decoded at once"},
			column{"ITL (ms)", "num", g, k + "-itl", g + ": median inter-token latency"})
	}
	d.Columns = append(d.Columns, column{"Parameters (B)", "num", "", "params", "billions of parameters (active per token)"},
		column{Name: "Architecture", Type: "text", Key: "arch"}, column{Name: "Precision", Type: "text", Key: "precision"})
	for i := range idx.Models {
		e := &idx.Models[i]
		params := render.Short(e.ParamsB)
		if e.ActiveParamsB != e.ParamsB {
			params += " (" + render.Short(e.ActiveParamsB) + " active)"
		}
		var precisions []string
		for _, g := range sortedKeys(e.Best) {
			if p := e.Best[g].Precision; !slices.Contains(precisions, p) {
				precisions = append(precisions, p)
			}
		}
		r := indexRow{Slug: e.Slug, Cells: []cell{{Text: e.Name, Sort: e.Name, Href: modelPath(e.Slug)}}}
		for _, g := range d.GPUs {
			c, ok := e.Best[g]
			if !ok {
				r.Cells = append(r.Cells, cell{Text: "–"}, cell{Text: "–"}, cell{Text: "–"}, cell{Text: "–"})
				continue
			}
			row, err := s.pages.IndexRow(e, g)
			if err != nil {
				return nil, err
			}
			w := row.WhPerMillion()
			r.Cells = append(r.Cells,
				cell{Text: render.Dec1(w), Sort: num(w), Num: true},
				cell{Text: strconv.Itoa(c.NumGPUs), Sort: strconv.Itoa(c.NumGPUs), Num: true},
				cell{Text: render.Whole(row.AvgBatch), Sort: num(row.AvgBatch), Num: true},
				cell{Text: render.Whole(row.MedianITL), Sort: num(row.MedianITL), Num: true})
		}
		r.Cells = append(r.Cells,
			cell{Text: params, Sort: num(float64(e.ParamsB)), Num: true},
			cell{Text: e.Architecture, Sort: e.Architecture},
			cell{Text: strings.Join(precisions, ", "), Sort: strings.Join(precisions, ", ")})
		d.Rows = append(d.Rows, r)
	}
	if err := s.gpuSection(&d); err != nil {
		return nil, err
	}
	if err := s.taskSection(&d); err != nil {
		return nil, err
	}
	tasks, err := s.taskSections()
	if err != nil {
		return nil, err
	}
	d.Tasks = tasks
	return execute("index.tmpl", d)
}

func (s *Site) gpuSection(d *indexData) error {
	idx := s.pages.Index
	if len(idx.GPUComparisons) == 0 {
		return nil
	}
	primary := format.PrimaryTask().ID
	cmps := slices.Clone(idx.GPUComparisons)
	sort.SliceStable(cmps, func(i, j int) bool { return cmps[i].EnergyPerTokenRatio > cmps[j].EnergyPerTokenRatio })
	f := &render.Figure{ID: "gpu-ratio", Title: "H100 over B200: energy per token at the index rows",
		XLabel: "H100 energy per token ÷ B200 energy per token", Ref: 1, RefLabel: "1×",
		Note: "Dashed line: 1×, the same energy per token on both GPUs."}
	t := &render.Table{Caption: "Index rows on H100 and B200, largest ratio first",
		Head: []string{"Model", "H100 Wh/M", "H100 GPUs", "H100 running batch", "B200 Wh/M", "B200 GPUs", "B200 running batch", "H100 ÷ B200"}}
	var parts []string
	above := 0
	for _, g := range cmps {
		e := s.pages.Entry(g.Slug)
		if e == nil {
			return fmt.Errorf("%s: gpu_comparisons: no model %q", format.IndexPath, g.Slug)
		}
		h, err := s.pages.Ref(primary, g.Over.RowRef)
		if err != nil {
			return err
		}
		b, err := s.pages.Ref(primary, g.Under.RowRef)
		if err != nil {
			return err
		}
		ratio := render.Times(g.EnergyPerTokenRatio)
		f.Bars = append(f.Bars, render.Bar{Label: e.Name, Value: float64(g.EnergyPerTokenRatio), Text: ratio})
		t.Rows = append(t.Rows, render.TableRow{Cells: []string{e.Name,
			render.Dec1(h.WhPerMillion()), strconv.Itoa(g.Over.NumGPUs), render.Whole(h.AvgBatch),
			render.Dec1(b.WhPerMillion()), strconv.Itoa(g.Under.NumGPUs), render.Whole(b.AvgBatch),
			ratio}})
		parts = append(parts, e.Name+" "+ratio)
		if g.EnergyPerTokenRatio > 1 {
			above++
		}
	}
	f.Alt = "Bar chart, largest first: " + strings.Join(parts, ", ") + "."
	h, err := chart.HTML(f)
	if err != nil {
		return err
	}
	d.GPUChart, d.GPUTable = h, t
	d.GPUNote = fmt.Sprintf("For the %d models with index rows on both GPUs, the H100 row's energy per token over the B200 row's; %d of them use more on H100. The leaderboard did not sweep the two GPUs alike (GPU counts and running batches differ), so part of each gap comes from the configuration rather than the chip.",
		len(cmps), above)
	return nil
}

func (s *Site) taskSection(d *indexData) error {
	idx := s.pages.Index
	if len(idx.TaskComparisons) == 0 {
		return nil
	}
	// The table names the task of the first comparison; every row names
	// its own where GPU counts differ.
	chat, problem := format.PrimaryTask().Name, taskName(idx.TaskComparisons[0].Other.Task)
	t := &render.Table{Caption: fmt.Sprintf("%s against %s, each task's index row on the same GPU", problem, chat),
		Head: []string{"Model", "GPU", "Energy per response", "Energy per token", "Answer tokens (" + problem + " / " + chat + ")", "Running batch (" + problem + " / " + chat + ")"}}
	for _, tc := range idx.TaskComparisons {
		e := s.pages.Entry(tc.Slug)
		if e == nil {
			return fmt.Errorf("%s: task_comparisons: no model %q", format.IndexPath, tc.Slug)
		}
		c, err := s.pages.Ref(tc.Base.Task, tc.Base.RowRef)
		if err != nil {
			return err
		}
		p, err := s.pages.Ref(tc.Other.Task, tc.Other.RowRef)
		if err != nil {
			return err
		}
		hw := render.On(tc.Base.NumGPUs, tc.GPU)
		if tc.Base.NumGPUs != tc.Other.NumGPUs {
			hw = fmt.Sprintf("%s (%d for %s, %d for %s)", tc.GPU, tc.Other.NumGPUs, taskName(tc.Other.Task), tc.Base.NumGPUs, chat)
		}
		t.Rows = append(t.Rows, render.TableRow{Cells: []string{e.Name, hw,
			render.Times(tc.EnergyPerResponseRatio), render.Times(tc.EnergyPerTokenRatio),
			render.Whole(float64(tc.Other.AvgOutputTokens)) + " / " + render.Whole(float64(tc.Base.AvgOutputTokens)),
			render.Whole(p.AvgBatch) + " / " + render.Whole(c.AvgBatch)}})
	}
	d.TaskTable = t
	d.TaskNote = fmt.Sprintf("The %d pairs of a model and GPU with an index row in both tasks: %s (GPQA Diamond, long answers) over %s, under the same %d ms ceiling. Ratios above 1× mean %s costs more.",
		len(idx.TaskComparisons), problem, chat, idx.ITLDeadlineMS, problem)
	return nil
}

// leaderboardVersion is the version part of the source's version text
// ("3.0" of "3.0 (released 2025-12-01); data compiled 2026-02-16").
func leaderboardVersion(v string) string {
	ver, _, _ := strings.Cut(v, " (")
	return ver
}

func sortedKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// num prints a value in its shortest round-trip form, for sorting.
func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// taskName is a registered task's name ("Problem Solving"), or its id.
func taskName(id string) string {
	if t, ok := format.LookupTask(id); ok {
		return t.Name
	}
	return id
}
