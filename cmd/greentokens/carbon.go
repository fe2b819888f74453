package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"text/tabwriter"

	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/snapshots"
	"github.com/leadgreen/greentokens/transform"
	"github.com/leadgreen/greentokens/transform/grid"
	"github.com/leadgreen/greentokens/transform/jsonnum"
)

func runCarbon(args []string, e *env) error {
	fs := newFlags(e, "carbon", "MODEL [GRID...]",
		"Prints the carbon of a billion output tokens of MODEL (slug, name or model id) at each of its\n"+
			"index rows, on the named grids (ISO 3 code or name; every grid when none is named):\n"+
			"Wh/M x g CO2e per kWh / 1000, from the snapshot's archived sources and grid.json. A grid\n"+
			"value of another year than grid.json's reference year (an area's latest earlier value)\n"+
			"shows its year beside it.")
	snap := fs.String("snapshot", "", "snapshot folder `DIR` (snapshots/DATE)")
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *snap == "" || fs.NArg() < 1 {
		return usageError{"carbon needs --snapshot DIR and a MODEL"}
	}
	// Every file's size and sha256 against the manifest first: a figure
	// is priced from a snapshot only as it was published.
	if _, err := snapshots.LoadContext(e.ctx, *snap); err != nil {
		return err
	}
	models, g, err := loadForCarbon(*snap)
	if err != nil {
		return err
	}
	if err := interrupted(e); err != nil {
		return err
	}
	m, err := transform.FindModel(models, fs.Arg(0))
	if err != nil {
		return usageError{err.Error()}
	}
	rows, err := transform.Carbon(m, g, fs.Args()[1:])
	if err != nil {
		return usageError{err.Error()}
	}
	if *asJSON {
		data, err := transform.Marshal(rows)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(e.stdout, "%s\n", data)
		return err
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "GPU\tWh/M\tgrid\tg CO2e/kWh (%d)\tkg CO2e per billion tokens\t\n", g.Year)
	for _, r := range rows {
		// A value of another year than the header's says which.
		grid := num(r.GCO2ePerKWh)
		if r.Year != g.Year {
			grid += fmt.Sprintf(" (%d)", r.Year)
		}
		fmt.Fprintf(tw, "%d x %s\t%s\t%s\t%s\t%s\t\n", r.NumGPUs, r.GPU, num(r.WhPerMillion), r.Grid, grid, num(r.KgPerBillion))
	}
	return tw.Flush()
}

func num(f jsonnum.Float) string {
	s, _ := jsonnum.Format(float64(f))
	return s
}

// loadForCarbon derives the models from a snapshot's archived leaderboard
// files (so the figures start from unrounded upstream values) and reads its
// grid.json.
func loadForCarbon(dir string) ([]*transform.Model, *grid.Grid, error) {
	read := func(rel string) ([]byte, error) {
		b, err := regfile.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			return nil, fmt.Errorf("reading the snapshot: %w", err)
		}
		return b, nil
	}
	var files transform.LeaderboardFiles
	for rel, dst := range map[string]*[]byte{
		"sources/leaderboard/index.json":               &files.Index,
		"sources/leaderboard/commits.json":             &files.Commits,
		"sources/leaderboard/tasks/lm-arena-chat.json": &files.Chat,
	} {
		b, err := read(rel)
		if err != nil {
			return nil, nil, err
		}
		*dst = b
	}
	lb, _, err := transform.NewLeaderboard(files, "", "")
	if err != nil {
		return nil, nil, err
	}
	models, err := transform.Models(lb)
	if err != nil {
		return nil, nil, err
	}
	gb, err := read(grid.FileName)
	if err != nil {
		return nil, nil, err
	}
	var g grid.Grid
	if err := json.Unmarshal(gb, &g); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", grid.FileName, err)
	}
	return models, &g, nil
}
