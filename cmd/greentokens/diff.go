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
		Use:   "diff [--json] [--exit-code] [OLD [NEW]]",
		Short: "report what changed from one snapshot to another",
		Long: "Reports what changed from the snapshot OLD to NEW, for a maintainer: the upstream\n" +
			"versions, compiled dates, commits and sha256 of the archived sources; models added and\n" +
			"removed; index rows (best[GPU]) that changed row or whose Wh/M moved, old -> new with the\n" +
			"relative change, largest first; configurations added, removed or changed, per model; grid\n" +
			"areas added, removed or changed. The first line is a summary. Figures are compared on the\n" +
			"unrounded upstream values: a change in rounding only is not a change.\n" +
			"OLD and NEW are each a snapshot folder (" + defaultOut + "/DATE; a folder of snapshots for its newest) or a\n" +
			"bucket's release (URL/DATE, URL/latest). Both must pass the manifest's size and sha256 checks\n" +
			"(else exit 5). Exit 0 whether or not anything changed; with --exit-code, 1 when anything changed.\n" +
			"With OLD alone, NEW is the newest snapshot under " + defaultOut + "; with neither, OLD and NEW are its two\n" +
			"newest; which is said on stderr.",
		Example: "  greentokens diff out/2026-09-20 out/2026-09-27\n" +
			"  greentokens diff --json out/2026-09-20   # against the newest snapshot under out\n" +
			"  greentokens diff --exit-code            # the two newest snapshots under out",
		Args:              maxArgs(2, "two snapshot folders or release URLs, OLD and NEW"),
		ValidArgsFunction: completeDirs,
		RunE: func(cmd *cobra.Command, args []string) error {
			oldRef, curRef, err := diffPair(e, args)
			if err != nil {
				return err
			}
			old, err := loadRelease(e, oldRef)
			if err != nil {
				return err
			}
			cur, err := loadRelease(e, curRef)
			if err != nil {
				return err
			}
			rep, err := diff.Diff(e.ctx, old, cur)
			if err != nil {
				return err // interrupted: the report is partial, print none
			}
			if err := rep.Err(); err != nil {
				return err // a snapshot fails its checks: the report does not hold
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
