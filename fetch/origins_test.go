package fetch_test

import (
	"testing"

	"github.com/leadgreen/greentokens/fetch"
)

// TestOriginsAtCommit: with a commit, the leaderboard's files are asked at
// it (the placeholder of the base URL) and GitHub's list of commits from it.
func TestOriginsAtCommit(t *testing.T) {
	const c = "7885788e837b80ad172e02e6e8c47e8d0b85520e"
	o := fetch.Origins{LeaderboardBase: fetch.LeaderboardAtCommit, GitHubAPI: fetch.DefaultGitHubAPI, Commit: c}
	for name, want := range map[string]string{
		fetch.LeaderboardIndex:                 "https://raw.githubusercontent.com/ml-energy/leaderboard/" + c + "/public/data/index.json",
		fetch.LeaderboardTask("lm-arena-chat"): "https://raw.githubusercontent.com/ml-energy/leaderboard/" + c + "/public/data/tasks/lm-arena-chat.json",
		fetch.LeaderboardCommits:               "https://api.github.com/repos/ml-energy/leaderboard/commits?path=public/data/tasks&per_page=1&sha=" + c,
	} {
		if got, err := o.URL(name); err != nil || got != want {
			t.Errorf("URL(%s) = %q, %v; want %q", name, got, err, want)
		}
	}
	if got, err := (fetch.Origins{LeaderboardBase: fetch.LeaderboardAtCommit}).URL(fetch.LeaderboardIndex); err == nil {
		t.Errorf("a base URL standing for a commit, and none given: URL = %q, want an error", got)
	}
	if got, _ := fetch.DefaultOrigins().URL(fetch.LeaderboardCommits); got != "https://api.github.com/repos/ml-energy/leaderboard/commits?path=public/data/tasks&per_page=1" {
		t.Errorf("without a commit: %q", got)
	}
}
