package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/leadgreen/greentokens/snapshots"
	"github.com/leadgreen/greentokens/transform"
	"github.com/leadgreen/greentokens/transform/grid"
	"github.com/leadgreen/greentokens/transform/jsonnum"
)

func init() { register(newListCmd) }

// modelList is list models --json; schemas/list-models.schema.json.
type modelList struct {
	Snapshot string       `json:"snapshot"` // the snapshot's date
	Models   []modelEntry `json:"models"`
}

type modelEntry struct {
	Slug    string   `json:"slug"`
	Name    string   `json:"name"`
	ModelID string   `json:"model_id"`
	GPUs    []string `json:"gpus"`
	// Priced are the GPUs with an index row, which carbon prices.
	Priced []string `json:"priced_gpus"`
}

// gridList is list grids --json; schemas/list-grids.schema.json.
type gridList struct {
	Snapshot string `json:"snapshot"` // the snapshot's date
	// GridYear is grid.json's reference year; an area's own year may be
	// earlier (a fallback) where the grid format allows it.
	GridYear int         `json:"grid_year"`
	Year     *int        `json:"year,omitempty"` // --year, when given
	Grids    []gridEntry `json:"grids"`
}

type gridEntry struct {
	Name        string        `json:"name"`
	ISO3        string        `json:"iso3"`
	AreaType    string        `json:"area_type"`
	Year        int           `json:"year"`
	Fallback    bool          `json:"fallback"` // Year is earlier than the reference year
	GCO2ePerKWh jsonnum.Float `json:"g_co2e_per_kwh"`
}

func newListCmd(e *env) *cobra.Command {
	var snap string
	var asJSON bool
	var year int
	cmd := &cobra.Command{
		Use:   "list (models|grids) --snapshot DIR [--json] [--year YEAR]",
		Short: "list what a snapshot can price and render: its models, or its grids",
		Long: "Lists a snapshot's models (slug, name, model id, GPUs, and the GPUs with an index row, which\n" +
			"carbon prices), or its grids (name, ISO 3 code, area type, the year of the value, g CO2e per\n" +
			"kWh). --year lists the grids whose value is of that year. The snapshot is checked against\n" +
			"its manifest first.",
		Args:      exactArgs(1, "what to list, models or grids"),
		ValidArgs: []string{"models", "grids"},
		RunE: func(cmd *cobra.Command, args []string) error {
			var y *int
			if cmd.Flags().Changed("year") { // yearValue took only a YYYY year
				y = &year
			}
			switch args[0] {
			case "models":
				if y != nil {
					return usagef("--year is for list grids")
				}
				return listModels(e, snap, asJSON)
			case "grids":
				return listGrids(e, snap, y, asJSON)
			}
			var near []string
			for _, k := range cmd.ValidArgs {
				if grid.EditDistance(strings.ToLower(args[0]), k) <= 2 {
					near = append(near, k)
				}
			}
			return usagef("list %q: want models or grids%s", args[0], didYouMean(near))
		},
	}
	snapshotFlag(cmd, &snap)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON (schemas/list-models.schema.json, schemas/list-grids.schema.json) instead of a table")
	cmd.Flags().Var(yearValue{&year}, "year", "list grids: only the grids whose value is of `YEAR`")
	return cmd
}

func listModels(e *env, dir string, asJSON bool) error {
	s, err := loadSnapshot(e, dir)
	if err != nil {
		return err
	}
	l := modelList{Snapshot: s.Manifest.Date, Models: []modelEntry{}}
	for _, slug := range s.Slugs() {
		m, err := s.Model(slug)
		if err != nil {
			return err
		}
		priced := make([]string, 0, len(m.Best))
		for gpu := range m.Best {
			priced = append(priced, gpu)
		}
		slices.Sort(priced)
		l.Models = append(l.Models, modelEntry{Slug: m.Slug, Name: m.Name, ModelID: m.ModelID, GPUs: m.GPUs, Priced: priced})
	}
	if asJSON {
		return printJSON(e, l)
	}
	fmt.Fprintf(e.stdout, "%s in snapshot %s\n", count(len(l.Models), "model"), l.Snapshot)
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "SLUG\tNAME\tMODEL ID\tGPUS\tINDEX ROWS\n")
	for _, m := range l.Models {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", m.Slug, termText(m.Name), termText(m.ModelID), strings.Join(m.GPUs, ","), strings.Join(m.Priced, ","))
	}
	return tw.Flush()
}

func listGrids(e *env, dir string, year *int, asJSON bool) error {
	s, err := loadSnapshot(e, dir)
	if err != nil {
		return err
	}
	if s.Grid == nil {
		return usagef("%s has no grid.json: it was built with --no-grid", dir)
	}
	l := gridList{Snapshot: s.Manifest.Date, GridYear: s.Grid.Year, Year: year, Grids: []gridEntry{}}
	years := map[int]int{}
	for _, a := range s.Grid.Areas {
		years[a.Year]++
		if year == nil || a.Year == *year {
			l.Grids = append(l.Grids, gridEntry{Name: a.Name, ISO3: a.ISO3, AreaType: a.AreaType, Year: a.Year, Fallback: a.Fallback, GCO2ePerKWh: a.GCO2ePerKWh})
		}
	}
	if year != nil && len(l.Grids) == 0 {
		return noGridOfYear(s, dir, *year, years)
	}
	if asJSON {
		return printJSON(e, l)
	}
	fmt.Fprintf(e.stdout, "%s in snapshot %s (reference year %d)\n", count(len(l.Grids), "grid"), l.Snapshot, l.GridYear)
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "NAME\tISO3\tTYPE\tYEAR\tG CO2E/KWH\n")
	for _, g := range l.Grids {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", termText(g.Name), g.ISO3, g.AreaType, g.Year, num(g.GCO2ePerKWh))
	}
	return tw.Flush()
}

// printJSON prints v as the published files are (fixed key order, numbers
// as the seeds print them), with a final newline.
func printJSON(e *env, v any) error {
	data, err := transform.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "%s\n", data)
	return err
}

// noGridOfYear is the usage error of list grids --year for a year no area
// of grid.json has (years counts the areas of each year it has). It names
// the reference years the snapshot's archived Ember CSV can give (those
// with a World value) and suggests another build only for one of them.
func noGridOfYear(s *snapshots.Snapshot, dir string, year int, years map[int]int) error {
	var have []string
	for _, y := range slices.Sorted(maps.Keys(years)) {
		have = append(have, fmt.Sprintf("%d (%s)", y, count(years[y], "grid")))
	}
	msg := fmt.Sprintf("no grid of %s has a value of %d; its values are of %s", dir, year, strings.Join(have, ", "))
	_, can := gridYears(s, grid.World)
	switch {
	case slices.Contains(can, year):
		return usagef("%s. The archived Ember CSV can give %d as the reference year: build --grid-year %d", msg, year, year)
	case len(can) > 0:
		return usagef("%s. The archived Ember CSV cannot give %d as the reference year: it can give %s (the years %s has a value for)",
			msg, year, yearRanges(can), grid.World)
	}
	return usageError{msg}
}
