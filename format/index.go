package format

// index.json: the index of every model, with three comparisons computed
// from the unrounded upstream rows. See IndexFile for the layout and
// schemas/index.schema.json for the rule behind every field.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

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
	Slug           string   `json:"slug"`
	Name           string   `json:"name"`
	ModelID        string   `json:"model_id"`
	ParamsB        Float    `json:"params_b"`
	ActiveParamsB  Float    `json:"active_params_b"`
	Architecture   string   `json:"architecture"`
	Configurations int      `json:"configurations"`
	GPUs           []string `json:"gpus"`
	File           string   `json:"file"`
	// Best is the model file's best map: the index row of each GPU.
	Best map[string]Config `json:"best"`
}

// Entry is the model file's entry in index.json: its names and sizes, the
// count of its configurations, its file and its index rows.
func (m *Model) Entry() IndexEntry {
	return IndexEntry{
		Slug: m.Slug, Name: m.Name, ModelID: m.ModelID, ParamsB: m.ParamsB, ActiveParamsB: m.ActiveParamsB,
		Architecture: m.Architecture, Configurations: len(m.Configurations), GPUs: m.GPUs,
		File: ModelPath(m.Slug), Best: m.Best,
	}
}

// RowRef names a configuration and repeats its main figures, rounded as in
// the model files.
type RowRef struct {
	RowID           string `json:"row_id"`
	NumGPUs         int    `json:"num_gpus"`
	MaxNumSeqs      int    `json:"max_num_seqs"`
	AvgRunningBatch Float  `json:"avg_running_batch"`
	WhPerMillion    Float  `json:"wh_per_million_output_tokens"`
	JoulesPerToken  Float  `json:"joules_per_output_token"`
	MedianITL       Float  `json:"median_itl_ms"`
	TokensPerSecond Float  `json:"tokens_per_second"`
	GPUPowerWatts   int64  `json:"gpu_power_watts_total"`
	AvgOutputTokens int64  `json:"avg_output_tokens"`
}

// TaskRow is one side of a task comparison.
type TaskRow struct {
	RowRef
	// JoulesPerResponse is the unrounded energy per token times the
	// unrounded average output length, rounded to 1 decimal.
	JoulesPerResponse Float `json:"joules_per_response"`
}

// GPUComparison sets a model's index rows on two GPUs against each other:
// index.json compares each model's H100 index row with its B200 one. It is
// published as an object of the slug, each GPU's row under the GPU's key
// (GPUKey: "h100", then "b200") and the ratio (comparison.go).
type GPUComparison struct {
	Slug string
	// Over and Under are the two GPUs' index rows: the ratio is Over's
	// energy per token over Under's.
	Over, Under GPURow
	// EnergyPerTokenRatio is Over over Under, 3 significant figures.
	EnergyPerTokenRatio Float
}

// GPURow is one GPU's index row in a GPU comparison.
type GPURow struct {
	// Key is the GPU's key in the comparison, GPUKey of its name: "h100".
	Key string
	RowRef
}

// TaskComparison sets a model's index row in another task on one GPU
// against its index row in the primary task on the same GPU: index.json
// compares Problem Solving with Text Conversation. It is published as an
// object of the slug, the GPU, each task's row under the task's Key
// ("text_conversation", then "problem_solving") and the ratios
// (comparison.go).
type TaskComparison struct {
	Slug string
	GPU  string
	// Base is the primary task's index row, Other the compared task's.
	Base, Other TaskSide
	// Ratios are Other over Base, 3 significant figures.
	EnergyPerResponseRatio Float
	EnergyPerTokenRatio    Float
}

// TaskSide is one task's index row in a task comparison.
type TaskSide struct {
	// Task is the task's id ("gpqa"), a registered task's.
	Task string
	TaskRow
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
	EnergyPerTokenFall Float `json:"energy_per_token_fall"`
	// GPUPowerRisePercent is (To's power / From's - 1) x 100, whole.
	GPUPowerRisePercent int64 `json:"gpu_power_rise_percent"`
	// ThroughputRise is To's tokens per second over From's.
	ThroughputRise Float `json:"throughput_rise"`
	// MaxMedianITL is the highest median ITL of the rows up to To.
	MaxMedianITL      Float  `json:"max_median_itl_ms"`
	MaxMedianITLRowID string `json:"max_median_itl_row_id"`
	// Past is the first row past To (the next cap up), if any.
	Past *RowRef `json:"past"`
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
	b, err := Marshal(&head)
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
			return fmt.Errorf("%s: encoding: no %q list", IndexPath, l.key)
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
			return fmt.Errorf("%s: encoding %T: %w", IndexPath, &list[i], err)
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
