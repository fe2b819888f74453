package main

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/plural"
	"github.com/leadgreen/greentokens/internal/printable"
	"github.com/leadgreen/greentokens/pricing"
	"github.com/leadgreen/greentokens/snapshots/store"
)

func init() { register(newListCmd) }

func newListCmd(e *env) *cobra.Command {
	var snap string
	var asJSON bool
	var year int
	var task string
	cmd := &cobra.Command{
		Use:   "list (models|grids|tasks) [--snapshot DIR] [--json] [--year YEAR] [--task TASK]",
		Short: "list what a snapshot can price and render: its models, its grids, or its tasks",
		Long: "Lists a snapshot's models (slug, name, model id, GPUs, and the GPUs with an index row, which\n" +
			"carbon prices), its grids (name, ISO 3 code, area type, the year of the value, g CO2e per\n" +
			"kWh), or its tasks (id, name, unit, latency ceiling of the index rows, models). --task lists\n" +
			"the models of another task than Text Conversation, with each index row's energy per the\n" +
			"task's unit. --year lists the grids whose value is of that year. The snapshot is checked\n" +
			"against its manifest first; without --snapshot it is the newest under " + defaultOut + ", named on stderr.",
		Example: "  greentokens list models\n" +
			"  greentokens list tasks\n" +
			"  greentokens list models --task text-to-video\n" +
			"  greentokens list grids --year 2024 --snapshot out/2026-09-27 --json",
		Args:      exactArgs(1, "what to list, models, grids or tasks"),
		ValidArgs: []string{"models", "grids", "tasks"},
		RunE: func(cmd *cobra.Command, args []string) error {
			var y *int
			if cmd.Flags().Changed("year") { // yearValue took only a YYYY year
				y = &year
			}
			if args[0] != "models" && cmd.Flags().Changed("task") {
				return usagef("--task is for list models")
			}
			switch args[0] {
			case "models":
				if y != nil {
					return usagef("--year is for list grids")
				}
				ref, err := snapshotFlagOrNewest(e, cmd, snap)
				if err != nil {
					return err
				}
				return listModels(e, ref, task, asJSON)
			case "tasks":
				if y != nil {
					return usagef("--year is for list grids")
				}
				ref, err := snapshotFlagOrNewest(e, cmd, snap)
				if err != nil {
					return err
				}
				return listTasks(e, ref, asJSON)
			case "grids":
				ref, err := snapshotFlagOrNewest(e, cmd, snap)
				if err != nil {
					return err
				}
				return listGrids(e, ref, y, asJSON)
			}
			var near []string
			for _, k := range cmd.ValidArgs {
				if pricing.EditDistance(strings.ToLower(args[0]), k) <= 2 {
					near = append(near, k)
				}
			}
			return usagef("list %q: want models, grids or tasks%s", args[0], didYouMean(near))
		},
	}
	snapshotFlag(cmd, &snap)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON (schemas/list-models.schema.json, list-task-models.schema.json with --task, list-grids.schema.json, list-tasks.schema.json) instead of a table")
	cmd.Flags().StringVar(&task, "task", "", "list models: the models of this `TASK` (an id, such as text-to-image, or a name); Text Conversation when not given")
	cmd.Flags().Var(yearValue{&year}, "year", "list grids: only the grids whose value is of `YEAR`")
	return cmd
}

// loadCatalogSnapshot loads the release ref names as loadRelease does,
// and reads it as the catalog serves it, to list and price from.
func loadCatalogSnapshot(e *env, ref *snapshotRef) (*store.Release, *catalog.Snapshot, error) {
	ls, err := loadRelease(e, ref)
	if err != nil {
		return nil, nil, err
	}
	s, err := catalog.FromLoaded(ls)
	if err != nil {
		return nil, nil, err
	}
	return ls, s, interrupted(e)
}

func listModels(e *env, ref *snapshotRef, task string, asJSON bool) error {
	_, s, err := loadCatalogSnapshot(e, ref)
	if err != nil {
		return err
	}
	answer, err := s.ListTaskModels(task)
	if err != nil {
		return taskError(err)
	}
	if asJSON {
		return printJSON(e, answer)
	}
	l, ok := answer.(*catalog.ModelList)
	if !ok {
		return printTaskModels(e, answer.(*catalog.TaskModelList))
	}
	fmt.Fprintf(e.stdout, "%s in snapshot %s\n", plural.Count(len(l.Models), "model"), l.Snapshot)
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "SLUG\tNAME\tMODEL ID\tGPUS\tINDEX ROWS\n")
	for _, m := range l.Models {
		var priced []string
		for _, r := range m.IndexRows {
			priced = append(priced, r.GPU)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", m.Slug, printable.String(m.Name), printable.String(m.ModelID), strings.Join(m.GPUs, ","), strings.Join(priced, ","))
	}
	return tw.Flush()
}

// printTaskModels prints the models of a task beside the primary one,
// each index row as GPU=energy in the task's unit.
func printTaskModels(e *env, l *catalog.TaskModelList) error {
	fmt.Fprintf(e.stdout, "%s of task %s in snapshot %s (index rows in %s)\n", plural.Count(len(l.Models), "model"), l.Task, l.Snapshot, l.Unit)
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "SLUG\tNAME\tMODEL ID\tGPUS\tINDEX ROWS\n")
	for _, m := range l.Models {
		var rows []string
		for _, r := range m.IndexRows {
			wh := r.WhPerMillion
			for _, v := range []*format.Float{r.WhPerImage, r.WhPerVideo} {
				if v != nil {
					wh = v
				}
			}
			rows = append(rows, fmt.Sprintf("%dx%s=%s", r.NumGPUs, r.GPU, numOrNone(wh)))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", m.Slug, printable.String(m.Name), printable.String(m.ModelID), strings.Join(m.GPUs, ","), strings.Join(rows, " "))
	}
	return tw.Flush()
}

func listTasks(e *env, ref *snapshotRef, asJSON bool) error {
	_, s, err := loadCatalogSnapshot(e, ref)
	if err != nil {
		return err
	}
	l := s.ListTasks()
	if asJSON {
		return printJSON(e, l)
	}
	fmt.Fprintf(e.stdout, "%s in snapshot %s\n", plural.Count(len(l.Tasks), "task"), l.Snapshot)
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "ID\tNAME\tUNIT\tINDEX ROW CEILING\tMODELS\n")
	for _, t := range l.Tasks {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s <= %s %s\t%d\n", t.ID, t.Name, t.Unit, t.Ceiling.Field, num(t.Ceiling.Max), t.Ceiling.Unit, t.Models)
	}
	return tw.Flush()
}

// taskError makes an unknown task a usage error (exit 2).
func taskError(err error) error {
	var ce *catalog.Error
	if errors.As(err, &ce) {
		return usageError{ce.Error()}
	}
	return err
}

func listGrids(e *env, ref *snapshotRef, year *int, asJSON bool) error {
	ls, s, err := loadCatalogSnapshot(e, ref)
	if err != nil {
		return err
	}
	if s.Grid == nil {
		return usagef("%s has no grid.json: it was built with --no-grid", printable.String(ref.Name))
	}
	q := catalog.GridQuery{}
	if year != nil {
		q.Year = *year
	}
	l, err := s.ListGrids(q)
	if err != nil {
		return err
	}
	if year != nil && len(l.Areas) == 0 {
		years := map[int]int{}
		for _, a := range s.Grid.Areas {
			years[a.Year]++
		}
		return noGridOfYear(ls, ref.Name, *year, years)
	}
	if asJSON {
		return printJSON(e, l)
	}
	fmt.Fprintf(e.stdout, "%s in snapshot %s (reference year %d)\n", plural.Count(len(l.Areas), "grid"), l.Snapshot, l.Year)
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "NAME\tISO3\tTYPE\tYEAR\tG CO2E/KWH\n")
	for _, g := range l.Areas {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", printable.String(g.Name), g.ISO3, g.AreaType, g.Year, num(g.GCO2ePerKWh))
	}
	return tw.Flush()
}

// printJSON prints v as the published files are (fixed key order, numbers
// as the seeds print them), with a final newline, through printable.JSON:
// upstream text keeps its value, and no control character of it reaches
// the terminal raw.
func printJSON(e *env, v any) error {
	data, err := format.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(printable.JSON(e.stdout), "%s\n", data)
	return err
}

// noGridOfYear is the usage error of list grids --year for a year no area
// of grid.json has (years counts the areas of each year it has). It names
// the reference years the snapshot's archived Ember CSV can give (those
// with a World value) and suggests another build only for one of them.
func noGridOfYear(s *store.Release, dir string, year int, years map[int]int) error {
	var have []string
	for _, y := range slices.Sorted(maps.Keys(years)) {
		have = append(have, fmt.Sprintf("%d (%s)", y, plural.Count(years[y], "grid")))
	}
	msg := fmt.Sprintf("no grid of %s has a value of %d; its values are of %s", dir, year, strings.Join(have, ", "))
	_, can := gridYears(s, format.World)
	switch {
	case slices.Contains(can, year):
		return usagef("%s. The archived Ember CSV can give %d as the reference year: build --grid-year %d", msg, year, year)
	case len(can) > 0:
		return usagef("%s. The archived Ember CSV cannot give %d as the reference year: it can give %s (the years %s has a value for)",
			msg, year, yearRanges(can), format.World)
	}
	return usageError{msg}
}
