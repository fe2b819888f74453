// Package transform turns the archived upstream files into the published
// figures: joules per token into Wh per million output tokens, the stability
// filter, the 500 ms median inter-token-latency selection, each model's
// configurations and best rows. It reads bytes and returns values; it never
// touches the network or the disk (fetch/ and snapshots/ do).
package transform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"time"
)

// Upstream field names of a task file's configuration rows.
const (
	fModelID       = "model_id"
	fNickname      = "nickname"
	fGPU           = "gpu_model"
	fNumGPUs       = "num_gpus"
	fTP            = "tensor_parallel"
	fDP            = "data_parallel"
	fEP            = "expert_parallel"
	fPrecision     = "weight_precision"
	fMaxNumSeqs    = "max_num_seqs"
	fAvgBatch      = "avg_batch_size"
	fEnergyToken   = "energy_per_token_joules"
	fEnergyRequest = "energy_per_request_joules"
	fOutputLen     = "avg_output_len"
	fMedianITL     = "median_itl_ms"
	fP90ITL        = "p90_itl_ms"
	fP95ITL        = "p95_itl_ms"
	fP99ITL        = "p99_itl_ms"
	fThroughput    = "output_throughput_tokens_per_sec"
	fPower         = "avg_power_watts"
	fTotalParams   = "total_params_billions"
	fActiveParams  = "activated_params_billions"
	fArchitecture  = "architecture"
	// fSteadySeconds is the steady-state duration, where upstream has it.
	fSteadySeconds = "steady_state_duration_s"
)

// Row is one configuration row of a task file, as published.
type Row struct {
	Task  string // task id, e.g. "lm-arena-chat"
	Index int    // position in the file's configurations array (0-based)

	ModelID, Nickname, GPU, Precision, Architecture string
	NumGPUs, TP, DP, EP, MaxNumSeqs                 int
	TotalParams, ActiveParams                       float64

	AvgBatch, MedianITL, P90ITL, P95ITL, P99ITL, Throughput, Power float64

	// EnergyPerToken is nil when upstream has no value (an unstable run).
	EnergyPerToken *float64
	// EnergyPerRequest and OutputLen are nil where upstream lacks them.
	EnergyPerRequest, OutputLen *float64
	// SteadySeconds is nil where upstream lacks the field.
	SteadySeconds *float64
}

// Label names the row in errors and logs.
func (r *Row) Label() string {
	return fmt.Sprintf("%s configurations[%d] (%s on %d x %s, max_num_seqs %d)",
		TaskFile(r.Task), r.Index, r.ModelID, r.NumGPUs, r.GPU, r.MaxNumSeqs)
}

// TaskFile is the archived name of a task's file.
func TaskFile(task string) string { return "leaderboard/tasks/" + task + ".json" }

// IndexModel is one model of the leaderboard's index.json.
type IndexModel struct {
	Nickname     string   `json:"nickname"`
	TotalParams  *float64 `json:"total_params_billions"`
	ActiveParams *float64 `json:"activated_params_billions"`
	Architecture string   `json:"architecture"`
	Precision    string   `json:"weight_precision"`
}

// Index is the leaderboard's public/data/index.json.
type Index struct {
	LastUpdated string                `json:"last_updated"`
	Models      map[string]IndexModel `json:"models"`
	Tasks       []string              `json:"tasks"`
}

// ParseIndex reads index.json.
func ParseIndex(data []byte) (*Index, error) {
	const name = "leaderboard/index.json"
	var idx Index
	if err := decodeStrict(data, &idx); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if _, err := time.Parse(time.DateOnly, idx.LastUpdated); err != nil {
		return nil, fmt.Errorf("%s: field \"last_updated\": %q is not a YYYY-MM-DD date", name, idx.LastUpdated)
	}
	if len(idx.Models) == 0 {
		return nil, fmt.Errorf("%s: field \"models\": missing or empty", name)
	}
	return &idx, nil
}

// Commit is the newest commit to the task files, from GitHub's list-commits API.
type Commit struct {
	SHA  string
	Date time.Time // committer date, UTC
}

// ParseCommits reads the list-commits answer and returns its first (newest) commit.
func ParseCommits(data []byte) (*Commit, error) {
	const name = "leaderboard/commits.json"
	var list []struct {
		SHA    string `json:"sha"`
		Commit struct {
			Committer struct {
				Date string `json:"date"`
			} `json:"committer"`
		} `json:"commit"`
	}
	if err := decodeStrict(data, &list); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("%s: no commits listed", name)
	}
	c := list[0]
	if c.SHA == "" {
		return nil, fmt.Errorf("%s: [0]: field \"sha\": missing", name)
	}
	t, err := time.Parse(time.RFC3339, c.Commit.Committer.Date)
	if err != nil {
		return nil, fmt.Errorf("%s: [0]: field \"commit.committer.date\": %q is not an RFC 3339 time", name, c.Commit.Committer.Date)
	}
	return &Commit{SHA: c.SHA, Date: t.UTC()}, nil
}

// ParseTask reads a task file's configuration rows. A row without a field
// that a rule needs, or with a field of the wrong type, is an error naming
// the file, the row and the field. Fields upstream adds are ignored.
func ParseTask(task string, data []byte) ([]Row, error) {
	name := TaskFile(task)
	var file struct {
		Task           string            `json:"task"`
		Configurations []json.RawMessage `json:"configurations"`
	}
	if err := decodeStrict(data, &file); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if file.Task != task {
		return nil, fmt.Errorf("%s: field \"task\": %q, want %q", name, file.Task, task)
	}
	if len(file.Configurations) == 0 {
		return nil, fmt.Errorf("%s: field \"configurations\": missing or empty", name)
	}
	rows := make([]Row, len(file.Configurations))
	for i, raw := range file.Configurations {
		if err := parseRow(&rows[i], task, i, raw); err != nil {
			return nil, fmt.Errorf("%s: configurations[%d]: %w", name, i, err)
		}
	}
	return rows, nil
}

func parseRow(r *Row, task string, i int, raw json.RawMessage) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("not a JSON object: %w", err)
	}
	f := fields{m: m}
	r.Task, r.Index = task, i
	r.ModelID = f.str(fModelID)
	r.Nickname = f.str(fNickname)
	r.GPU = f.str(fGPU)
	r.Precision = f.str(fPrecision)
	r.Architecture = f.str(fArchitecture)
	r.NumGPUs = f.count(fNumGPUs)
	// Versions before 2025-12-15 write 0 for a parallelism not used.
	r.TP = f.degree(fTP)
	r.DP = f.degree(fDP)
	r.EP = f.degree(fEP)
	r.MaxNumSeqs = f.count(fMaxNumSeqs)
	r.TotalParams = f.num(fTotalParams)
	r.ActiveParams = f.num(fActiveParams)
	r.AvgBatch = f.num(fAvgBatch)
	r.MedianITL = f.num(fMedianITL)
	r.P90ITL = f.num(fP90ITL)
	r.P95ITL = f.num(fP95ITL)
	r.P99ITL = f.num(fP99ITL)
	r.Throughput = f.num(fThroughput)
	r.Power = f.num(fPower)
	r.EnergyPerToken = f.optNum(fEnergyToken)
	r.EnergyPerRequest = f.optNum(fEnergyRequest)
	r.OutputLen = f.optNum(fOutputLen)
	r.SteadySeconds = f.optNum(fSteadySeconds)
	if f.err != nil {
		return f.err
	}
	if r.OutputLen == nil && r.EnergyPerRequest == nil {
		return fmt.Errorf("field %q: missing, and so is %q to derive it from", fOutputLen, fEnergyRequest)
	}
	return nil
}

// fields decodes typed values from a row, keeping the first error.
type fields struct {
	m   map[string]json.RawMessage
	err error
}

func (f *fields) fail(key, format string, a ...any) {
	if f.err == nil {
		f.err = fmt.Errorf("field %q: "+format, append([]any{key}, a...)...)
	}
}

func (f *fields) str(key string) string {
	raw, ok := f.m[key]
	if !ok || string(raw) == "null" {
		f.fail(key, "missing")
		return ""
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		f.fail(key, "%s is not a string", raw)
		return ""
	}
	if s == "" {
		f.fail(key, "empty")
	}
	return s
}

func (f *fields) optNum(key string) *float64 {
	raw, ok := f.m[key]
	if !ok || string(raw) == "null" {
		return nil
	}
	var x float64
	if err := json.Unmarshal(raw, &x); err != nil {
		f.fail(key, "%s is not a number", raw)
		return nil
	}
	return &x
}

func (f *fields) num(key string) float64 {
	p := f.optNum(key)
	if p == nil {
		if f.err == nil {
			f.fail(key, "missing")
		}
		return math.NaN()
	}
	if math.IsNaN(*p) || math.IsInf(*p, 0) || *p < 0 {
		f.fail(key, "%v is not a finite, non-negative number", *p)
	}
	return *p
}

// count reads a whole number from 1 to maxWhole.
func (f *fields) count(key string) int { return f.whole(key, 1) }

// degree reads a whole number from 0 to maxWhole.
func (f *fields) degree(key string) int { return f.whole(key, 0) }

const maxWhole = 1 << 20

func (f *fields) whole(key string, least float64) int {
	x := f.num(key)
	if f.err != nil {
		return 0
	}
	if x != math.Trunc(x) || x < least || x > maxWhole {
		f.fail(key, "%v is not a whole number from %v to %d", x, least, maxWhole)
		return 0
	}
	return int(x)
}

// decodeStrict decodes one JSON value and fails on trailing data. A syntax
// error names the line and column.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			line, col := position(data, se.Offset)
			return fmt.Errorf("not valid JSON at line %d, column %d: %v", line, col, se)
		case errors.As(err, &te):
			line, col := position(data, te.Offset)
			return fmt.Errorf("field %q at line %d, column %d: a JSON %s where a %s belongs", te.Field, line, col, te.Value, te.Type)
		}
		return fmt.Errorf("not valid JSON: %w", err)
	}
	if dec.More() {
		return fmt.Errorf("not valid JSON: data after the top-level value")
	}
	return nil
}

func position(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// sortedKeys returns a map's keys in order, so output never follows map order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// LeaderboardFiles holds the archived leaderboard bytes the model files are
// built from.
type LeaderboardFiles struct {
	Index, Commits, Chat []byte
	// ChatURL is the URL the Text Conversation task file came from.
	ChatURL string
}

// NewLeaderboard parses the archived files and applies the stability filter
// to the Text Conversation task. It returns the rows it excluded.
func NewLeaderboard(f LeaderboardFiles, date, retrieved string) (*Leaderboard, []Exclusion, error) {
	idx, err := ParseIndex(f.Index)
	if err != nil {
		return nil, nil, err
	}
	commit, err := ParseCommits(f.Commits)
	if err != nil {
		return nil, nil, err
	}
	rows, err := ParseTask(TaskChat, f.Chat)
	if err != nil {
		return nil, nil, err
	}
	stable, excluded := Stable(rows)
	lb := &Leaderboard{Index: idx, Commit: commit, Chat: stable, DataURL: f.ChatURL, Date: date, Retrieved: retrieved}
	return lb, excluded, nil
}

// TaskChat is the Text Conversation task, the index's workload.
const TaskChat = "lm-arena-chat"
