package build

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/internal/sample"
	"github.com/leadgreen/greentokens/snapshots/store"
	"github.com/leadgreen/greentokens/validate"
)

// TestFailedValidationWritesNothing: a staged model file changed before the
// checker reads it fails the build with failure.ErrValidation naming the
// model, and nothing is published.
func TestFailedValidationWritesNothing(t *testing.T) {
	out := t.TempDir()
	// Flip one figure in a built model file before the real checker runs.
	tamper := func(ctx context.Context, fsys fs.FS) error {
		p := filepath.Join(fsys.(validate.NamedFS).Name(), "models", "qwen-3-32b.json")
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		b = bytes.Replace(b, []byte(`"wh_per_million_output_tokens": 429.18`), []byte(`"wh_per_million_output_tokens": 429.19`), 1)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
		return validate.Check(ctx, fsys)
	}
	src := fetch.Dir{Leaderboard: sample.SmallLeaderboard(t), Ember: sample.Ember(), Origins: fetch.DefaultOrigins()}
	_, err := run(context.Background(), Options{Out: out, Date: sample.SeedDate, Retrieved: sample.SeedRetrieved, Source: src}, tamper)
	var rep *validate.Report
	if !errors.Is(err, failure.ErrValidation) || !errors.As(err, &rep) || !strings.Contains(err.Error(), "qwen-3-32b") {
		t.Fatalf("build with a tampered file: %v; want failure.ErrValidation wrapping the checker's report, naming the model", err)
	}
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		if e.Name() != store.LockFile {
			t.Errorf("a failed build left %s in the output folder", e.Name())
		}
	}
}
