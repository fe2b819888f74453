package snapshots

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/internal/failure"

	"github.com/google/go-cmp/cmp"
)

// TestDeriveModels: the models derived again from the archived sources are
// the published ones (the same rows at full precision), and a source changed
// after Load is refused, not derived from.
func TestDeriveModels(t *testing.T) {
	res, err := build(t, t.TempDir(), seedSource())
	if err != nil {
		t.Fatal(err)
	}
	s, err := Load(res.Dir)
	if err != nil {
		t.Fatal(err)
	}
	models, err := s.DeriveModels()
	if err != nil {
		t.Fatal(err)
	}
	var slugs []string
	for _, m := range models {
		slugs = append(slugs, m.File.Slug)
		pub, err := s.Model(m.File.Slug)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(pub.Configurations, m.File.Configurations); diff != "" {
			t.Errorf("%s: derived configurations differ from the published file (-published +derived):\n%s", m.File.Slug, diff)
		}
	}
	if diff := cmp.Diff(s.Slugs(), slugs); diff != "" {
		t.Errorf("derived models (-published +derived):\n%s", diff)
	}

	chat := filepath.Join(res.Dir, "sources", "leaderboard", "tasks", "lm-arena-chat.json")
	b, err := os.ReadFile(chat)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 1
	if err := os.WriteFile(chat, b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = s.DeriveModels()
	if !errors.Is(err, failure.ErrValidation) || !strings.Contains(err.Error(), "no longer matches manifest.json") {
		t.Errorf("DeriveModels after changing %s: err = %v, want failure.ErrValidation naming the manifest", chat, err)
	}
}
