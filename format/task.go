package format

import (
	"strconv"
	"sync"

	"github.com/leadgreen/greentokens/internal/sourcetext"
)

// Task is a leaderboard task the index publishes: what the index calls it,
// what its energy figures are per, where its file is, and the latency a
// configuration must meet to be an index row. The registry (Tasks) holds
// the tasks a snapshot archives, in the order it lists them; another task
// of the leaderboard is added to it as one more value, and its name and
// unit to internal/sourcetext's tasks.json, the one reviewed home of the
// published text, which the registry reads them from.
type Task struct {
	// ID is the leaderboard's task id: "lm-arena-chat".
	ID string
	// Name is the task's name as the leaderboard's web app shows it and
	// the index prints it: "Text Conversation" (sourcetext's tasks.json).
	Name string
	// Key is the task's key in a task comparison of index.json:
	// "text_conversation".
	Key string
	// Unit is the functional unit of the task's energy figures: "Wh per
	// million output tokens" (sourcetext's tasks.json).
	Unit string
	// EnergyField is the upstream field of a configuration's energy per
	// unit of output: "energy_per_token_joules".
	EnergyField string
	// Ceiling is the latency an index row of the task meets.
	Ceiling Ceiling
	// Primary is true for the one task whose rows the model files publish
	// (Text Conversation).
	Primary bool
	// Kind says what the task's rows measure and how they are read: output
	// tokens (an LLM or a vision-language model), or images or videos (a
	// diffusion model).
	Kind Kind
	// InIndex is true for the tasks index.json lists and compares (Text
	// Conversation and Problem Solving): index.json compares every other
	// such task with the primary one. Every task but the primary one has
	// files of its own, TaskIndexPath and TaskModelPath.
	InIndex bool
}

// Kind is what a task's rows measure.
type Kind int

// The kinds of task.
const (
	// Tokens: energy per output token (energy_per_token_joules), under a
	// median inter-token latency ceiling, published in Wh per million
	// output tokens.
	Tokens Kind = iota
	// Images: energy per generated image (energy_per_image_joules), under
	// a batch latency ceiling, published in Wh per image.
	Images
	// Videos: energy per generated video (energy_per_video_joules), under
	// a batch latency ceiling, published in Wh per video.
	Videos
)

// Diffusion reports whether the kind is a diffusion model's (images or
// videos): rows of a batch of generations, not of served requests.
func (k Kind) Diffusion() bool { return k == Images || k == Videos }

// EnergyKey is the published key of a configuration's energy per unit,
// named for the unit: "wh_per_million_output_tokens", "wh_per_image",
// "wh_per_video".
func (t Task) EnergyKey() string {
	switch t.Kind {
	case Images:
		return "wh_per_image"
	case Videos:
		return "wh_per_video"
	}
	return "wh_per_million_output_tokens"
}

// UnitShort is the task's unit in a column heading: "Wh/M", "Wh/image",
// "Wh/video".
func (t Task) UnitShort() string {
	switch t.Kind {
	case Images:
		return "Wh/image"
	case Videos:
		return "Wh/video"
	}
	return "Wh/M"
}

// JoulesKey is the published key of a configuration's energy per unit in
// joules: "joules_per_output_token", "joules_per_image",
// "joules_per_video".
func (t Task) JoulesKey() string {
	switch t.Kind {
	case Images:
		return "joules_per_image"
	case Videos:
		return "joules_per_video"
	}
	return "joules_per_output_token"
}

// HasFiles reports whether the task has files of its own in a snapshot
// (tasks/ID/index.json and tasks/ID/models/SLUG.json): every task but the
// primary one, whose rows are the model files'.
func (t Task) HasFiles() bool { return !t.Primary }

// Ceiling is a latency ceiling: a configuration whose upstream Field is at
// most Max (in Unit) meets it.
type Ceiling struct {
	// Field is the upstream field it bounds: "median_itl_ms".
	Field string
	Max   float64
	// Unit is Max's unit: "ms".
	Unit string
}

// File is the name of the task's file, as a snapshot archives it below
// SourcesDir and fetch hands it out: leaderboard/tasks/ID.json.
func (t Task) File() string { return LeaderboardTask(t.ID) }

// ArchivedPath is the path of the task's file in a snapshot:
// sources/leaderboard/tasks/ID.json.
func (t Task) ArchivedPath() string { return SourcePath(t.File()) }

// UpstreamPath is the path of the task's file in the leaderboard's
// published data (public/data/ of github.com/ml-energy/leaderboard):
// tasks/ID.json.
func (t Task) UpstreamPath() string { return "tasks/" + t.ID + ".json" }

// The token tasks' figures: energy per output token, under a median
// inter-token latency ceiling.
const tokenEnergyField = "energy_per_token_joules"

var itlCeiling = Ceiling{Field: "median_itl_ms", Max: ITLDeadlineMS, Unit: "ms"}

// The diffusion tasks' ceilings: the batch latency, the leaderboard's own
// defaults (defaultLatencyDeadlineS in its src/config/tasks.ts: 30 s for
// text-to-image, 300 s for text-to-video).
var (
	imageCeiling = Ceiling{Field: "batch_latency_s", Max: 30, Unit: "s"}
	videoCeiling = Ceiling{Field: "batch_latency_s", Max: 300, Unit: "s"}
)

// registered are the tasks, in the order a snapshot lists them (the
// manifest's selection.tasks, index.json's source.tasks), without their
// published text, which registry adds.
var registered = [...]Task{
	{ID: "lm-arena-chat", Key: "text_conversation", EnergyField: tokenEnergyField, Ceiling: itlCeiling, Primary: true, InIndex: true},
	{ID: "gpqa", Key: "problem_solving", EnergyField: tokenEnergyField, Ceiling: itlCeiling, InIndex: true},
	{ID: "sourcegraph-fim", Key: "code_completion", EnergyField: tokenEnergyField, Ceiling: itlCeiling},
	{ID: "image-chat", Key: "image_chat", EnergyField: tokenEnergyField, Ceiling: itlCeiling},
	{ID: "video-chat", Key: "video_chat", EnergyField: tokenEnergyField, Ceiling: itlCeiling},
	{ID: "text-to-image", Key: "text_to_image", EnergyField: "energy_per_image_joules", Ceiling: imageCeiling, Kind: Images},
	{ID: "text-to-video", Key: "text_to_video", EnergyField: "energy_per_video_joules", Ceiling: videoCeiling, Kind: Videos},
}

// registry is the registered tasks with their names and units from
// sourcetext. The embedded text is the binary's own: a task without its
// text is a mistake every test meets, so it panics.
var registry = sync.OnceValue(func() [len(registered)]Task {
	text := mustText()
	out := registered
	for i := range out {
		tt, ok := text.Tasks[out[i].ID]
		if !ok {
			panic("format: internal/sourcetext/tasks.json has no task " + out[i].ID)
		}
		out[i].Name, out[i].Unit = tt.Name, tt.Unit
	}
	return out
})

// mustText is the published fixed text (sourcetext.Load), which the tests
// of sourcetext hold to load.
func mustText() *sourcetext.Text {
	text, err := sourcetext.Load()
	if err != nil {
		panic("format: " + err.Error())
	}
	return text
}

// Tasks returns the registered tasks, in the order a snapshot lists them,
// the primary task first. The slice is the caller's own.
func Tasks() []Task {
	tasks := registry()
	return append([]Task(nil), tasks[:]...)
}

// LookupTask returns the registered task of the leaderboard's id, and
// false when none is registered.
func LookupTask(id string) (Task, bool) {
	for _, t := range registry() {
		if t.ID == id {
			return t, true
		}
	}
	return Task{}, false
}

// PrimaryTask returns the task whose rows the model files publish.
func PrimaryTask() Task {
	for _, t := range registry() {
		if t.Primary {
			return t
		}
	}
	panic("format: no primary task registered")
}

// taskByKey returns the registered task whose Key is key.
func taskByKey(key string) (Task, bool) {
	for _, t := range registry() {
		if t.Key == key {
			return t, true
		}
	}
	return Task{}, false
}

// RowID is the published id of a configuration of the task with the id
// task: SLUG/GPU/NUM_GPUS/MAX_NUM_SEQS for the primary task (the model
// files' row_id), with the task after the slug for any other
// (SLUG/gpqa/GPU/...), and "/rN" after it for the Nth measurement of one
// configuration when upstream repeats it (N > 1).
func RowID(task, slug, gpu string, numGPUs, maxNumSeqs, repeat int) string {
	id := slug + "/"
	if task != PrimaryTask().ID {
		id += task + "/"
	}
	id += gpu + "/" + strconv.Itoa(numGPUs) + "/" + strconv.Itoa(maxNumSeqs)
	return id + repeatSuffix(repeat)
}

// DiffusionRowID is the published id of a diffusion task's configuration:
// SLUG/TASK/GPU/NUM_GPUS/BATCH_SIZE/ulysses-U-ring-R (the degrees of
// Ulysses and ring sequence parallelism, which tell apart the runs of one
// batch on one GPU count), with "/rN" after it for the Nth measurement of
// one configuration (N > 1).
func DiffusionRowID(task, slug, gpu string, numGPUs, batchSize, ulysses, ring, repeat int) string {
	return slug + "/" + task + "/" + gpu + "/" + strconv.Itoa(numGPUs) + "/" + strconv.Itoa(batchSize) +
		"/ulysses-" + strconv.Itoa(ulysses) + "-ring-" + strconv.Itoa(ring) + repeatSuffix(repeat)
}

func repeatSuffix(repeat int) string {
	if repeat > 1 {
		return "/r" + strconv.Itoa(repeat)
	}
	return ""
}
