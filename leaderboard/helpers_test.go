package leaderboard

import (
	"os"
	"path/filepath"
	"testing"
)

// The tasks of the repository's sample, by the leaderboard's ids.
const (
	taskChat    = "lm-arena-chat"
	taskProblem = "gpqa"
)

// readFile returns the bytes of the file below dir.
func readFile(t testing.TB, dir string, parts ...string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(append([]string{dir}, parts...)...))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
