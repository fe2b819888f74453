package render

import (
	"os"
	"testing"

	"github.com/leadgreen/greentokens/internal/sample"
)

// benchSnapshotEnv names a snapshot folder (a build's OUT/DATE) whose
// pages BenchmarkRender renders instead of the seed version's.
const benchSnapshotEnv = "GREENTOKENS_PAGE_BENCH_SNAPSHOT"

// BenchmarkRender renders a snapshot's pages, one page an op, in the
// index's order, as a build does: reading each model file back, building
// the page and writing its Markdown. The snapshot is the seed version's
// (18 models) unless benchSnapshotEnv names another.
func BenchmarkRender(b *testing.B) {
	dir := os.Getenv(benchSnapshotEnv)
	if dir == "" {
		dir = snapshotDir(b, sample.Leaderboard(), true)
	}
	s, err := Load(os.DirFS(dir))
	if err != nil {
		b.Fatal(err)
	}
	models := s.Index.Models
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := Render(s, models[i%len(models)].Slug, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
