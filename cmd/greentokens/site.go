package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/leadgreen/greentokens/internal/plural"
	"github.com/leadgreen/greentokens/render"
	"github.com/leadgreen/greentokens/site"
)

func init() { register(newSiteCmd) }

func newSiteCmd(e *env) *cobra.Command {
	var snap, out, baseURL string
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
			s, err := site.New(held, site.Options{Grids: grids, BaseURL: baseURL})
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
	return cmd
}
