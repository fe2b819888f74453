package transform

// index.json: the index of every model, with three comparisons computed from
// the unrounded upstream rows. See IndexFile for the layout and
// schemas/index.schema.json for the rule behind every field.

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sourcetext"
	"github.com/leadgreen/greentokens/leaderboard"
)

// comparedGPUs are the GPUs of index.json's GPU comparison: each model's
// index row on the first over its index row on the second.
var comparedGPUs = [2]string{"H100", "B200"}

// IndexBuilder builds index.json from the model files one at a time, as
// EachModel hands them out, without holding them all. Only the index's
// entries are kept; they share the model's best map and GPU list.
type IndexBuilder struct {
	lb *Leaderboard
	// err is the first error; Add does nothing once there is one.
	err error

	// Set by the first model.
	idx       *format.IndexFile
	src       format.Source
	firstSlug string
	// compared are the tasks compared with the primary task, in the
	// registry's order, with the leaderboard's stable rows of each.
	compared []comparedTask
}

// comparedTask is a task of the task comparisons: its stable rows by model
// id, and each row's published row id.
type comparedTask struct {
	id      string
	byModel map[string][]*leaderboard.Row
	rowID   map[*leaderboard.Row]string
}

// NewIndexBuilder starts index.json for the leaderboard: its primary
// task's model files, added one at a time, compared with the stable rows
// of every other task the leaderboard holds (AddTask).
func NewIndexBuilder(lb *Leaderboard) *IndexBuilder {
	return &IndexBuilder{lb: lb}
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
	text, err := sourcetext.Load()
	if err != nil {
		return err
	}
	lb := b.lb
	f := first.File
	src := f.Source
	b.src, b.firstSlug = src, f.Slug
	b.idx = &format.IndexFile{
		Version: format.FormatVersion, Updated: f.Updated, DataVersion: f.DataVersion,
		Unit: f.Unit, ITLDeadlineMS: format.ITLDeadlineMS,
		Source: format.IndexSource{
			Name: src.Name, Version: src.Version, Released: src.Released, Compiled: src.Compiled,
			Retrieved: src.Retrieved, Licence: src.Licence, Cite: src.Cite,
			Details: text.Leaderboard.IndexDetails,
		},
		Models: []format.IndexEntry{}, GPUComparisons: []format.GPUComparison{}, TaskComparisons: []format.TaskComparison{}, LoadCurves: []format.LoadCurve{},
	}
	for _, t := range format.Tasks() {
		if !t.InIndex {
			continue // its figures are in its own files (TaskFiles)
		}
		stable := lb.Tasks[t.ID]
		b.idx.Source.Tasks = append(b.idx.Source.Tasks, format.IndexTask{
			Task: t.ID, Name: t.Name, File: t.ArchivedPath(), StableConfigurations: len(stable)})
		if t.Primary || stable == nil {
			continue
		}
		// The task's index rows, by model id and GPU: the model files'
		// rule (newModel) applied to the task's rows of each index model.
		ids, err := leaderboard.RowIDs(t.ID, stable)
		if err != nil {
			return err
		}
		ct := comparedTask{id: t.ID, byModel: map[string][]*leaderboard.Row{}, rowID: make(map[*leaderboard.Row]string, len(ids))}
		for id, r := range ids {
			ct.rowID[r] = id
		}
		for i := range stable {
			r := &stable[i]
			ct.byModel[r.ModelID] = append(ct.byModel[r.ModelID], r)
		}
		b.compared = append(b.compared, ct)
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
	idx.Models = append(idx.Models, m.Entry())

	best := map[string]int{} // GPU -> index in m.Configurations
	for gpu, c := range m.Best {
		i := configIndex(m, c.RowID)
		if i < 0 {
			return fmt.Errorf("%s: models/%s.json: best %s row %s is not among the configurations", format.IndexPath, m.Slug, gpu, c.RowID)
		}
		best[gpu] = i
	}

	over, under := comparedGPUs[0], comparedGPUs[1]
	if o, ok := best[over]; ok {
		if u, ok := best[under]; ok {
			ro, ru := built.Rows[o], built.Rows[u]
			idx.GPUComparisons = append(idx.GPUComparisons, format.GPUComparison{
				Slug:                m.Slug,
				Over:                format.GPURow{Key: format.GPUKey(over), RowRef: ref(m.Configurations[o])},
				Under:               format.GPURow{Key: format.GPUKey(under), RowRef: ref(m.Configurations[u])},
				EnergyPerTokenRatio: format.Sig3(*ro.EnergyPerToken / *ru.EnergyPerToken),
			})
		}
	}

	// The model's index rows in each compared task.
	others := make([]*Built, len(b.compared))
	for k, ct := range b.compared {
		if rows := ct.byModel[m.ModelID]; len(rows) > 0 {
			var err error
			if others[k], err = newModel(b.lb, rows); err != nil {
				return err
			}
		}
	}
	for _, gpu := range slices.Sorted(maps.Keys(best)) {
		i := best[gpu]
		lc, err := loadCurve(built, gpu, i)
		if err != nil {
			return err
		}
		idx.LoadCurves = append(idx.LoadCurves, lc)

		for k, om := range others {
			if om == nil {
				continue
			}
			oc, ok := om.File.Best[gpu]
			if !ok {
				continue
			}
			or := om.Rows[configIndex(om.File, oc.RowID)]
			tc, err := taskComparison(built, i, or, b.compared[k].rowID[or])
			if err != nil {
				return err
			}
			idx.TaskComparisons = append(idx.TaskComparisons, tc)
		}
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

// taskComparison sets or, another task's index row of the model (its row
// id orID), against the model's index row i on the same GPU.
func taskComparison(built *Built, i int, or *leaderboard.Row, orID string) (format.TaskComparison, error) {
	m, br := built.File, built.Rows[i]
	base, err := taskRow(m.Configurations[i], br)
	if err != nil {
		return format.TaskComparison{}, err
	}
	task, _ := format.LookupTask(or.Task) // newModel has looked it up
	oc, err := newConfig(m.Slug, or, task.Ceiling.Max)
	if err != nil {
		return format.TaskComparison{}, err
	}
	oc.RowID = orID
	other, err := taskRow(oc, or)
	if err != nil {
		return format.TaskComparison{}, err
	}
	bn, _ := leaderboard.OutputTokens(br)
	on, _ := leaderboard.OutputTokens(or)
	be, oe := *br.EnergyPerToken, *or.EnergyPerToken
	return format.TaskComparison{
		Slug: m.Slug, GPU: br.GPU,
		Base:                   format.TaskSide{Task: br.Task, TaskRow: base},
		Other:                  format.TaskSide{Task: or.Task, TaskRow: other},
		EnergyPerResponseRatio: format.Sig3(oe * on / (be * bn)),
		EnergyPerTokenRatio:    format.Sig3(oe / be),
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
