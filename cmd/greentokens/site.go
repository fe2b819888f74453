package main

import (
	"fmt"
	"strings"

	"github.com/leadgreen/greentokens/site"
	"github.com/leadgreen/greentokens/transform/page"
)

func runSite(args []string, e *env) error {
	fs := newFlags(e, "site", "",
		"Writes a snapshot's website into --out: index.html (every model's index rows, sortable; the\n"+
			"GPU comparison; the task pairs), models/SLUG.html (each model's page with its charts),\n"+
			"grids.html (every grid, and a calculator), sources.html, one stylesheet, one script, and\n"+
			"the snapshot's JSON files under data/. Self-contained: it works from file:// and from any\n"+
			"web server. Every file of the snapshot is checked against its manifest first. The site is\n"+
			"written whole or not at all; --out may be missing, empty or an earlier site (replaced).")
	snap := fs.String("snapshot", "", "snapshot folder `DIR` (snapshots/DATE)")
	out := fs.String("out", "", "write the site into `FOLDER`")
	grids := fs.String("grids", strings.Join(page.DefaultGrids, ","), "comma-separated display grids of the model pages' carbon sections (names or ISO 3 codes)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *snap == "" || *out == "" || fs.NArg() > 0 {
		return usageError{"site needs --snapshot DIR and --out FOLDER"}
	}
	s, err := site.Open(*snap, site.Options{Grids: splitList(*grids)})
	if err != nil {
		return err
	}
	if err := s.WriteDir(*out); err != nil {
		return fmt.Errorf("writing the site into %s: %w", *out, err)
	}
	fmt.Fprintf(e.stdout, "%s: %d files\n", *out, len(s.Paths()))
	return nil
}
