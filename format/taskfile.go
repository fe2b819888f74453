package format

// The files of every task but the primary one: tasks/TASK/index.json and
// tasks/TASK/models/SLUG.json (schemas/task-index.schema.json and
// schemas/task-model.schema.json). A token task's configurations are the
// model files' Config; a diffusion task's are DiffusionConfig. Field order
// is the published key order.

// TaskModel is a model's file in a task, tasks/TASK/models/SLUG.json: its
// configurations of the task and the index row of each GPU. C is Config
// for a token task, DiffusionConfig for a diffusion task.
type TaskModel[C any] struct {
	Version       string     `json:"version"`
	Updated       string     `json:"updated"`
	DataVersion   string     `json:"data_version"`
	Task          TaskHeader `json:"task"`
	Source        TaskSource `json:"source"`
	Slug          string     `json:"slug"`
	Name          string     `json:"name"`
	ModelID       string     `json:"model_id"`
	ParamsB       Float      `json:"params_b"`
	ActiveParamsB Float      `json:"active_params_b"`
	// Architecture is upstream's, where its rows have one (the token
	// tasks'); a diffusion task's rows have none.
	Architecture   string       `json:"architecture,omitempty"`
	GPUs           []string     `json:"gpus"`
	Configurations []C          `json:"configurations"`
	Best           map[string]C `json:"best"`
}

// TaskHeader says which task a file is of, its unit and the energy keys
// of its configurations, and the latency ceiling of its index rows.
type TaskHeader struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Unit string `json:"unit"`
	// EnergyKey and JoulesKey are the configurations' keys of the energy
	// per unit (Task.EnergyKey, Task.JoulesKey).
	EnergyKey string `json:"energy_key"`
	JoulesKey string `json:"joules_key"`
	// Ceiling is the latency an index row meets: its upstream field, the
	// most it may be and its unit.
	Ceiling CeilingFile `json:"latency_ceiling"`
	// File is the archived task file the figures are computed from.
	File string `json:"file"`
	// DataURL is the URL it was fetched from.
	DataURL string `json:"data_url"`
}

// CeilingFile is a Ceiling as the task files publish it.
type CeilingFile struct {
	Field string `json:"field"`
	Max   Float  `json:"max"`
	Unit  string `json:"unit"`
}

// TaskSource refers to the source, as index.json's source block does.
type TaskSource struct {
	Name      string `json:"name"`
	Version   string `json:"version"`
	Released  string `json:"released"`
	Compiled  string `json:"compiled"`
	Retrieved string `json:"retrieved"`
	Licence   string `json:"licence"`
	Cite      string `json:"cite"`
}

// TaskIndex is a task's index, tasks/TASK/index.json: every model of the
// task with the index row of each GPU, and the GPU comparison of every
// model with index rows on both compared GPUs.
type TaskIndex[C any] struct {
	Version     string     `json:"version"`
	Updated     string     `json:"updated"`
	DataVersion string     `json:"data_version"`
	Task        TaskHeader `json:"task"`
	Source      TaskSource `json:"source"`
	// StableConfigurations counts the task file's rows published (the
	// rows left after the exclusions the manifest lists).
	StableConfigurations int `json:"stable_configurations"`
	// Models: one per model file of the task, by slug.
	Models []TaskEntry[C] `json:"models"`
	// GPUComparisons: every model with an index row on both GPUs, by slug.
	GPUComparisons []TaskGPUComparison[C] `json:"gpu_comparisons"`
}

// TaskEntry is one model of a task's index.
type TaskEntry[C any] struct {
	Slug           string       `json:"slug"`
	Name           string       `json:"name"`
	ModelID        string       `json:"model_id"`
	ParamsB        Float        `json:"params_b"`
	ActiveParamsB  Float        `json:"active_params_b"`
	Architecture   string       `json:"architecture,omitempty"`
	Configurations int          `json:"configurations"`
	GPUs           []string     `json:"gpus"`
	File           string       `json:"file"`
	Best           map[string]C `json:"best"`
}

// Entry is the model's entry in its task's index.
func (m *TaskModel[C]) Entry() TaskEntry[C] {
	return TaskEntry[C]{
		Slug: m.Slug, Name: m.Name, ModelID: m.ModelID, ParamsB: m.ParamsB, ActiveParamsB: m.ActiveParamsB,
		Architecture: m.Architecture, Configurations: len(m.Configurations), GPUs: m.GPUs,
		File: TaskModelPath(m.Task.ID, m.Slug), Best: m.Best,
	}
}

// TaskGPUComparison sets a model's index row on one GPU (Over: H100)
// against its index row on another (Under: B200), each as the model file
// publishes it.
type TaskGPUComparison[C any] struct {
	Slug  string `json:"slug"`
	Over  C      `json:"over"`
	Under C      `json:"under"`
	// EnergyRatio is Over's unrounded energy per unit over Under's, 3
	// significant figures.
	EnergyRatio Float `json:"energy_ratio"`
}

// DiffusionConfig is one configuration of a diffusion task: a batch of
// images or videos generated on a number of GPUs, what each generation
// made, and its energy per image or video. The energy keys are named for
// the unit: wh_per_image and joules_per_image in an image task, wh_per_video
// and joules_per_video in a video task, never both.
type DiffusionConfig struct {
	GPU     string `json:"gpu"`
	NumGPUs int    `json:"num_gpus"`
	// UlyssesDegree and RingDegree are the degrees of the two kinds of
	// sequence parallelism the run split the model over its GPUs with.
	UlyssesDegree int `json:"ulysses_degree"`
	RingDegree    int `json:"ring_degree"`
	// Precision is "" where upstream does not state it (its versions
	// before 2025-12-15).
	Precision string `json:"precision,omitempty"`
	BatchSize int    `json:"batch_size"`
	// Width and Height are each image's or video's, in pixels;
	// InferenceSteps the denoising steps of each generation.
	Width          int `json:"width"`
	Height         int `json:"height"`
	InferenceSteps int `json:"inference_steps"`
	// NumFrames, FPS and VideoSeconds (NumFrames / FPS, 2 decimals) are
	// each video's: a video task's only.
	NumFrames    int    `json:"num_frames,omitempty"`
	FPS          *Float `json:"fps,omitempty"`
	VideoSeconds *Float `json:"video_seconds,omitempty"`
	// The energy per image (Wh, 4 decimals; joules, 1 decimal) or per
	// video: upstream's energy_per_image_joules or
	// energy_per_video_joules, the batch's GPU energy over the batch size.
	WhPerImage     *Float `json:"wh_per_image,omitempty"`
	JoulesPerImage *Float `json:"joules_per_image,omitempty"`
	WhPerVideo     *Float `json:"wh_per_video,omitempty"`
	JoulesPerVideo *Float `json:"joules_per_video,omitempty"`
	// BatchLatencyS is the time to generate the batch, 2 decimals.
	BatchLatencyS Float `json:"batch_latency_s"`
	// GPUPowerWatts is the average power of all the run's GPUs, whole
	// watts.
	GPUPowerWatts int64 `json:"gpu_power_watts_total"`
	// UnderLatencyCeiling: the batch latency is at most the task's
	// ceiling.
	UnderLatencyCeiling bool   `json:"under_latency_ceiling"`
	RowID               string `json:"row_id"`
	Repeat              int    `json:"repeat"`
}
