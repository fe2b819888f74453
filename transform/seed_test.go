package transform

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sample"
	"github.com/leadgreen/greentokens/leaderboard"
)

// The tasks of the sample, by the leaderboard's ids.
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

// leaderboardOf parses the leaderboard version folder dir (index.json,
// commits.json, tasks/) with the seeds' dates, its Text Conversation file
// named by chatURL.
func leaderboardOf(t testing.TB, dir, chatURL string) (*Leaderboard, []leaderboard.Exclusion, error) {
	t.Helper()
	return NewLeaderboard(LeaderboardFiles{
		Index:      readFile(t, dir, "index.json"),
		Commits:    readFile(t, dir, "commits.json"),
		Primary:    readFile(t, dir, "tasks", "lm-arena-chat.json"),
		PrimaryURL: chatURL,
	}, sample.SeedDate, sample.SeedRetrieved)
}

// seedLeaderboard is the leaderboard version the seeds were built from, in
// the repository's sample.
func seedLeaderboard(t testing.TB) *Leaderboard {
	t.Helper()
	lb, excluded, err := leaderboardOf(t, sample.Leaderboard(),
		"https://raw.githubusercontent.com/ml-energy/leaderboard/master/public/data/tasks/lm-arena-chat.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(excluded) != 0 {
		t.Fatalf("%d rows excluded from %s; the published files hold only stable runs", len(excluded), sample.Version)
	}
	return lb
}

func TestSeedsReproducedByteForByte(t *testing.T) {
	models, err := Models(seedLeaderboard(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(models) != 18 {
		t.Errorf("got %d models, want the 18 Text Conversation models", len(models))
	}
	bySlug := map[string]*format.Model{}
	for _, m := range models {
		bySlug[m.File.Slug] = m.File
	}
	for _, slug := range []string{"qwen-3-32b", "qwen-3-14b"} {
		t.Run(slug, func(t *testing.T) {
			m := bySlug[slug]
			if m == nil {
				t.Fatalf("no model %s", slug)
			}
			got, err := format.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			want := sample.Read(t, "seeds", slug+".json")
			if !bytes.Equal(got, want) {
				t.Errorf("models/%s.json differs from the seed (-seed +built):\n%s", slug, cmp.Diff(string(want), string(got)))
			}
		})
	}
}
