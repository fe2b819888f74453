package main

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/plural"
	"github.com/leadgreen/greentokens/internal/printable"
	"github.com/leadgreen/greentokens/pricing"
	"github.com/leadgreen/greentokens/render"
	"github.com/leadgreen/greentokens/snapshots/store"
)

func init() { register(newRenderCmd) }

func newRenderCmd(e *env) *cobra.Command {
	var snap, out string
	var all bool
	var grids []string
	cmd := &cobra.Command{
		Use:   "render [--snapshot DIR] (MODEL | --all --out FOLDER)",
		Short: "write a model's page as Markdown from a snapshot alone",
		Long: "Writes a model's page as Markdown from a snapshot alone (its published files and archived\n" +
			"sources), to stdout or --out. With --all, writes every model's page into the --out folder.\n" +
			"A build already renders every page into the snapshot's pages/ folder, listed in its\n" +
			"manifest; render re-creates them, e.g. with other display grids, without editing the snapshot.\n" +
			"Without --snapshot it reads the newest snapshot under " + defaultOut + ", named on stderr.",
		Example: "  greentokens render qwen-3-32b --grids India,Norway\n" +
			"  greentokens render --all --out /tmp/pages --snapshot out/2026-09-27",
		Args: maxArgs(1, "one MODEL"),
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return completeModels(cmd, toComplete), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if all == (len(args) == 1) {
				return usagef("render needs either a MODEL or --all")
			}
			if all && out == "" {
				return usagef("render --all needs --out FOLDER: a published snapshot is never edited")
			}
			model := ""
			if len(args) == 1 {
				model = args[0]
			}
			ref, err := snapshotFlagOrNewest(e, cmd, snap)
			if err != nil {
				return err
			}
			return runRender(e, ref, model, out, grids, cmd.Flags().Changed("grids"))
		},
	}
	snapshotFlag(cmd, &snap)
	cmd.Flags().BoolVar(&all, "all", false, "render every model (needs --out)")
	cmd.Flags().StringVar(&out, "out", "", "write to `PATH` (a file, or with --all a folder; made if missing, each page written whole) instead of stdout")
	cmd.Flags().StringSliceVar(&grids, "grids", render.DefaultGrids(), "comma-separated display grids of the carbon table (names or ISO 3166 codes, as carbon's GRID)")
	_ = cmd.RegisterFlagCompletionFunc("grids", completeGridList)
	return cmd
}

// runRender renders model (every model when "") from the release ref
// names, to out (stdout when "").
func runRender(e *env, ref *snapshotRef, model, out string, grids []string, gridsGiven bool) error {
	snap, err := loadRelease(e, ref)
	if err != nil {
		return err
	}
	s, err := render.Load(snap) // the release, read through its fs.FS
	if err != nil {
		return fmt.Errorf("reading the snapshot %s: %w", printable.String(ref.Name), err)
	}
	if gridsGiven {
		if err := checkGrids(snap, grids); err != nil {
			return err
		}
	}
	opts := render.Options{Grids: grids}
	if model != "" {
		cands := make([][]string, len(s.Index.Models))
		for i, m := range s.Index.Models {
			cands[i] = []string{m.Slug, m.Name, m.ModelID}
		}
		i, err := pricing.FindName(model, cands)
		if err != nil {
			return usageError{err.Error()}
		}
		data, err := render.Render(s, s.Index.Models[i].Slug, opts)
		if err != nil {
			return err
		}
		if err := interrupted(e); err != nil {
			return err
		}
		if out == "" {
			_, err = e.stdout.Write(data)
			return err
		}
		return writeWhole(out, data)
	}
	// One page at a time: each is written as it is rendered, and let go.
	n := 0
	if err := render.Each(s, opts, func(f render.File) error {
		if err := interrupted(e); err != nil {
			return err // the pages written so far are whole
		}
		p := filepath.Join(out, filepath.FromSlash(strings.TrimPrefix(f.Path, format.PagesDir)))
		if err := writeWhole(p, f.Data); err != nil {
			return err
		}
		n++
		return nil
	}); err != nil {
		return err
	}
	e.printf("%s: %s\n", out, plural.Count(n, "page"))
	return nil
}

// checkGrids refuses a --grids name the snapshot's grid.json lacks: a
// mistake in the command line (exit 2, with the years hint of carbon), not
// a note on a page.
func checkGrids(snap *store.Release, grids []string) error {
	if snap.Grid == nil {
		return usagef("--grids: %s has no grid.json (built with --no-grid)", snap.Name())
	}
	for _, q := range grids {
		if _, err := pricing.Lookup(snap.Grid, q); err != nil {
			var ge *pricing.GridError
			if !errors.As(err, &ge) {
				return err
			}
			msg := ge.Message("--grids")
			if ge.NotFound() {
				msg = gridHint(snap, ge.Query, msg)
			}
			return usageError{msg}
		}
	}
	return nil
}

// writeWhole writes data to the file p. A new file, or a regular file there
// already, is written whole or not at all: into a temporary file beside it,
// renamed over p once every byte is written (an interrupted or failed
// render leaves no half page; a hard link to the old file keeps the old
// page). The new file has the old one's permissions, or 0644 less the
// umask. Anything else at p (a symlink, a FIFO, a device such as
// /dev/stdout) is written through, as os.WriteFile does. The folders on the
// way are made.
func writeWhole(p string, data []byte) (err error) {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	old, err := os.Lstat(p)
	switch {
	case err == nil && !old.Mode().IsRegular():
		return os.WriteFile(p, data, 0o644)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return err
	}
	f, err := createBeside(p)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if old != nil {
		if err := f.Chmod(old.Mode().Perm()); err != nil {
			return err
		}
	}
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), p)
}

// createBeside creates a new file with a hidden name of its own in p's
// folder, mode 0644 less the umask.
func createBeside(p string) (*os.File, error) {
	for range 100 {
		name := filepath.Join(filepath.Dir(p), fmt.Sprintf(".%s.%016x.tmp", filepath.Base(p), rand.Uint64()))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("cannot create a temporary file beside %s", p)
}
