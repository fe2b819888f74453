package validate

import "strings"

// task is a published leaderboard task, one row of the checker's own copy
// of format's task registry (a deliberate mirror, doc.go); its display name
// and unit are published text, read from internal/sourcetext
// (snap.text.Tasks, by id). A task the index publishes later
// (sourcegraph-fim, image-chat and video-chat per token; text-to-image and
// text-to-video per image or video) is one more row.
type task struct {
	id   string // the leaderboard's task id
	file string // the archived task file, a snapshot path
	// itlCeilingMS is the median inter-token latency, in ms, within which
	// a configuration may be a best one; 0 for a task without one.
	itlCeilingMS int
}

// The tasks whose rules differ: the model files are built from Text
// Conversation, and index.json compares Problem Solving with it.
const (
	taskChat = "lm-arena-chat"
	taskGPQA = "gpqa"
)

// tasks are the published tasks, in the order index.json lists them.
var tasks = []task{
	{id: taskChat, file: "sources/leaderboard/tasks/lm-arena-chat.json", itlCeilingMS: 500},
	{id: taskGPQA, file: "sources/leaderboard/tasks/gpqa.json", itlCeilingMS: 500},
}

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
