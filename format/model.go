package format

import "sync"

// Published constants of the model files and index.json.
const (
	// FormatVersion is the "version" of the model files, index.json and
	// grid.json.
	FormatVersion = "1"
	// ITLDeadlineMS is the median inter-token latency ceiling of an index
	// row, in milliseconds (the token tasks' Ceiling).
	ITLDeadlineMS = 500
)

// EnergyScope says what the energy per output token covers, in the words
// every surface uses (the pages, the site, the API's description and the
// MCP server's instructions), as internal/sourcetext's pages.json holds
// them. The leaderboard measures the GPU energy of a steady-state window,
// which holds the prefill of the requests in flight, and divides it by the
// output tokens of that window alone.
func EnergyScope() string { return energyScope() }

var energyScope = sync.OnceValue(func() string { return mustText().Pages.EnergyScope })

// Model is a published model file, models/SLUG.json
// (schemas/model.schema.json). Field order is the published key order.
type Model struct {
	Version        string            `json:"version"`
	Updated        string            `json:"updated"`
	DataVersion    string            `json:"data_version"`
	Unit           string            `json:"unit"`
	ITLDeadlineMS  int               `json:"itl_deadline_ms"`
	Source         Source            `json:"source"`
	Caveat         string            `json:"caveat"`
	Boundary       string            `json:"boundary"`
	Slug           string            `json:"slug"`
	Name           string            `json:"name"`
	ModelID        string            `json:"model_id"`
	ParamsB        Float             `json:"params_b"`
	ActiveParamsB  Float             `json:"active_params_b"`
	Architecture   string            `json:"architecture"`
	GPUs           []string          `json:"gpus"`
	Configurations []Config          `json:"configurations"`
	Best           map[string]Config `json:"best"`
}

// Source is the model file's source block.
type Source struct {
	Name             string   `json:"name"`
	Publisher        string   `json:"publisher"`
	URL              string   `json:"url"`
	DataURL          string   `json:"data_url"`
	Version          string   `json:"version"`
	Released         string   `json:"released"`
	Compiled         string   `json:"compiled"`
	CompiledEvidence string   `json:"compiled_evidence"`
	Retrieved        string   `json:"retrieved"`
	Licence          string   `json:"licence"`
	LicenceEvidence  []string `json:"licence_evidence"`
	Workload         string   `json:"workload"`
	Method           string   `json:"method"`
	Selection        string   `json:"selection"`
	Cite             string   `json:"cite"`
	CiteURL          string   `json:"cite_url"`
	UsedFor          string   `json:"used_for"`
	Configurations   string   `json:"configurations"`
}

// Config is one configuration row of a model file.
type Config struct {
	GPU                 string `json:"gpu"`
	NumGPUs             int    `json:"num_gpus"`
	TensorParallel      int    `json:"tensor_parallel"`
	DataParallel        int    `json:"data_parallel"`
	ExpertParallel      int    `json:"expert_parallel"`
	Precision           string `json:"precision"`
	MaxNumSeqs          int    `json:"max_num_seqs"`
	AvgRequestsInFlight Float  `json:"avg_requests_in_flight"`
	WhPerMillion        Float  `json:"wh_per_million_output_tokens"`
	JoulesPerToken      Float  `json:"joules_per_output_token"`
	MedianITL           Float  `json:"median_itl_ms"`
	P90ITL              Float  `json:"p90_itl_ms"`
	P99ITL              Float  `json:"p99_itl_ms"`
	TokensPerSecond     Float  `json:"tokens_per_second"`
	GPUPowerWatts       int64  `json:"gpu_power_watts_total"`
	AvgOutputTokens     int64  `json:"avg_output_tokens"`
	UnderITLDeadline    bool   `json:"under_itl_deadline"`
	AvgRunningBatch     Float  `json:"avg_running_batch"`
	P95ITL              Float  `json:"p95_itl_ms"`
	RowID               string `json:"row_id"`
	Repeat              int    `json:"repeat"`
}
