package leaderboard

import (
	"crypto/sha256"
	"fmt"
	"regexp"
	"strings"

	"github.com/leadgreen/greentokens/format"
)

// Upstream field names of a task file's configuration rows.
const (
	FieldModelID       = "model_id"
	FieldNickname      = "nickname"
	FieldGPU           = "gpu_model"
	FieldNumGPUs       = "num_gpus"
	FieldTP            = "tensor_parallel"
	FieldDP            = "data_parallel"
	FieldEP            = "expert_parallel"
	FieldPrecision     = "weight_precision"
	FieldMaxNumSeqs    = "max_num_seqs"
	FieldAvgBatch      = "avg_batch_size"
	FieldEnergyToken   = "energy_per_token_joules"
	FieldEnergyRequest = "energy_per_request_joules"
	FieldOutputLen     = "avg_output_len"
	FieldMedianITL     = "median_itl_ms"
	FieldP90ITL        = "p90_itl_ms"
	FieldP95ITL        = "p95_itl_ms"
	FieldP99ITL        = "p99_itl_ms"
	FieldThroughput    = "output_throughput_tokens_per_sec"
	FieldPower         = "avg_power_watts"
	FieldTotalParams   = "total_params_billions"
	FieldActiveParams  = "activated_params_billions"
	FieldArchitecture  = "architecture"
	// FieldSteadySeconds is the steady-state duration, where upstream has it.
	FieldSteadySeconds = "steady_state_duration_s"
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

	// content identifies the row's JSON object, every field included (see
	// contentKey); zero for a row not read by ParseTask.
	content rowContent
}

// rowContent identifies a row object by its content (see contentKey).
type rowContent [sha256.Size]byte

// Label names the row in errors and logs:
// "leaderboard/tasks/TASK.json: configurations[I] (MODEL on N x GPU, max_num_seqs C)".
func (r *Row) Label() string {
	return format.LeaderboardTask(r.Task) + ": " + r.Where()
}

// Where names the row within its file, with as much of its identity as
// could be read.
func (r *Row) Where() string {
	switch {
	case r.ModelID != "" && r.GPU != "" && r.NumGPUs > 0 && r.MaxNumSeqs > 0:
		return fmt.Sprintf("configurations[%d] (%s on %d x %s, max_num_seqs %d)", r.Index, r.ModelID, r.NumGPUs, r.GPU, r.MaxNumSeqs)
	case r.ModelID != "":
		return fmt.Sprintf("configurations[%d] (%s)", r.Index, r.ModelID)
	}
	return fmt.Sprintf("configurations[%d]", r.Index)
}

// MaxGPUNameLen bounds a GPU name, in bytes.
const MaxGPUNameLen = 40

// gpuName is a plain GPU name: letters, digits, space, ".", "_" and "-",
// starting with a letter or digit and not ending with a space, at most
// MaxGPUNameLen bytes (the schemas' gpu).
var gpuName = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9 ._-]{0,38}[A-Za-z0-9._-])?$`)

// GPUName reports whether a gpu_model value is a plain GPU name.
func GPUName(s string) bool { return gpuName.MatchString(s) }

var slugRun = regexp.MustCompile(`[^a-z0-9]+`)

// Slug turns a leaderboard nickname into a file name: lower-cased, every run
// of characters outside [a-z0-9] one "-", trimmed of "-".
func Slug(nickname string) string {
	return strings.Trim(slugRun.ReplaceAllString(strings.ToLower(nickname), "-"), "-")
}

// JoulesPerWh converts joules to watt-hours; a million tokens scale
// joules per token to joules per million tokens.
const (
	JoulesPerWh      = 3600.0
	TokensPerMillion = 1e6
)

// WhPerMillion converts joules per output token to Wh per million output tokens.
func WhPerMillion(joulesPerToken float64) float64 {
	return joulesPerToken * TokensPerMillion / JoulesPerWh
}

// WhPerMillion is a stable row's unrounded Wh per million output tokens,
// from its energy per token (which the stability filter has checked is
// there): what every published Wh/M figure is rounded from, and what a
// price starts from.
func (r *Row) WhPerMillion() float64 { return WhPerMillion(*r.EnergyPerToken) }

// OutputTokens is a row's average output length: avg_output_len where
// upstream has it, else energy per request over energy per token (the
// leaderboard defines the one as the other times the output length).
func OutputTokens(r *Row) (float64, error) {
	if r.OutputLen != nil {
		return *r.OutputLen, nil
	}
	if r.EnergyPerRequest == nil || r.EnergyPerToken == nil || *r.EnergyPerToken <= 0 {
		return 0, fmt.Errorf("%s: field %q: missing, and it cannot be derived", r.Label(), FieldOutputLen)
	}
	return *r.EnergyPerRequest / *r.EnergyPerToken, nil
}

// Better reports whether row a beats row b as a GPU's index row (the
// order of the index row rule, which the builder and pricing.BestWith
// apply among the rows under the latency ceiling): lower unrounded energy
// per token; ties go to fewer GPUs, the lower cap, the lower repeat (ra and
// rb, the rows' repeat numbers in their configuration).
func Better(a *Row, ra int, b *Row, rb int) bool {
	switch {
	case *a.EnergyPerToken != *b.EnergyPerToken:
		return *a.EnergyPerToken < *b.EnergyPerToken
	case a.NumGPUs != b.NumGPUs:
		return a.NumGPUs < b.NumGPUs
	case a.MaxNumSeqs != b.MaxNumSeqs:
		return a.MaxNumSeqs < b.MaxNumSeqs
	}
	return ra < rb
}
