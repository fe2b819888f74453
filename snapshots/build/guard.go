package build

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/crashtest"
	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/snapshots/diff"
	"github.com/leadgreen/greentokens/snapshots/store"
)

// The removal guard, the step between check and publish: a build does not
// silently unpublish what the latest earlier snapshot publishes.

// ErrRemoval: a build drops a model that the latest earlier snapshot has,
// and Options.AllowRemoval does not name it. It wraps failure.ErrConflict
// (a conflict with what is already published; exit code 6).
var ErrRemoval = fmt.Errorf("%w: a published model would be dropped", failure.ErrConflict)

// ErrTaskRemoval: a build drops a task that the latest earlier snapshot
// published, and Options.AllowRemoval does not name it. It wraps
// failure.ErrConflict (exit 6).
var ErrTaskRemoval = fmt.Errorf("%w: a published task would be dropped", failure.ErrConflict)

// ErrGridShrink: grid.json would lose more than MaxGridLossPercent of the
// areas of the latest earlier snapshot's grid.json, and
// Options.AllowGridShrink does not allow it. It wraps failure.ErrConflict
// (exit code 6), like ErrRemoval: an upstream file that collapsed (a cut or
// reshaped release) must not silently unpublish most grids.
var ErrGridShrink = fmt.Errorf("%w: grid.json would lose areas", failure.ErrConflict)

// MaxGridLossPercent is the share of the earlier grid.json's areas a build
// may drop without AllowGridShrink.
const MaxGridLossPercent = 10

// guardRemovals compares the staged snapshot with the latest earlier
// snapshot under opts.Out. It logs the diff's summary line either way, and
// fails with ErrRemoval when a model of the earlier snapshot is missing
// from the stage and opts.AllowRemoval names it neither by slug nor by
// model id. An earlier snapshot that cannot be read is a
// failure.ErrConflict: the build cannot tell what it would drop.
//
// Its memory does not grow with the snapshots' files: Load holds each
// snapshot's manifest and an index entry per model (the earlier
// snapshot's slugs and model ids are all the guard needs, with the
// summary line), and Diff
// reads the model files a pair at a time and each archived task file as a
// stream (at ten thousand models, a few tens of megabytes at the peak).
func guardRemovals(ctx context.Context, st *store.Stage, opts Options, log *slog.Logger) error {
	folder := store.Folder(opts.Out)
	date, err := store.LatestBefore(ctx, folder, opts.Date)
	if err != nil {
		return fmt.Errorf("%w: looking for an earlier snapshot: %w", failure.ErrConflict, err)
	}
	// A replace drops what the published snapshot of the same date has.
	if target := folder.Name(opts.Date); opts.Replace {
		if fi, err := os.Stat(target); err == nil && fi.IsDir() {
			date = opts.Date
		}
	}
	if date == "" {
		return nil
	}
	earlier := folder.Name(date)
	old, err := store.Load(ctx, folder.FS(date), earlier)
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return fmt.Errorf("%w: comparing with the latest earlier snapshot: %w", failure.ErrInterrupted, cerr)
		}
		// Not ErrValidation: the new snapshot is sound, the earlier one
		// cannot be compared with it.
		return fmt.Errorf("%w: the latest earlier snapshot cannot be read to check for dropped models: %v", failure.ErrConflict, err)
	}
	cur, err := store.LoadDir(ctx, st.Dir())
	if err != nil {
		return fmt.Errorf("reading back the new snapshot: %w", err)
	}
	crashtest.Pause(ctx, crashtest.Guard)
	// Diff checks ctx between models: a signal ends the guard, and the
	// build, before anything is published.
	rep, err := compare(ctx, old, cur, earlier, log)
	if err != nil {
		return err
	}
	return judge(rep, earlier, opts, log)
}

// compare diffs cur against old, the latest earlier release (named earlier
// in messages). A figure of cur that is no rounding of its upstream value
// fails with ErrValidation (the checker passed it: a rule the two disagree
// on); one of old is logged, its figures being verify's to judge: the guard
// needs only its models, which Load checked.
func compare(ctx context.Context, old, cur *store.Release, earlier string, log *slog.Logger) (*diff.Report, error) {
	rep, err := diff.Diff(ctx, old, cur)
	if err != nil {
		return nil, err
	}
	for _, p := range rep.Problems {
		if p.Snapshot == cur.Name() {
			return nil, fmt.Errorf("%w: the new snapshot, compared with %s: %s", failure.ErrValidation, earlier, p)
		}
	}
	if len(rep.Problems) > 0 {
		log.Warn("the latest earlier snapshot has figures that are not the rounding of its archived upstream values; greentokens verify it",
			"earlier", earlier, "figures", len(rep.Problems), "first", rep.Problems[0].String())
	}
	return rep, nil
}

// Guard is the removal guard for a release published elsewhere than a
// build's folder (a bucket): cur, compared with old, the latest earlier
// release where cur goes (named earlier in messages), as a build compares
// its stage with the latest earlier snapshot of its folder. It fails with
// ErrRemoval when cur drops a model of old that allowRemoval names
// neither by slug nor by model id, and with ErrGridShrink when grid.json
// loses more than MaxGridLossPercent of old's areas and allowGridShrink
// is false; it logs the diff's summary line either way.
func Guard(ctx context.Context, old, cur *store.Release, earlier string, allowRemoval []string, allowGridShrink bool, log *slog.Logger) error {
	rep, err := compare(ctx, old, cur, earlier, log)
	if err != nil {
		return err
	}
	return judge(rep, earlier, Options{AllowRemoval: allowRemoval, AllowGridShrink: allowGridShrink}, log)
}

// judge fails the build when rep, the diff of the latest earlier snapshot
// and the stage, drops a model or shrinks the grid that opts do not allow,
// and logs its summary line either way.
func judge(rep *diff.Report, earlier string, opts Options, log *slog.Logger) error {
	allowed := map[string]bool{}
	for _, a := range opts.AllowRemoval {
		allowed[strings.TrimSpace(a)] = true
	}
	var blocked, let []string
	for _, m := range rep.Models.Removed {
		name := fmt.Sprintf("%s (%s)", m.Slug, m.ModelID)
		if allowed[m.Slug] || allowed[m.ModelID] {
			let = append(let, name)
			delete(allowed, m.Slug)
			delete(allowed, m.ModelID)
		} else {
			blocked = append(blocked, name)
		}
	}
	// A task the earlier snapshot published and this build does not (the
	// leaderboard's index.json no longer lists it) is guarded like a model,
	// and allowed by its id.
	var blockedTasks, letTasks []string
	for _, id := range rep.Tasks.Removed {
		if allowed[id] {
			letTasks = append(letTasks, id)
			delete(allowed, id)
		} else {
			blockedTasks = append(blockedTasks, id)
		}
	}
	for _, a := range opts.AllowRemoval {
		if allowed[strings.TrimSpace(a)] {
			log.Warn("--allow-removal names no model or task this build drops", "name", a)
		}
	}
	if len(blockedTasks) > 0 {
		log.Warn("compared with the latest earlier snapshot", "earlier", earlier, "summary", rep.Summary)
		return fmt.Errorf("%w: task %s, in %s, %s missing from this build (the leaderboard's index.json does not list %s); pass --allow-removal with the id of each task to drop to publish without it",
			ErrTaskRemoval, strings.Join(blockedTasks, ", "), earlier, isAre(len(blockedTasks)), itThem(len(blockedTasks)))
	}
	if len(letTasks) > 0 {
		log.Warn("dropped tasks, as allowed", "tasks", strings.Join(letTasks, ", "))
	}
	shrink := gridShrink(rep.Grid, earlier)
	if len(blocked) > 0 || (shrink != "" && !opts.AllowGridShrink) {
		log.Warn("compared with the latest earlier snapshot", "earlier", earlier, "summary", rep.Summary)
	}
	if len(blocked) > 0 {
		return fmt.Errorf("%w: %s, in %s, %s missing from this build; pass --allow-removal with the slug or model id of each model to drop to publish without it",
			ErrRemoval, strings.Join(blocked, ", "), earlier, isAre(len(blocked)))
	}
	if shrink != "" && !opts.AllowGridShrink {
		return fmt.Errorf("%w: %s; pass --allow-grid-shrink to publish it", ErrGridShrink, shrink)
	}
	log.Info("compared with the latest earlier snapshot", "earlier", earlier, "summary", rep.Summary)
	if len(let) > 0 {
		log.Warn("dropped models, as allowed", "models", strings.Join(let, ", "))
	}
	if shrink != "" {
		log.Warn("grid.json shrinks, as allowed", "shrink", shrink)
	}
	return nil
}

// gridShrink says how grid.json loses more than MaxGridLossPercent of the
// areas of the earlier snapshot's ("it would list 40 areas, losing 186 of
// the 226 (more than 10%) of snapshots/2026-09-27/grid.json: Afghanistan,
// Albania, ..."), or "" when it does not. A build without grid.json
// (NoGrid, asked for) is not a shrink.
func gridShrink(g diff.GridChange, earlier string) string {
	if g.Old == nil || g.New == nil || len(g.Removed)*100 <= g.Old.Areas*MaxGridLossPercent {
		return ""
	}
	const named = 5
	var names []string
	for _, a := range g.Removed[:min(named, len(g.Removed))] {
		names = append(names, a.Name)
	}
	if len(g.Removed) > named {
		names = append(names, "...")
	}
	return fmt.Sprintf("it would list %d areas, losing %d of the %d (more than %d%%) of %s: %s",
		g.New.Areas, len(g.Removed), g.Old.Areas, MaxGridLossPercent, earlier+"/"+format.GridPath, strings.Join(names, ", "))
}

func itThem(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
