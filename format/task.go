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
	// (Text Conversation); index.json compares every other task with it.
	Primary bool
}

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

// registered are the tasks, in the order a snapshot lists them (the
// manifest's selection.tasks, index.json's source.tasks), without their
// published text, which registry adds.
var registered = [...]Task{
	{ID: "lm-arena-chat", Key: "text_conversation", EnergyField: tokenEnergyField, Ceiling: itlCeiling, Primary: true},
	{ID: "gpqa", Key: "problem_solving", EnergyField: tokenEnergyField, Ceiling: itlCeiling},
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
	if repeat > 1 {
		id += "/r" + strconv.Itoa(repeat)
	}
	return id
}
