package validate

import "strings"

// task is a published leaderboard task, one row of the checker's own copy
// of format's task registry (a deliberate mirror); its display name and
// unit are published text, read from internal/sourcetext
// (snap.text.Tasks, by id).
type task struct {
	id   string // the leaderboard's task id
	file string // the archived task file, a snapshot path
	// itlCeilingMS is the median inter-token latency, in ms, within which
	// a token task's configuration may be an index row; 0 for a diffusion
	// task.
	itlCeilingMS int
	// unit is a diffusion task's unit of output, "image" or "video" (its
	// energy field energy_per_UNIT_joules, published as wh_per_UNIT), and
	// batchCeilingS the batch latency, in s, within which a configuration
	// may be an index row; "" and 0 for a token task.
	unit          string
	batchCeilingS float64
}

// The tasks whose rules differ: the model files are built from Text
// Conversation, and index.json compares Problem Solving with it.
const (
	taskChat = "lm-arena-chat"
	taskGPQA = "gpqa"
)

// tasks are the published tasks, in the order a snapshot lists them:
// first the two index.json lists (indexTasks), then the others; every
// task but Text Conversation has files of its own (tasks/TASK/).
var tasks = []task{
	{id: taskChat, file: "sources/leaderboard/tasks/lm-arena-chat.json", itlCeilingMS: 500},
	{id: taskGPQA, file: "sources/leaderboard/tasks/gpqa.json", itlCeilingMS: 500},
	{id: "sourcegraph-fim", file: "sources/leaderboard/tasks/sourcegraph-fim.json", itlCeilingMS: 500},
	{id: "image-chat", file: "sources/leaderboard/tasks/image-chat.json", itlCeilingMS: 500},
	{id: "video-chat", file: "sources/leaderboard/tasks/video-chat.json", itlCeilingMS: 500},
	{id: "text-to-image", file: "sources/leaderboard/tasks/text-to-image.json", unit: "image", batchCeilingS: 30},
	{id: "text-to-video", file: "sources/leaderboard/tasks/text-to-video.json", unit: "video", batchCeilingS: 300},
}

// indexTasks are the tasks index.json lists and compares.
var indexTasks = tasks[:2]

// taskOf returns the published task with the id, or nil.
func taskOf(id string) *task {
	for i := range tasks {
		if tasks[i].id == id {
			return &tasks[i]
		}
	}
	return nil
}

// chatTask is Text Conversation, the task the model files are built from.
func chatTask() *task { return taskOf(taskChat) }

// sourceName is the task file's name in the manifest's sources
// ("leaderboard/tasks/gpqa.json").
func (t *task) sourceName() string { return strings.TrimPrefix(t.file, sourcesPrefix) }
