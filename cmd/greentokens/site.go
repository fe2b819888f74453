package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/history"
	"github.com/leadgreen/greentokens/internal/plural"
	"github.com/leadgreen/greentokens/render"
	"github.com/leadgreen/greentokens/site"
)

func init() { register(newSiteCmd) }

func newSiteCmd(e *env) *cobra.Command {
	var snap, out, baseURL, hist string
	var grids []string
	cmd := &cobra.Command{
		Use:   "site [--snapshot DIR | URL/DATE] --out FOLDER [flags]",
		Short: "write a snapshot's website: index, model pages with charts, grids, sources",
		Long: "Writes a snapshot's website into --out: index.html (every model's index rows, sortable; the\n" +
			"GPU comparison; the task pairs), models/SLUG.html (each model's page with its charts),\n" +
			"grids.html (every grid, and a calculator), sources.html, one stylesheet, one script, and\n" +
			"the snapshot's JSON files under data/. Self-contained: it works from file:// and from any\n" +
			"web server. Every file of the snapshot is checked against its manifest first. The site is\n" +
			"written whole or not at all; --out may be missing, empty or an earlier site (replaced).\n" +
			"--history names the folder of dated snapshots the snapshot is one of: each model page (and\n" +
			"each task model's page, in its task's unit) then charts its index rows across the releases\n" +
			"up to the snapshot's date, with why each changed, and feed.atom lists those releases\n" +
			"(without it, the snapshot alone).\n" +
			"Without --snapshot it is the newest snapshot under " + defaultOut + ", named on stderr.",
		Example: "  greentokens site --out /tmp/web\n" +
			"  greentokens site --snapshot out/2026-09-27 --out /tmp/web --base-url https://example.org/greentokens/\n" +
			"  greentokens site --snapshot file:///srv/greentokens/2026-09-27 --out /tmp/web",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usagef("site needs --out FOLDER")
			}
			if baseURL != "" {
				if err := site.CheckBaseURL(baseURL); err != nil {
					return usagef("--base-url: %v", err)
				}
			}
			ref, err := snapshotFlagOrNewest(e, cmd, snap)
			if err != nil {
				return err
			}
			loaded, held, err := loadCatalogSnapshot(e, ref)
			if err != nil {
				return err
			}
			if cmd.Flags().Changed("grids") {
				if err := checkGrids(loaded, grids); err != nil {
					return err
				}
			}
			opts := site.Options{Grids: grids, BaseURL: baseURL}
			if hist != "" {
				if opts.History, err = historyOf(e, hist, held); err != nil {
					return err
				}
			}
			s, err := site.New(held, opts)
			if err != nil {
				return err
			}
			if err := s.WriteDir(out); err != nil {
				return fmt.Errorf("writing the site into %s: %w", out, err)
			}
			e.printf("%s: %s\n", out, plural.Count(len(s.Paths()), "file"))
			return nil
		},
	}
	snapshotFlag(cmd, &snap)
	cmd.Flags().StringVar(&out, "out", "", "write the site into `FOLDER`")
	cmd.Flags().StringVar(&baseURL, "base-url", "", "the absolute `URL` the site is published at: writes sitemap.xml, the pages' URLs under it, named by robots.txt")
	cmd.Flags().StringSliceVar(&grids, "grids", render.DefaultGrids(), "comma-separated display grids of the model pages' carbon sections (names or ISO 3166 codes, as carbon's GRID)")
	_ = cmd.RegisterFlagCompletionFunc("grids", completeGridList)
	cmd.Flags().StringVar(&hist, "history", "", "the folder `DIR` of dated snapshots the snapshot is one of: the model pages (and task model pages) chart the releases up to its date, feed.atom lists them")
	return cmd
}

// historyOf is the history of the releases under the folder dir, which
// must hold the release of s, the same bytes.
func historyOf(e *env, dir string, s *catalog.Snapshot) (*history.Index, error) {
	if err := checkFolder("--history", dir); err != nil {
		return nil, err
	}
	cat, err := catalog.Open(dir, nil)
	if err != nil {
		return nil, err
	}
	if held, err := cat.Snapshot(s.Date); err != nil || held.Info().Manifest != s.Info().Manifest {
		return nil, usagef("--history %s does not hold the release %s that --snapshot names (the same manifest.json)", dir, s.Date)
	}
	return history.NewIndex(cat), nil
}
