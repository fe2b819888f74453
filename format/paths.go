package format

// Paths of the published files in a snapshot, slash-separated and relative
// to the snapshot's folder (OUT/DATE/).
const (
	// ManifestPath is manifest.json, which lists every other file.
	ManifestPath = "manifest.json"
	// IndexPath is index.json, the index of every model.
	IndexPath = "index.json"
	// GridPath is grid.json, present when the build ran the Ember stage.
	GridPath = "grid.json"
	// ModelsDir holds the model files, ModelPath(slug).
	ModelsDir = "models/"
	// PagesDir holds the model pages, PagePath(slug).
	PagesDir = "pages/"
	// SourcesDir holds the archived upstream files, each under its name
	// (SourcePath).
	SourcesDir = "sources/"
)

// ModelPath is the path of a model's file: models/SLUG.json.
func ModelPath(slug string) string { return ModelsDir + slug + ".json" }

// TasksDir holds the files of every task but the primary one: its index,
// TaskIndexPath, and its model files, TaskModelPath.
const TasksDir = "tasks/"

// TaskIndexPath is the path of a task's index: tasks/TASK/index.json.
func TaskIndexPath(task string) string { return TasksDir + task + "/index.json" }

// TaskModelPath is the path of a model's file in a task:
// tasks/TASK/models/SLUG.json.
func TaskModelPath(task, slug string) string {
	return TasksDir + task + "/" + ModelsDir + slug + ".json"
}

// PagePath is the path of a model's page: pages/SLUG.md.
func PagePath(slug string) string { return PagesDir + slug + ".md" }

// SourcePath is the path an upstream file is archived under: sources/NAME.
func SourcePath(name string) string { return SourcesDir + name }

// Names of the upstream files, as a snapshot archives them below
// SourcesDir and as fetch's sources hand them out. Ember's yearly CSV has
// one name per layout: a build archives it under the name of the layout its
// header tells.
const (
	// LeaderboardIndex is the ML.ENERGY Leaderboard's public/data/index.json.
	LeaderboardIndex = "leaderboard/index.json"
	// LeaderboardCommits is GitHub's list of the newest commit to the
	// leaderboard's task files.
	LeaderboardCommits = "leaderboard/commits.json"
	// EmberGlobal is Ember's yearly CSV in the layout it has published
	// since July 2026 (release_generation_yearly_global.csv).
	EmberGlobal = "ember/release_generation_yearly_global.csv"
	// EmberYearly is Ember's yearly CSV in the long layout it published
	// until then (yearly_full_release_long_format.csv).
	EmberYearly = "ember/yearly_full_release_long_format.csv"
)

// LeaderboardTask is the name of a leaderboard task's file,
// leaderboard/tasks/ID.json (the leaderboard's public/data/tasks/ID.json),
// for any task id, registered or not (Task.File for a registered one).
func LeaderboardTask(id string) string { return "leaderboard/tasks/" + id + ".json" }
