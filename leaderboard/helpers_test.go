package leaderboard

// The tasks of the repository's sample, by the leaderboard's ids.
const (
	taskChat    = "lm-arena-chat"
	taskProblem = "gpqa"
)
