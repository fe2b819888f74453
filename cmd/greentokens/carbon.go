package main

import (
	"errors"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/printable"
	"github.com/leadgreen/greentokens/pricing"
	"github.com/leadgreen/greentokens/snapshots/store"
)

func init() { register(newCarbonCmd) }

// carbonFlags are carbon's flags beyond --snapshot and --json: the price
// request's GPU, GPU count, batch, stated intensity and PUE.
type carbonFlags struct {
	task      string
	gpu       string
	numGPUs   int
	batch     float64
	intensity float64
	pue       float64
}

func newCarbonCmd(e *env) *cobra.Command {
	var snap string
	var asJSON bool
	var f carbonFlags
	cmd := &cobra.Command{
		Use:   "carbon [--snapshot DIR] [--task TASK] MODEL [GRID...]",
		Short: "price a model's index rows on any grid: kg CO2e per billion output tokens, g per request",
		Long: "Prints the carbon of a billion output tokens of MODEL (slug, name or model id; case, spaces\n" +
			"and punctuation do not count) at each of its index rows, on the named grids (GRID: an ISO\n" +
			"3166 code such as GB, GBR or UK, a name in grid.json, an earlier name of Ember's, or an\n" +
			"English or common name such as Great Britain or European Union; every grid when none is\n" +
			"named, unless --intensity is given): Wh/M x PUE x g CO2e per kWh / 1000, from the snapshot's\n" +
			"archived sources and grid.json. A GRID of a place grid.json has no value for is an error\n" +
			"saying so, never another area. --gpu prices one GPU; --num-gpus\n" +
			"another GPU count than the index row's; --batch the measured configuration whose average\n" +
			"running batch is nearest (with the index row's GPU count unless --num-gpus says otherwise).\n" +
			"Each row is priced per billion output tokens, per request and per 1,000 requests (from the\n" +
			"upstream energy per request); --pue multiplies the GPU energy by a data centre's power usage\n" +
			"effectiveness (1 to 3; 1, no overhead, when not given). The answer states the PUE it used, and\n" +
			"that embodied emissions (SCI's M) are not included.\n" +
			"--task prices a model of another task (list tasks names them; Text Conversation when not\n" +
			"given): a task of output tokens as above, from its own files; text-to-image per image and per\n" +
			"1,000 images, text-to-video per video and per minute of video, at each GPU's index row (the\n" +
			"lowest energy per image or video whose batch latency meets the task's ceiling; --num-gpus\n" +
			"among that many GPUs; --batch is a token task's).\n" +
			"The answer is the HTTP API's /v1/{date}/carbon and the MCP tool price_carbon's, from the\n" +
			"same code. --batch, --intensity and --pue are decimal numbers (8, 0.5, 2e3; not 0x10, 1_000, Inf\n" +
			"or NaN) and --num-gpus a whole number in decimal (2, not 0x2 or 2.0), as the API reads them.\n" +
			"The snapshot is checked against its manifest first; without --snapshot it is the newest under\n" +
			defaultOut + ", named on stderr.",
		Example: "  greentokens carbon qwen-3-32b                 # every grid, the newest snapshot under out\n" +
			"  greentokens carbon \"Qwen 3 32B\" SAU Norway --gpu B200 --snapshot out/2026-09-27\n" +
			"  greentokens carbon qwen-3-32b DEU --batch 64 --json\n" +
			"  greentokens carbon Qwen/Qwen3-32B --intensity 350 --pue 1.2\n" +
			"  greentokens carbon --task text-to-image \"FLUX.1 dev\" DEU NOR --pue 1.2",
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
			req := catalog.PriceRequest{Task: f.task, Model: args[0], Grids: args[1:], GPU: f.gpu}
			if cmd.Flags().Changed("num-gpus") {
				req.NumGPUs = &f.numGPUs
			}
			if cmd.Flags().Changed("batch") {
				req.Batch = &f.batch
			}
			if cmd.Flags().Changed("intensity") {
				req.Intensity = &f.intensity
			}
			if cmd.Flags().Changed("pue") {
				req.PUE = &f.pue
			}
			ref, err := snapshotFlagOrNewest(e, cmd, snap)
			if err != nil {
				return err
			}
			return runCarbon(e, ref, req, asJSON, cmd.Flags())
		},
	}
	snapshotFlag(cmd, &snap)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON (schemas/carbon.schema.json, the API's /carbon answer) instead of a table")
	cmd.Flags().StringVar(&f.task, "task", "", "price a model of this `TASK` (an id, such as text-to-image, or a name; list tasks names them); Text Conversation when not given")
	cmd.Flags().StringVar(&f.gpu, "gpu", "", "price only this `GPU` (B200, H100); each GPU when not given")
	cmd.Flags().Var(gpuCountValue(&f.numGPUs), "num-gpus", "price the configurations with `N` GPUs (the index row rule among them); each GPU's index row's count when not given")
	cmd.Flags().Var(numberValue(&f.batch), "batch", "price the measured configuration whose average running batch is nearest to `B` (ties to the smaller) instead of the index row")
	cmd.Flags().Var(numberValue(&f.intensity), "intensity", "also price a grid you state, in `G` CO2e per kWh (0 to 2000)")
	cmd.Flags().Var(numberValue(&f.pue), "pue", "multiply the GPU energy by a data centre's power usage effectiveness `P` (1 to 3); 1, no overhead, when not given")
	return cmd
}

// runCarbon prices req from the release ref names; flags are the ones req
// was read from, which a number out of range is refused as.
func runCarbon(e *env, ref *snapshotRef, req catalog.PriceRequest, asJSON bool, flags *pflag.FlagSet) error {
	ls, s, err := loadCatalogSnapshot(e, ref)
	if err != nil {
		return err
	}
	if ls.Grid == nil && req.Intensity == nil {
		return usagef("%s has no grid.json: it was built with --no-grid, so it holds no carbon figures; build one without --no-grid, or state an intensity (--intensity)", printable.String(ref.Name))
	}
	answer, err := s.PriceTask(req)
	if err != nil {
		if ferr := numberFlagError(flags, err); ferr != nil {
			return ferr
		}
		return carbonError(ls, err)
	}
	if asJSON {
		return printJSON(e, answer)
	}
	gridCol := "g CO2e/kWh"
	if ls.Grid != nil {
		gridCol = fmt.Sprintf("g CO2e/kWh (%d)", ls.Grid.Year)
	}
	ans, ok := answer.(*catalog.Carbon)
	if !ok {
		return printDiffusionCarbon(e, answer.(*catalog.DiffusionCarbon), gridCol)
	}
	fmt.Fprintf(e.stdout, "%s (%s), snapshot %s\n", printable.String(ans.Name), ans.Model, ans.Snapshot)
	if ans.Task != "" {
		fmt.Fprintf(e.stdout, "Task %s, %s.\n", ans.Task, ans.Unit)
	}
	if req.Batch != nil || req.NumGPUs != nil {
		fmt.Fprintf(e.stdout, "Configurations: %s.\n", ans.Selection)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "GPU\tWh/M\tgrid\t%s\tkg CO2e per billion tokens\tg CO2e per request\tg CO2e per 1,000 requests\t\n", gridCol)
	for _, r := range ans.Rows {
		// A value of another year than the header's (a fallback) says which.
		g := num(r.GCO2ePerKWh)
		if r.Fallback {
			g += fmt.Sprintf(" (%d)", *r.GridYear)
		}
		fmt.Fprintf(tw, "%d x %s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.NumGPUs, r.GPU, num(r.WhPerMillion), printable.String(r.Grid), g,
			num(r.KgPerBillion), numOrNone(r.GPerRequest), numOrNone(r.GPerThousandRequests))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "%s\n%s %s\n", pueLine(ans.PUE, ans.PUEDefault), ans.SCI.Energy, ans.SCI.Embodied)
	return err
}

// printDiffusionCarbon prints a diffusion task's answer as a table: per
// image and per 1,000 images, or per video and per minute of video.
func printDiffusionCarbon(e *env, ans *catalog.DiffusionCarbon, gridCol string) error {
	fmt.Fprintf(e.stdout, "%s (%s), snapshot %s\n", printable.String(ans.Name), ans.Model, ans.Snapshot)
	fmt.Fprintf(e.stdout, "Task %s, %s; configurations: %s.\n", ans.Task, ans.Unit, ans.Selection)
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	video := len(ans.Rows) > 0 && ans.Rows[0].WhPerVideo != nil
	if video {
		fmt.Fprintf(tw, "GPU\tbatch\tWh/video\tseconds\tgrid\t%s\tg CO2e per video\tg CO2e per minute of video\t\n", gridCol)
	} else {
		fmt.Fprintf(tw, "GPU\tbatch\tWh/image\tgrid\t%s\tg CO2e per image\tkg CO2e per 1,000 images\t\n", gridCol)
	}
	for _, r := range ans.Rows {
		g := num(r.GCO2ePerKWh)
		if r.Fallback {
			g += fmt.Sprintf(" (%d)", *r.GridYear)
		}
		if video {
			fmt.Fprintf(tw, "%d x %s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.NumGPUs, r.GPU, r.BatchSize, numOrNone(r.WhPerVideo), numOrNone(r.VideoSeconds),
				printable.String(r.Grid), g, numOrNone(r.GPerVideo), numOrNone(r.GPerVideoMinute))
			continue
		}
		fmt.Fprintf(tw, "%d x %s\t%d\t%s\t%s\t%s\t%s\t%s\t\n", r.NumGPUs, r.GPU, r.BatchSize, numOrNone(r.WhPerImage),
			printable.String(r.Grid), g, numOrNone(r.GPerImage), numOrNone(r.KgPerThousandImgs))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(e.stdout, "%s\n%s %s\n", pueLine(ans.PUE, ans.PUEDefault), ans.SCI.Energy, ans.SCI.Embodied)
	return err
}

// pueLine states the PUE an answer used, and whether it was the default.
func pueLine(pue format.Float, byDefault bool) string {
	if byDefault {
		return fmt.Sprintf("PUE %s (the default: no data-centre overhead; --pue gives one).", num(pue))
	}
	return fmt.Sprintf("PUE %s (--pue).", num(pue))
}

// numOrNone is a price that may be missing: "-" where upstream has no
// plausible energy per request.
func numOrNone(f *format.Float) string {
	if f == nil {
		return "-"
	}
	return num(*f)
}

// carbonError makes a request the catalog cannot answer a usage error
// (exit 2), in the words of the lookup that failed; a grid is named as the
// command's argument GRID, and one that grid.json lacks says which years
// the archived Ember CSV has it for.
func carbonError(ls *store.Release, err error) error {
	var ce *catalog.Error
	if !errors.As(err, &ce) {
		return err
	}
	msg := ce.Error()
	var ge *pricing.GridError
	switch {
	case errors.As(err, &ge):
		msg = ge.Message("GRID")
		if ge.NotFound() && ls.Grid != nil {
			msg = gridHint(ls, ge.Query, msg)
		}
	case ce.Cause != nil:
		msg = ce.Cause.Error()
	}
	return usageError{msg}
}

func num(f format.Float) string {
	s, _ := format.FormatFloat(float64(f))
	return s
}
