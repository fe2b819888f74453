package transform

// index.json: the index of every model, with three comparisons computed from
// the unrounded upstream rows. See IndexFile for the layout and
// schemas/index.schema.json for the rule behind every field.

import (
	"fmt"
	"reflect"
	"sort"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/leaderboard"
)

// TaskProblem is the Problem Solving task (GPQA Diamond), the other side of
// the task comparison.
const TaskProblem = "gpqa"

// TaskNames are the tasks' names as the leaderboard's web app shows them.
var TaskNames = map[string]string{TaskChat: "Text Conversation", TaskProblem: "Problem Solving"}

// The two GPUs of the GPU comparison: the numerator and the denominator.
const (
	GPUCompareOver  = "H100"
	GPUCompareUnder = "B200"
)

// IndexBuilder builds index.json from the model files one at a time, as
// EachModel hands them out, without holding them all. Only the index's entries are kept; they share
// the model's best map and GPU list.
type IndexBuilder struct {
	lb *Leaderboard
	// problem is the stable Problem Solving rows.
	problem []leaderboard.Row
	// err is the first error; Add does nothing once there is one.
	err error

	// Set by the first model.
	idx       *format.IndexFile
	src       format.Source
	firstSlug string
	rowID     map[*leaderboard.Row]string
	// byModel holds the Problem Solving rows by model id.
	byModel map[string][]*leaderboard.Row
}

// NewIndexBuilder starts index.json for the leaderboard and the stable
// Problem Solving rows (as Stable returns them, in upstream order).
func NewIndexBuilder(lb *Leaderboard, problem []leaderboard.Row) *IndexBuilder {
	return &IndexBuilder{lb: lb, problem: problem}
}

// Add adds a model file, as Models or EachModel built it. The first model
// gives the index its date and source block, which every other must have.
// After an error Add does nothing and returns it.
func (b *IndexBuilder) Add(m *Built) error {
	if b.err == nil && b.idx == nil {
		b.err = b.start(m)
	}
	if b.err == nil {
		b.err = b.add(m)
	}
	return b.err
}

// Index returns index.json, its lists sorted, or Add's error.
func (b *IndexBuilder) Index() (*format.IndexFile, error) {
	if b.err != nil {
		return nil, b.err
	}
	idx := b.idx
	if idx == nil {
		return nil, fmt.Errorf("%s: no models", format.IndexPath)
	}
	sort.SliceStable(idx.Models, func(i, j int) bool { return idx.Models[i].Slug < idx.Models[j].Slug })
	sort.SliceStable(idx.GPUComparisons, func(i, j int) bool { return idx.GPUComparisons[i].Slug < idx.GPUComparisons[j].Slug })
	sort.SliceStable(idx.TaskComparisons, func(i, j int) bool {
		a, b := idx.TaskComparisons[i], idx.TaskComparisons[j]
		return a.Slug < b.Slug || a.Slug == b.Slug && a.GPU < b.GPU
	})
	sort.SliceStable(idx.LoadCurves, func(i, j int) bool {
		a, b := idx.LoadCurves[i], idx.LoadCurves[j]
		return a.Slug < b.Slug || a.Slug == b.Slug && a.GPU < b.GPU
	})
	return idx, nil
}

// start sets up the index from its first model.
func (b *IndexBuilder) start(first *Built) error {
	lb, problem := b.lb, b.problem
	problemIDs, err := leaderboard.RowIDs(TaskProblem, problem)
	if err != nil {
		return err
	}
	b.rowID = map[*leaderboard.Row]string{}
	for id, r := range problemIDs {
		b.rowID[r] = id
	}

	f := first.File
	src := f.Source
	b.src, b.firstSlug = src, f.Slug
	b.idx = &format.IndexFile{
		Version: format.FormatVersion, Updated: f.Updated, DataVersion: f.DataVersion,
		Unit: f.Unit, ITLDeadlineMS: format.ITLDeadlineMS,
		Source: format.IndexSource{
			Name: src.Name, Version: src.Version, Released: src.Released, Compiled: src.Compiled,
			Retrieved: src.Retrieved, Licence: src.Licence, Cite: src.Cite,
			Details: "each model file's source block (models/SLUG.json, key source) holds the full text: publisher, method, selection, licence evidence",
			Tasks: []format.IndexTask{
				{Task: TaskChat, Name: TaskNames[TaskChat], File: format.SourcesDir + format.LeaderboardTask(TaskChat), StableConfigurations: len(lb.Chat)},
				{Task: TaskProblem, Name: TaskNames[TaskProblem], File: format.SourcesDir + format.LeaderboardTask(TaskProblem), StableConfigurations: len(problem)},
			},
		},
		Models: []format.IndexEntry{}, GPUComparisons: []format.GPUComparison{}, TaskComparisons: []format.TaskComparison{}, LoadCurves: []format.LoadCurve{},
	}

	// The Problem Solving index rows, by model id and GPU: the model files'
	// rule (newModel) applied to the gpqa rows of each index model.
	b.byModel = map[string][]*leaderboard.Row{}
	for i := range problem {
		r := &problem[i]
		b.byModel[r.ModelID] = append(b.byModel[r.ModelID], r)
	}
	return nil
}

// add adds one model's entry, GPU comparison, load curves and task
// comparisons.
func (b *IndexBuilder) add(built *Built) error {
	idx, m := b.idx, built.File
	if !reflect.DeepEqual(m.Source, b.src) || m.Updated != idx.Updated || m.DataVersion != idx.DataVersion {
		return fmt.Errorf("%s: models/%s.json has another source block or date than models/%s.json", format.IndexPath, m.Slug, b.firstSlug)
	}
	if len(built.Rows) != len(m.Configurations) {
		return fmt.Errorf("%s: models/%s.json was not built by Models (no upstream rows)", format.IndexPath, m.Slug)
	}
	idx.Models = append(idx.Models, format.IndexEntry{
		Slug: m.Slug, Name: m.Name, ModelID: m.ModelID, ParamsB: m.ParamsB, ActiveParamsB: m.ActiveParamsB,
		Architecture: m.Architecture, Configurations: len(m.Configurations), GPUs: m.GPUs,
		File: format.ModelPath(m.Slug), Best: m.Best,
	})

	best := map[string]int{} // GPU -> index in m.Configurations
	for gpu, c := range m.Best {
		i := configIndex(m, c.RowID)
		if i < 0 {
			return fmt.Errorf("%s: models/%s.json: best %s row %s is not among the configurations", format.IndexPath, m.Slug, gpu, c.RowID)
		}
		best[gpu] = i
	}

	if o, ok := best[GPUCompareOver]; ok {
		if u, ok := best[GPUCompareUnder]; ok {
			ro, ru := built.Rows[o], built.Rows[u]
			idx.GPUComparisons = append(idx.GPUComparisons, format.GPUComparison{
				Slug: m.Slug, H100: ref(m.Configurations[o]), B200: ref(m.Configurations[u]),
				EnergyPerTokenRatio: format.Sig3(*ro.EnergyPerToken / *ru.EnergyPerToken),
			})
		}
	}

	var pm *Built
	if rows := b.byModel[m.ModelID]; len(rows) > 0 {
		var err error
		if pm, err = newModel(b.lb, rows); err != nil {
			return err
		}
	}
	for _, gpu := range sortedKeys(best) {
		i := best[gpu]
		lc, err := loadCurve(built, gpu, i)
		if err != nil {
			return err
		}
		idx.LoadCurves = append(idx.LoadCurves, lc)

		if pm == nil {
			continue
		}
		pc, ok := pm.File.Best[gpu]
		if !ok {
			continue
		}
		pr := pm.Rows[configIndex(pm.File, pc.RowID)]
		tc, err := taskComparison(built, i, pr, b.rowID[pr])
		if err != nil {
			return err
		}
		idx.TaskComparisons = append(idx.TaskComparisons, tc)
	}
	return nil
}

func configIndex(m *format.Model, rowID string) int {
	for i, c := range m.Configurations {
		if c.RowID == rowID {
			return i
		}
	}
	return -1
}

func ref(c format.Config) format.RowRef {
	return format.RowRef{
		RowID: c.RowID, NumGPUs: c.NumGPUs, MaxNumSeqs: c.MaxNumSeqs, AvgRunningBatch: c.AvgRunningBatch,
		WhPerMillion: c.WhPerMillion, JoulesPerToken: c.JoulesPerToken, MedianITL: c.MedianITL,
		TokensPerSecond: c.TokensPerSecond, GPUPowerWatts: c.GPUPowerWatts, AvgOutputTokens: c.AvgOutputTokens,
	}
}

func taskRow(c format.Config, r *leaderboard.Row) (format.TaskRow, error) {
	n, err := leaderboard.OutputTokens(r)
	if err != nil {
		return format.TaskRow{}, err
	}
	return format.TaskRow{RowRef: ref(c), JoulesPerResponse: format.Round(*r.EnergyPerToken*n, 1)}, nil
}

func taskComparison(built *Built, i int, pr *leaderboard.Row, prID string) (format.TaskComparison, error) {
	m, cr := built.File, built.Rows[i]
	chat, err := taskRow(m.Configurations[i], cr)
	if err != nil {
		return format.TaskComparison{}, err
	}
	pc, err := newConfig(m.Slug, pr)
	if err != nil {
		return format.TaskComparison{}, err
	}
	pc.RowID = prID
	prob, err := taskRow(pc, pr)
	if err != nil {
		return format.TaskComparison{}, err
	}
	cn, _ := leaderboard.OutputTokens(cr)
	pn, _ := leaderboard.OutputTokens(pr)
	ce, pe := *cr.EnergyPerToken, *pr.EnergyPerToken
	return format.TaskComparison{
		Slug: m.Slug, GPU: cr.GPU, TextConversation: chat, ProblemSolving: prob,
		EnergyPerResponseRatio: format.Sig3(pe * pn / (ce * cn)),
		EnergyPerTokenRatio:    format.Sig3(pe / ce),
	}, nil
}

// loadCurve follows m's configurations on gpu at the GPU count of the index
// row i, in the model file's order (cap, then repeat).
func loadCurve(built *Built, gpu string, i int) (format.LoadCurve, error) {
	m, rows := built.File, built.Rows
	to := m.Configurations[i]
	lc := format.LoadCurve{Slug: m.Slug, GPU: gpu, NumGPUs: to.NumGPUs, To: ref(to)}
	from, top := -1, -1
	for j, c := range m.Configurations {
		if c.GPU != gpu || c.NumGPUs != to.NumGPUs {
			continue
		}
		if from < 0 {
			from = j
		}
		switch {
		case c.MaxNumSeqs <= to.MaxNumSeqs:
			if top < 0 || rows[j].MedianITL > rows[top].MedianITL {
				top = j
			}
		case lc.Past == nil:
			p := ref(c)
			lc.Past = &p
		}
	}
	if from < 0 || top < 0 {
		return format.LoadCurve{}, fmt.Errorf("%s: models/%s.json: no configurations for the %s index row", format.IndexPath, m.Slug, gpu)
	}
	rf, rt := rows[from], rows[i]
	if rf.Power <= 0 || rf.Throughput <= 0 {
		return format.LoadCurve{}, fmt.Errorf("%s: %s: zero power or throughput; the load curve has no ratio", format.IndexPath, rf.Label())
	}
	lc.From = ref(m.Configurations[from])
	lc.EnergyPerTokenFall = format.Sig3(*rf.EnergyPerToken / *rt.EnergyPerToken)
	lc.GPUPowerRisePercent = format.RoundInt((rt.Power/rf.Power - 1) * 100)
	lc.ThroughputRise = format.Sig3(rt.Throughput / rf.Throughput)
	lc.MaxMedianITL = m.Configurations[top].MedianITL
	lc.MaxMedianITLRowID = m.Configurations[top].RowID
	return lc, nil
}
