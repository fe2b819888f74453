//go:build scale

package sample

import (
	"testing"

	"github.com/leadgreen/greentokens/internal/shared"
)

// Versions are the leaderboard version folders that the tests of every
// version read, oldest first, and how many of them the model files build
// from. Built with the "scale" tag (make scale): the eight versions of
// ../shared, of which the model files build from seven (the oldest has no
// avg_output_len). In make test: the sample's one version.
func Versions(tb testing.TB) (dirs []string, building int) {
	tb.Helper()
	return shared.Versions(tb), 7
}
