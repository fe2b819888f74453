package transform

import (
	"fmt"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sourcetext"
	"github.com/leadgreen/greentokens/leaderboard"
)

// Leaderboard is what the model files and index.json are built from: the
// leaderboard's index and newest commit, and the stable rows of each task
// read.
type Leaderboard struct {
	Index  *leaderboard.Index
	Commit *leaderboard.Commit
	// Tasks holds each task's stable rows, in upstream order, by task id:
	// the primary task's (the model files') from NewLeaderboard, every
	// other's from AddTask.
	Tasks map[string][]leaderboard.Row
	// Diffusion holds each diffusion task's published rows, in upstream
	// order, by task id (AddTaskFile).
	Diffusion map[string][]leaderboard.DiffusionRow
	// TaskURLs are the URLs every other task's file was fetched from, by
	// task id (AddTaskFile).
	TaskURLs map[string]string
	// DataURL is the URL the primary task's file was fetched from.
	DataURL string
	// Date is the data version; Retrieved the retrieval date (YYYY-MM-DD).
	Date, Retrieved string
}

// LeaderboardFiles holds the archived leaderboard bytes the model files are
// built from.
type LeaderboardFiles struct {
	Index, Commits []byte
	// Primary is the primary task's file (format.PrimaryTask), PrimaryURL
	// the URL it came from.
	Primary    []byte
	PrimaryURL string
}

// NewLeaderboard parses the archived files and applies the stability filter
// to the primary task. It returns the rows it excluded.
func NewLeaderboard(f LeaderboardFiles, date, retrieved string) (*Leaderboard, []leaderboard.Exclusion, error) {
	idx, err := leaderboard.ParseIndex(f.Index)
	if err != nil {
		return nil, nil, err
	}
	commit, err := leaderboard.ParseCommits(f.Commits)
	if err != nil {
		return nil, nil, err
	}
	primary := format.PrimaryTask().ID
	rows, err := leaderboard.ParseTask(primary, f.Primary)
	if err != nil {
		return nil, nil, err
	}
	stable, excluded := leaderboard.Stable(rows)
	lb := &Leaderboard{Index: idx, Commit: commit, Tasks: map[string][]leaderboard.Row{primary: stable},
		DataURL: f.PrimaryURL, Date: date, Retrieved: retrieved}
	return lb, excluded, nil
}

// AddTask parses the file of another registered task, checks that its
// rows' models are in index.json (CheckIndexed), and applies the stability
// filter; index.json compares its stable rows with the primary task's. It
// returns the rows it excluded.
func (lb *Leaderboard) AddTask(task string, data []byte) ([]leaderboard.Exclusion, error) {
	if t, ok := format.LookupTask(task); !ok || t.Primary {
		return nil, fmt.Errorf("%s: not another task the index publishes", format.LeaderboardTask(task))
	}
	if _, dup := lb.Tasks[task]; dup {
		return nil, fmt.Errorf("%s: read twice", format.LeaderboardTask(task))
	}
	rows, err := leaderboard.ParseTask(task, data)
	if err != nil {
		return nil, err
	}
	if err := lb.CheckIndexed(rows); err != nil {
		return nil, err
	}
	stable, excluded := leaderboard.Stable(rows)
	lb.Tasks[task] = stable
	return excluded, nil
}

// Excluded is an upstream row of a task left out, as the manifest lists
// it, and the row's label for the log.
type Excluded struct {
	Label     string
	Exclusion format.Exclusion
}

// AddTaskFile adds the file of another registered task, of any kind,
// fetched from url: a token task's as AddTask does, a diffusion task's
// parsed (leaderboard.ParseDiffusion), checked against index.json as
// every task file is, and its rows beyond the plausibility bounds left out
// (leaderboard.StableDiffusion). It returns the rows it left out.
func (lb *Leaderboard) AddTaskFile(task string, data []byte, url string) ([]Excluded, error) {
	t, ok := format.LookupTask(task)
	if !ok || t.Primary {
		return nil, fmt.Errorf("%s: not another task the index publishes", format.LeaderboardTask(task))
	}
	if lb.TaskURLs == nil {
		lb.TaskURLs = map[string]string{}
	}
	if !t.Kind.Diffusion() {
		ex, err := lb.AddTask(task, data)
		if err != nil {
			return nil, err
		}
		lb.TaskURLs[task] = url
		out := make([]Excluded, len(ex))
		for i, e := range ex {
			out[i] = Excluded{e.Row.Label(), TokenExclusion(e)}
		}
		return out, nil
	}
	if _, dup := lb.Diffusion[task]; dup {
		return nil, fmt.Errorf("%s: read twice", format.LeaderboardTask(task))
	}
	rows, err := leaderboard.ParseDiffusion(task, data)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		r := &rows[i]
		im, ok := lb.Index.Models[r.ModelID]
		if !ok {
			return nil, fmt.Errorf("%s: model %q is not in leaderboard/index.json", r.Label(), r.ModelID)
		}
		if im.Nickname != r.Nickname {
			return nil, fmt.Errorf("%s: field %q: %q, but leaderboard/index.json names the model %q", r.Label(), leaderboard.FieldNickname, r.Nickname, im.Nickname)
		}
	}
	kept, ex := leaderboard.StableDiffusion(rows)
	if lb.Diffusion == nil {
		lb.Diffusion = map[string][]leaderboard.DiffusionRow{}
	}
	lb.Diffusion[task], lb.TaskURLs[task] = kept, url
	out := make([]Excluded, len(ex))
	for i, e := range ex {
		r := e.Row
		out[i] = Excluded{r.Label(), format.Exclusion{Task: r.Task, Row: r.Index, ModelID: r.ModelID, GPU: r.GPU,
			NumGPUs: r.NumGPUs, BatchSize: r.BatchSize, Reason: e.Reason}}
	}
	return out, nil
}

// TokenExclusion is a token task's excluded row as the manifest lists it.
func TokenExclusion(e leaderboard.Exclusion) format.Exclusion {
	return format.Exclusion{Task: e.Row.Task, Row: e.Row.Index, ModelID: e.Row.ModelID, GPU: e.Row.GPU,
		NumGPUs: e.Row.NumGPUs, MaxNumSeqs: e.Row.MaxNumSeqs, Reason: e.Reason}
}

// CheckIndexed fails when the model of one of a task file's rows is not in
// index.json, naming the first such row: the rule of the primary task's
// rows (a model missing from index.json is an error) holds for every task
// file, so that no row is left out without a word.
func (lb *Leaderboard) CheckIndexed(rows []leaderboard.Row) error {
	for i := range rows {
		if _, ok := lb.Index.Models[rows[i].ModelID]; !ok {
			return fmt.Errorf("%s: model %q is not in leaderboard/index.json", rows[i].Label(), rows[i].ModelID)
		}
	}
	return nil
}

// Evidence returns the compiled date (index.json's last_updated), the
// sentence that says how it was established, and a conflict note when the
// newest commit to the task files has another UTC date ("" when they agree).
func (lb *Leaderboard) Evidence(text *sourcetext.Leaderboard) (compiled, sentence, conflict string, err error) {
	compiled = lb.Index.LastUpdated
	commit := lb.Commit.Date.Format("2006-01-02")
	vars := map[string]string{"compiled": compiled, "index_date": compiled, "commit_date": commit, "commit_sha": lb.Commit.SHA}
	tmpl := text.CompiledEvidenceAgree
	if commit != compiled {
		tmpl = text.CompiledEvidenceDiffer
		if conflict, err = sourcetext.Fill(text.ConflictTemplate, vars); err != nil {
			return "", "", "", err
		}
	}
	sentence, err = sourcetext.Fill(tmpl, vars)
	return compiled, sentence, conflict, err
}
