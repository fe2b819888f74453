package main

import (
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/leadgreen/greentokens/internal/printable"
	"github.com/leadgreen/greentokens/snapshots/diff"
)

func init() { register(newDiffCmd) }

func newDiffCmd(e *env) *cobra.Command {
	var asJSON, exitCode bool
	cmd := &cobra.Command{
		Use:   "diff [--json] [--exit-code] OLD NEW",
		Short: "report what changed from one snapshot to another",
		Long: "Reports what changed from the snapshot OLD to NEW, for a maintainer: the upstream\n" +
			"versions, compiled dates, commits and sha256 of the archived sources; models added and\n" +
			"removed; index rows (best[GPU]) that changed row or whose Wh/M moved, old -> new with the\n" +
			"relative change, largest first; configurations added, removed or changed, per model; grid\n" +
			"areas added, removed or changed. The first line is a summary. Figures are compared on the\n" +
			"unrounded upstream values: a change in rounding only is not a change.\n" +
			"OLD and NEW are each a snapshot folder (" + defaultOut + "/DATE; " + defaultOut + " for its newest) or a bucket's\n" +
			"release (URL/DATE, URL/latest). Both must pass the manifest's size and sha256 checks (else exit 5). Exit 0 whether\n" +
			"or not anything changed; with --exit-code, 1 when anything changed.",
		Args:              exactArgs(2, "two snapshot folders or release URLs, OLD and NEW"),
		ValidArgsFunction: completeDirs,
		RunE: func(cmd *cobra.Command, args []string) error {
			refs := make([]*snapshotRef, len(args))
			for i, arg := range args {
				ref, err := resolveSnapshot(e, "diff", arg)
				if err != nil {
					return err
				}
				refs[i] = ref
			}
			old, err := loadRelease(e, refs[0])
			if err != nil {
				return err
			}
			cur, err := loadRelease(e, refs[1])
			if err != nil {
				return err
			}
			rep := diff.Diff(old, cur)
			if err := interrupted(e); err != nil {
				return err // the report is partial: print none
			}
			if asJSON {
				err = rep.WriteJSON(printable.JSON(e.stdout))
			} else {
				// Upstream names are shown as text: no control character
				// of theirs reaches the terminal.
				var b strings.Builder
				if err = rep.WriteText(&b); err == nil {
					_, err = io.WriteString(e.stdout, printable.Lines(b.String()))
				}
			}
			if err == nil && exitCode && rep.Changed() {
				return exitStatus(exitFailure)
			}
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a machine-readable report (JSON) instead of text")
	cmd.Flags().BoolVar(&exitCode, "exit-code", false, "exit 1 when anything changed (as git diff --exit-code), 0 when nothing did")
	return cmd
}
