package transform

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// shared is the project's shared data folder, as CI lays it out.
const shared = "../../shared"

const seedVersion = "2026-02-16-7885788"

func readShared(t testing.TB, parts ...string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(append([]string{shared}, parts...)...))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sharedLeaderboard(t testing.TB, version string) *Leaderboard {
	t.Helper()
	dir := filepath.Join("upstream", "leaderboard", version)
	lb, excluded, err := NewLeaderboard(LeaderboardFiles{
		Index:   readShared(t, dir, "index.json"),
		Commits: readShared(t, dir, "commits.json"),
		Chat:    readShared(t, dir, "tasks", "lm-arena-chat.json"),
		ChatURL: "https://raw.githubusercontent.com/ml-energy/leaderboard/master/public/data/tasks/lm-arena-chat.json",
	}, "2026-09-27", "2026-09-26")
	if err != nil {
		t.Fatal(err)
	}
	if len(excluded) != 0 {
		t.Fatalf("%d rows excluded from %s; the published files hold only stable runs", len(excluded), version)
	}
	return lb
}

func TestSeedsReproducedByteForByte(t *testing.T) {
	models, err := Models(sharedLeaderboard(t, seedVersion))
	if err != nil {
		t.Fatal(err)
	}
	if len(models) != 18 {
		t.Errorf("got %d models, want the 18 Text Conversation models", len(models))
	}
	bySlug := map[string]*Model{}
	for _, m := range models {
		bySlug[m.Slug] = m
	}
	for _, slug := range []string{"qwen-3-32b", "qwen-3-14b"} {
		t.Run(slug, func(t *testing.T) {
			m := bySlug[slug]
			if m == nil {
				t.Fatalf("no model %s", slug)
			}
			got, err := Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			want := readShared(t, "seeds", slug+".json")
			if !bytes.Equal(got, want) {
				t.Errorf("models/%s.json differs from the seed (-seed +built):\n%s", slug, cmp.Diff(string(want), string(got)))
			}
		})
	}
}
