//go:build !scale

package sample

import "testing"

// Versions are the leaderboard version folders that the tests of every
// version read, oldest first, and how many of them the model files build
// from. In make test: the sample's one version, which builds. Built with
// the "scale" tag (make scale): the eight versions of ../shared.
func Versions(tb testing.TB) (dirs []string, building int) {
	return []string{Leaderboard()}, 1
}
