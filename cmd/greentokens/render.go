package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/snapshots"
	"github.com/leadgreen/greentokens/transform/page"
)

func runRender(args []string, e *env) error {
	fs := newFlags(e, "render", "[SLUG]",
		"Writes a model's page as Markdown from a snapshot alone (its published files and archived\n"+
			"sources), to stdout or --out. With --all, writes every model's page into the --out folder.\n"+
			"A build already renders every page into the snapshot's pages/ folder, listed in its\n"+
			"manifest; render re-creates them, e.g. with other display grids, without editing the snapshot.")
	snap := fs.String("snapshot", "", "snapshot folder `DIR` (snapshots/DATE)")
	all := fs.Bool("all", false, "render every model (needs --out)")
	out := fs.String("out", "", "write to `PATH` (a file, or with --all a folder) instead of stdout")
	grids := fs.String("grids", strings.Join(page.DefaultGrids, ","), "comma-separated display grids of the carbon table (names or ISO 3 codes)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *snap == "" || (*all == (fs.NArg() == 1)) || fs.NArg() > 1 {
		return usageError{"render needs --snapshot DIR and either a SLUG or --all"}
	}
	if *all && *out == "" {
		return usageError{"render --all needs --out FOLDER: a published snapshot is never edited"}
	}
	// Every file's size and sha256 against the manifest first: a page is
	// rendered from a snapshot only as it was published.
	if _, err := snapshots.LoadContext(e.ctx, *snap); err != nil {
		return err
	}
	s, err := page.Load(regfile.DirFS(*snap))
	if err != nil {
		return fmt.Errorf("reading the snapshot %s: %w", *snap, err)
	}
	opts := page.Options{Grids: splitList(*grids)}
	if !*all {
		data, err := page.Render(s, fs.Arg(0), opts)
		if err != nil {
			return usageError{err.Error()}
		}
		if err := interrupted(e); err != nil {
			return err
		}
		if *out == "" {
			_, err = e.stdout.Write(data)
			return err
		}
		return os.WriteFile(*out, data, 0o644)
	}
	// One page at a time: each is written as it is rendered, and let go.
	n := 0
	if err := page.Each(s, opts, func(f page.File) error {
		if err := interrupted(e); err != nil {
			return err // the pages written so far are whole
		}
		p := filepath.Join(*out, filepath.FromSlash(strings.TrimPrefix(f.Path, page.Dir+"/")))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return err
		}
		n++
		return nil
	}); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: %d pages\n", *out, n)
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
