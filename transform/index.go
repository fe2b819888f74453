package transform

// index.json: the index of every model, with three comparisons computed from
// the unrounded upstream rows. See IndexFile for the layout and
// schemas/index.schema.json for the rule behind every field.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/leadgreen/greentokens/format"
)

// IndexName is the published name of the index file in a snapshot.
const IndexName = "index.json"

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

// SourcesDir is where a snapshot archives the upstream files.
const SourcesDir = "sources/"

// IndexFile is index.json. Field order is the published key order.
type IndexFile struct {
	Version       string      `json:"version"`
	Updated       string      `json:"updated"`
	DataVersion   string      `json:"data_version"`
	Unit          string      `json:"unit"`
	ITLDeadlineMS int         `json:"itl_deadline_ms"`
	Source        IndexSource `json:"source"`
	// Models holds one entry per model file, sorted by slug.
	Models []IndexEntry `json:"models"`
	// GPUComparisons: every model with an index row on both GPUs, by slug.
	GPUComparisons []GPUComparison `json:"gpu_comparisons"`
	// TaskComparisons: every model and GPU with an index row in both
	// tasks, by slug then GPU.
	TaskComparisons []TaskComparison `json:"task_comparisons"`
	// LoadCurves: one per index row, by slug then GPU.
	LoadCurves []LoadCurve `json:"load_curves"`
}

// IndexSource refers to the source; the model files carry its full text.
type IndexSource struct {
	Name      string      `json:"name"`
	Version   string      `json:"version"`
	Released  string      `json:"released"`
	Compiled  string      `json:"compiled"`
	Retrieved string      `json:"retrieved"`
	Licence   string      `json:"licence"`
	Cite      string      `json:"cite"`
	Details   string      `json:"details"`
	Tasks     []IndexTask `json:"tasks"`
}

// IndexTask is one archived task file the index is computed from.
type IndexTask struct {
	Task string `json:"task"`
	Name string `json:"name"`
	// File is the archived file's path in the snapshot.
	File string `json:"file"`
	// StableConfigurations counts the rows that passed the stability filter
	// (every model of the task file).
	StableConfigurations int `json:"stable_configurations"`
}

// IndexEntry is one model of the index.
type IndexEntry struct {
	Slug           string       `json:"slug"`
	Name           string       `json:"name"`
	ModelID        string       `json:"model_id"`
	ParamsB        format.Float `json:"params_b"`
	ActiveParamsB  format.Float `json:"active_params_b"`
	Architecture   string       `json:"architecture"`
	Configurations int          `json:"configurations"`
	GPUs           []string     `json:"gpus"`
	File           string       `json:"file"`
	// Best is the model file's best map: the index row of each GPU.
	Best map[string]Config `json:"best"`
}

// RowRef names a configuration and repeats its main figures, rounded as in
// the model files.
type RowRef struct {
	RowID           string       `json:"row_id"`
	NumGPUs         int          `json:"num_gpus"`
	MaxNumSeqs      int          `json:"max_num_seqs"`
	AvgRunningBatch format.Float `json:"avg_running_batch"`
	WhPerMillion    format.Float `json:"wh_per_million_output_tokens"`
	JoulesPerToken  format.Float `json:"joules_per_output_token"`
	MedianITL       format.Float `json:"median_itl_ms"`
	TokensPerSecond format.Float `json:"tokens_per_second"`
	GPUPowerWatts   int64        `json:"gpu_power_watts_total"`
	AvgOutputTokens int64        `json:"avg_output_tokens"`
}

// TaskRow is one side of a task comparison.
type TaskRow struct {
	RowRef
	// JoulesPerResponse is the unrounded energy per token times the
	// unrounded average output length, rounded to 1 decimal.
	JoulesPerResponse format.Float `json:"joules_per_response"`
}

// GPUComparison sets a model's H100 index row against its B200 index row.
type GPUComparison struct {
	Slug string `json:"slug"`
	H100 RowRef `json:"h100"`
	B200 RowRef `json:"b200"`
	// EnergyPerTokenRatio is H100 over B200, 3 significant figures.
	EnergyPerTokenRatio format.Float `json:"energy_per_token_ratio"`
}

// TaskComparison sets a model's Problem Solving index row on one GPU
// against its Text Conversation index row on the same GPU.
type TaskComparison struct {
	Slug             string  `json:"slug"`
	GPU              string  `json:"gpu"`
	TextConversation TaskRow `json:"text_conversation"`
	ProblemSolving   TaskRow `json:"problem_solving"`
	// Ratios are Problem Solving over Text Conversation, 3 significant figures.
	EnergyPerResponseRatio format.Float `json:"energy_per_response_ratio"`
	EnergyPerTokenRatio    format.Float `json:"energy_per_token_ratio"`
}

// LoadCurve follows one index row's GPU count from its smallest cap up to
// the index row.
type LoadCurve struct {
	Slug    string `json:"slug"`
	GPU     string `json:"gpu"`
	NumGPUs int    `json:"num_gpus"`
	From    RowRef `json:"from"`
	To      RowRef `json:"to"`
	// EnergyPerTokenFall is From's energy per token over To's.
	EnergyPerTokenFall format.Float `json:"energy_per_token_fall"`
	// GPUPowerRisePercent is (To's power / From's - 1) x 100, whole.
	GPUPowerRisePercent int64 `json:"gpu_power_rise_percent"`
	// ThroughputRise is To's tokens per second over From's.
	ThroughputRise format.Float `json:"throughput_rise"`
	// MaxMedianITL is the highest median ITL of the rows up to To.
	MaxMedianITL      format.Float `json:"max_median_itl_ms"`
	MaxMedianITLRowID string       `json:"max_median_itl_row_id"`
	// Past is the first row past To (the next cap up), if any.
	Past *RowRef `json:"past"`
}

// TaskRowID is the row id of a task's configuration: the model files' id
// (SLUG/GPU/NUM_GPUS/MAX_NUM_SEQS[/rN]) for Text Conversation, with the task
// after the slug for any other task (SLUG/gpqa/GPU/...).
func TaskRowID(task, slug, gpu string, numGPUs, maxNumSeqs, repeat int) string {
	id := slug + "/"
	if task != TaskChat {
		id += task + "/"
	}
	id += gpu + "/" + strconv.Itoa(numGPUs) + "/" + strconv.Itoa(maxNumSeqs)
	if repeat > 1 {
		id += "/r" + strconv.Itoa(repeat)
	}
	return id
}

// TaskRows parses a task file, applies the stability filter, and returns
// its stable rows by row id (see TaskRowID; repeats numbered in upstream
// order). A page renderer uses it to find the unrounded row behind a
// published configuration.
func TaskRows(task string, data []byte) (map[string]*Row, error) {
	rows, err := ParseTask(task, data)
	if err != nil {
		return nil, err
	}
	stable, _ := Stable(rows)
	return rowIDs(task, stable)
}

// RowIDs returns a task's stable rows (as Stable returns them, in upstream
// order) by row id, as TaskRows does, for a caller that has parsed the task
// file already. The map points into stable.
func RowIDs(task string, stable []Row) (map[string]*Row, error) { return rowIDs(task, stable) }

func rowIDs(task string, stable []Row) (map[string]*Row, error) {
	type key struct {
		model, gpu string
		n, cap     int
	}
	seen := map[key]int{}
	out := make(map[string]*Row, len(stable))
	for i := range stable { // upstream order
		r := &stable[i]
		slug := Slug(r.Nickname)
		if slug == "" {
			return nil, fmt.Errorf("%s: field %q: %q gives an empty slug", r.Label(), fNickname, r.Nickname)
		}
		k := key{r.ModelID, r.GPU, r.NumGPUs, r.MaxNumSeqs}
		seen[k]++
		id := TaskRowID(task, slug, r.GPU, r.NumGPUs, r.MaxNumSeqs, seen[k])
		if _, dup := out[id]; dup {
			return nil, fmt.Errorf("%s: row id %s is taken by another model with the same slug", r.Label(), id)
		}
		out[id] = r
	}
	return out, nil
}

// IndexBuilder builds index.json from the model files one at a time, as
// EachModel hands them out, without holding them all. Only the index's entries are kept; they share
// the model's best map and GPU list.
type IndexBuilder struct {
	lb *Leaderboard
	// problem is the stable Problem Solving rows.
	problem []Row
	// err is the first error; Add does nothing once there is one.
	err error

	// Set by the first model.
	idx       *IndexFile
	src       Source
	firstSlug string
	rowID     map[*Row]string
	// byModel holds the Problem Solving rows by model id.
	byModel map[string][]*Row
}

// NewIndexBuilder starts index.json for the leaderboard and the stable
// Problem Solving rows (as Stable returns them, in upstream order).
func NewIndexBuilder(lb *Leaderboard, problem []Row) *IndexBuilder {
	return &IndexBuilder{lb: lb, problem: problem}
}

// Add adds a model file, as Models or EachModel built it. The first model
// gives the index its date and source block, which every other must have.
// After an error Add does nothing and returns it.
func (b *IndexBuilder) Add(m *Model) error {
	if b.err == nil && b.idx == nil {
		b.err = b.start(m)
	}
	if b.err == nil {
		b.err = b.add(m)
	}
	return b.err
}

// Index returns index.json, its lists sorted, or Add's error.
func (b *IndexBuilder) Index() (*IndexFile, error) {
	if b.err != nil {
		return nil, b.err
	}
	idx := b.idx
	if idx == nil {
		return nil, fmt.Errorf("%s: no models", IndexName)
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
func (b *IndexBuilder) start(first *Model) error {
	lb, problem := b.lb, b.problem
	problemIDs, err := rowIDs(TaskProblem, problem)
	if err != nil {
		return err
	}
	b.rowID = map[*Row]string{}
	for id, r := range problemIDs {
		b.rowID[r] = id
	}

	src := first.Source
	b.src, b.firstSlug = src, first.Slug
	b.idx = &IndexFile{
		Version: FormatVersion, Updated: first.Updated, DataVersion: first.DataVersion,
		Unit: first.Unit, ITLDeadlineMS: ITLDeadlineMS,
		Source: IndexSource{
			Name: src.Name, Version: src.Version, Released: src.Released, Compiled: src.Compiled,
			Retrieved: src.Retrieved, Licence: src.Licence, Cite: src.Cite,
			Details: "each model file's source block (models/SLUG.json, key source) holds the full text: publisher, method, selection, licence evidence",
			Tasks: []IndexTask{
				{Task: TaskChat, Name: TaskNames[TaskChat], File: SourcesDir + TaskFile(TaskChat), StableConfigurations: len(lb.Chat)},
				{Task: TaskProblem, Name: TaskNames[TaskProblem], File: SourcesDir + TaskFile(TaskProblem), StableConfigurations: len(problem)},
			},
		},
		Models: []IndexEntry{}, GPUComparisons: []GPUComparison{}, TaskComparisons: []TaskComparison{}, LoadCurves: []LoadCurve{},
	}

	// The Problem Solving index rows, by model id and GPU: the model files'
	// rule (newModel) applied to the gpqa rows of each index model.
	b.byModel = map[string][]*Row{}
	for i := range problem {
		r := &problem[i]
		b.byModel[r.ModelID] = append(b.byModel[r.ModelID], r)
	}
	return nil
}

// add adds one model's entry, GPU comparison, load curves and task
// comparisons.
func (b *IndexBuilder) add(m *Model) error {
	idx := b.idx
	if !reflect.DeepEqual(m.Source, b.src) || m.Updated != idx.Updated || m.DataVersion != idx.DataVersion {
		return fmt.Errorf("%s: models/%s.json has another source block or date than models/%s.json", IndexName, m.Slug, b.firstSlug)
	}
	if len(m.rows) != len(m.Configurations) {
		return fmt.Errorf("%s: models/%s.json was not built by Models (no upstream rows)", IndexName, m.Slug)
	}
	idx.Models = append(idx.Models, IndexEntry{
		Slug: m.Slug, Name: m.Name, ModelID: m.ModelID, ParamsB: m.ParamsB, ActiveParamsB: m.ActiveParamsB,
		Architecture: m.Architecture, Configurations: len(m.Configurations), GPUs: m.GPUs,
		File: "models/" + m.Slug + ".json", Best: m.Best,
	})

	best := map[string]int{} // GPU -> index in m.Configurations
	for gpu, c := range m.Best {
		i := configIndex(m, c.RowID)
		if i < 0 {
			return fmt.Errorf("%s: models/%s.json: best %s row %s is not among the configurations", IndexName, m.Slug, gpu, c.RowID)
		}
		best[gpu] = i
	}

	if o, ok := best[GPUCompareOver]; ok {
		if u, ok := best[GPUCompareUnder]; ok {
			ro, ru := m.rows[o], m.rows[u]
			idx.GPUComparisons = append(idx.GPUComparisons, GPUComparison{
				Slug: m.Slug, H100: ref(m.Configurations[o]), B200: ref(m.Configurations[u]),
				EnergyPerTokenRatio: format.Sig3(*ro.EnergyPerToken / *ru.EnergyPerToken),
			})
		}
	}

	var pm *Model
	if rows := b.byModel[m.ModelID]; len(rows) > 0 {
		var err error
		if pm, err = newModel(b.lb, rows); err != nil {
			return err
		}
	}
	for _, gpu := range sortedKeys(best) {
		i := best[gpu]
		lc, err := loadCurve(m, gpu, i)
		if err != nil {
			return err
		}
		idx.LoadCurves = append(idx.LoadCurves, lc)

		if pm == nil {
			continue
		}
		pc, ok := pm.Best[gpu]
		if !ok {
			continue
		}
		pr := pm.rows[configIndex(pm, pc.RowID)]
		tc, err := taskComparison(m, i, pr, b.rowID[pr])
		if err != nil {
			return err
		}
		idx.TaskComparisons = append(idx.TaskComparisons, tc)
	}
	return nil
}

func configIndex(m *Model, rowID string) int {
	for i, c := range m.Configurations {
		if c.RowID == rowID {
			return i
		}
	}
	return -1
}

func ref(c Config) RowRef {
	return RowRef{
		RowID: c.RowID, NumGPUs: c.NumGPUs, MaxNumSeqs: c.MaxNumSeqs, AvgRunningBatch: c.AvgRunningBatch,
		WhPerMillion: c.WhPerMillion, JoulesPerToken: c.JoulesPerToken, MedianITL: c.MedianITL,
		TokensPerSecond: c.TokensPerSecond, GPUPowerWatts: c.GPUPowerWatts, AvgOutputTokens: c.AvgOutputTokens,
	}
}

func taskRow(c Config, r *Row) (TaskRow, error) {
	n, err := OutputTokens(r)
	if err != nil {
		return TaskRow{}, err
	}
	return TaskRow{RowRef: ref(c), JoulesPerResponse: format.Round(*r.EnergyPerToken*n, 1)}, nil
}

func taskComparison(m *Model, i int, pr *Row, prID string) (TaskComparison, error) {
	cr := m.rows[i]
	chat, err := taskRow(m.Configurations[i], cr)
	if err != nil {
		return TaskComparison{}, err
	}
	pc, err := newConfig(m.Slug, pr)
	if err != nil {
		return TaskComparison{}, err
	}
	pc.RowID = prID
	prob, err := taskRow(pc, pr)
	if err != nil {
		return TaskComparison{}, err
	}
	cn, _ := OutputTokens(cr)
	pn, _ := OutputTokens(pr)
	ce, pe := *cr.EnergyPerToken, *pr.EnergyPerToken
	return TaskComparison{
		Slug: m.Slug, GPU: cr.GPU, TextConversation: chat, ProblemSolving: prob,
		EnergyPerResponseRatio: format.Sig3(pe * pn / (ce * cn)),
		EnergyPerTokenRatio:    format.Sig3(pe / ce),
	}, nil
}

// loadCurve follows m's configurations on gpu at the GPU count of the index
// row i, in the model file's order (cap, then repeat).
func loadCurve(m *Model, gpu string, i int) (LoadCurve, error) {
	to := m.Configurations[i]
	lc := LoadCurve{Slug: m.Slug, GPU: gpu, NumGPUs: to.NumGPUs, To: ref(to)}
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
			if top < 0 || m.rows[j].MedianITL > m.rows[top].MedianITL {
				top = j
			}
		case lc.Past == nil:
			p := ref(c)
			lc.Past = &p
		}
	}
	if from < 0 || top < 0 {
		return LoadCurve{}, fmt.Errorf("%s: models/%s.json: no configurations for the %s index row", IndexName, m.Slug, gpu)
	}
	rf, rt := m.rows[from], m.rows[i]
	if rf.Power <= 0 || rf.Throughput <= 0 {
		return LoadCurve{}, fmt.Errorf("%s: %s: zero power or throughput; the load curve has no ratio", IndexName, rf.Label())
	}
	lc.From = ref(m.Configurations[from])
	lc.EnergyPerTokenFall = format.Sig3(*rf.EnergyPerToken / *rt.EnergyPerToken)
	lc.GPUPowerRisePercent = format.RoundInt((rt.Power/rf.Power - 1) * 100)
	lc.ThroughputRise = format.Sig3(rt.Throughput / rf.Throughput)
	lc.MaxMedianITL = m.Configurations[top].MedianITL
	lc.MaxMedianITLRowID = m.Configurations[top].RowID
	return lc, nil
}

// Encode writes index.json's published bytes to w: exactly Marshal(f)'s,
// without holding them. The four long lists (a few entries per model: tens
// of megabytes for ten thousand models) are encoded one element at a time;
// the rest of the file, a few kilobytes, is Marshal's own output of f with
// the lists left empty. Marshal would hold the whole file twice, compact
// and indented, besides the struct.
func (f *IndexFile) Encode(w io.Writer) error {
	head := *f
	head.Models, head.GPUComparisons, head.TaskComparisons, head.LoadCurves = []IndexEntry{}, []GPUComparison{}, []TaskComparison{}, []LoadCurve{}
	b, err := format.Marshal(&head)
	if err != nil {
		return err
	}
	enc := newListEncoder(w)
	for _, l := range []struct {
		key    string
		encode func() error
	}{
		{"models", func() error { return encodeList(enc, f.Models) }},
		{"gpu_comparisons", func() error { return encodeList(enc, f.GPUComparisons) }},
		{"task_comparisons", func() error { return encodeList(enc, f.TaskComparisons) }},
		{"load_curves", func() error { return encodeList(enc, f.LoadCurves) }},
	} {
		// A top-level key: a newline, two spaces and the quoted key, which
		// no string value can hold (a JSON string has no raw newline).
		mark := "\n  \"" + l.key + "\": "
		i := bytes.Index(b, []byte(mark+"[]"))
		if i < 0 {
			return fmt.Errorf("%s: encoding: no %q list", IndexName, l.key)
		}
		i += len(mark)
		if _, err := w.Write(b[:i]); err != nil {
			return err
		}
		if err := l.encode(); err != nil {
			return err
		}
		b = b[i+len("[]"):]
	}
	_, err = w.Write(b)
	return err
}

// listEncoder writes the elements of a top-level list of a published file
// as Marshal indents them (two levels deep), one at a time.
type listEncoder struct {
	w   io.Writer
	buf bytes.Buffer // an element, indented, with what goes before and after it
	enc *json.Encoder
}

func newListEncoder(w io.Writer) *listEncoder {
	e := &listEncoder{w: w}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	e.enc.SetIndent(elementPrefix, "  ")
	return e
}

// elementPrefix starts an element of a top-level list: a line of its own,
// four spaces in.
const elementPrefix = "    "

// encodeList writes list as Marshal would at the top level of a file.
func encodeList[T any](e *listEncoder, list []T) error {
	switch {
	case list == nil:
		_, err := io.WriteString(e.w, "null")
		return err
	case len(list) == 0:
		_, err := io.WriteString(e.w, "[]")
		return err
	}
	if _, err := io.WriteString(e.w, "["); err != nil {
		return err
	}
	for i := range list {
		e.buf.Reset()
		e.buf.WriteString("\n" + elementPrefix)
		if err := e.enc.Encode(&list[i]); err != nil {
			return fmt.Errorf("%s: encoding %T: %w", IndexName, &list[i], err)
		}
		e.buf.Truncate(e.buf.Len() - 1) // the Encoder's newline
		if i < len(list)-1 {
			e.buf.WriteByte(',')
		}
		if _, err := e.w.Write(e.buf.Bytes()); err != nil {
			return err
		}
	}
	_, err := io.WriteString(e.w, "\n  ]")
	return err
}

// Summary says what the index holds, for logs.
func (f *IndexFile) Summary() string {
	return strings.Join([]string{
		strconv.Itoa(len(f.Models)) + " models",
		strconv.Itoa(len(f.GPUComparisons)) + " GPU comparisons",
		strconv.Itoa(len(f.TaskComparisons)) + " task pairs",
		strconv.Itoa(len(f.LoadCurves)) + " load curves",
	}, ", ")
}
