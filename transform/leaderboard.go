package transform

import (
	"fmt"
	"sort"

	"github.com/leadgreen/greentokens/leaderboard"
)

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
func NewLeaderboard(f LeaderboardFiles, date, retrieved string) (*Leaderboard, []leaderboard.Exclusion, error) {
	idx, err := leaderboard.ParseIndex(f.Index)
	if err != nil {
		return nil, nil, err
	}
	commit, err := leaderboard.ParseCommits(f.Commits)
	if err != nil {
		return nil, nil, err
	}
	rows, err := leaderboard.ParseTask(TaskChat, f.Chat)
	if err != nil {
		return nil, nil, err
	}
	stable, excluded := leaderboard.Stable(rows)
	lb := &Leaderboard{Index: idx, Commit: commit, Chat: stable, DataURL: f.ChatURL, Date: date, Retrieved: retrieved}
	return lb, excluded, nil
}

// CheckIndexed fails when the model of one of a task file's rows is not in
// index.json, naming the first such row: the rule of the Text Conversation
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

// TaskChat is the Text Conversation task, the index's workload.
const TaskChat = "lm-arena-chat"
