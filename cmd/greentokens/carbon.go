package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/leadgreen/greentokens/transform"
	"github.com/leadgreen/greentokens/transform/grid"
	"github.com/leadgreen/greentokens/transform/jsonnum"
)

func init() { register(newCarbonCmd) }

// carbonReport is carbon --json; schemas/carbon.schema.json.
type carbonReport struct {
	// Snapshot is the snapshot's date (its data version).
	Snapshot string                `json:"snapshot"`
	Model    string                `json:"model"`
	GridYear int                   `json:"grid_year"`
	Rows     []transform.CarbonRow `json:"rows"`
}

func newCarbonCmd(e *env) *cobra.Command {
	var snap string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "carbon --snapshot DIR MODEL [GRID...]",
		Short: "price a model's index rows on any grid: kg CO2e per billion output tokens",
		Long: "Prints the carbon of a billion output tokens of MODEL (slug, name or model id; case, spaces\n" +
			"and punctuation do not count) at each of its index rows, on the named grids (ISO 3 code or\n" +
			"name; every grid when none is named): Wh/M x g CO2e per kWh / 1000, from the snapshot's\n" +
			"archived sources and grid.json. The snapshot is checked against its manifest first.",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 1 {
				return usagef("carbon needs a MODEL")
			}
			return nil
		},
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			if len(args) == 0 {
				return completeModels(cmd, toComplete), cobra.ShellCompDirectiveNoFileComp
			}
			return completeGrids(cmd, toComplete), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCarbon(e, snap, args[0], args[1:], asJSON)
		},
	}
	snapshotFlag(cmd, &snap)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON (schemas/carbon.schema.json) instead of a table")
	return cmd
}

func runCarbon(e *env, dir, model string, grids []string, asJSON bool) error {
	s, err := loadSnapshot(e, dir)
	if err != nil {
		return err
	}
	if s.Grid == nil {
		return usagef("%s has no grid.json: it was built with --no-grid, so it holds no carbon figures; build one without --no-grid", dir)
	}
	models, err := s.DeriveModels()
	if err != nil {
		return err
	}
	if err := interrupted(e); err != nil {
		return err
	}
	m, err := transform.FindModel(models, model)
	if err != nil {
		return usageError{err.Error()}
	}
	for _, q := range grids {
		if _, err := grid.Lookup(s.Grid, q); err != nil {
			return usageError{gridHint(s, q, err).Error()}
		}
	}
	rows, err := transform.Carbon(m, s.Grid, grids)
	if err != nil {
		return usageError{err.Error()}
	}
	if asJSON {
		return printJSON(e, carbonReport{Snapshot: s.Manifest.Date, Model: m.Slug, GridYear: s.Grid.Year, Rows: rows})
	}
	fmt.Fprintf(e.stdout, "%s (%s), snapshot %s\n", termText(m.Name), m.Slug, s.Manifest.Date)
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "GPU\tWh/M\tgrid\tg CO2e/kWh (%d)\tkg CO2e per billion tokens\t\n", s.Grid.Year)
	for _, r := range rows {
		// A value of another year than the header's (a fallback) says which.
		g := num(r.GCO2ePerKWh)
		if r.Year != s.Grid.Year {
			g += fmt.Sprintf(" (%d)", r.Year)
		}
		fmt.Fprintf(tw, "%d x %s\t%s\t%s\t%s\t%s\t\n", r.NumGPUs, r.GPU, num(r.WhPerMillion), termText(r.Grid), g, num(r.KgPerBillion))
	}
	return tw.Flush()
}

func num(f jsonnum.Float) string {
	s, _ := jsonnum.Format(float64(f))
	return s
}
