package main

import (
	"fmt"

	"github.com/leadgreen/greentokens/snapshots"
)

func runDiff(args []string, e *env) error {
	fs := newFlags(e, "diff", "OLD NEW",
		"Reports what changed from the snapshot folder OLD to NEW, for a maintainer: the upstream\n"+
			"versions, compiled dates, commits and sha256 of the archived sources; models added and\n"+
			"removed; index rows (best[GPU]) that changed row or whose Wh/M moved, old -> new with the\n"+
			"relative change, largest first; configurations added, removed or changed, per model; grid\n"+
			"areas added, removed or changed. The first line is a summary. Figures are compared on the\n"+
			"unrounded upstream values: a change in rounding only is not a change.\n"+
			"Both folders must pass the manifest's size and sha256 checks (else exit 5). Exit 0 whether\n"+
			"or not anything changed.")
	asJSON := fs.Bool("json", false, "print a machine-readable report (JSON) instead of text")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usageError{fmt.Sprintf("diff takes two snapshot folders, OLD and NEW; got %d arguments", len(pos))}
	}
	old, err := snapshots.LoadContext(e.ctx, pos[0])
	if err != nil {
		return err
	}
	cur, err := snapshots.LoadContext(e.ctx, pos[1])
	if err != nil {
		return err
	}
	rep := snapshots.Diff(old, cur)
	if err := interrupted(e); err != nil {
		return err // the report is partial: print none
	}
	if *asJSON {
		return rep.WriteJSON(e.stdout)
	}
	return rep.WriteText(e.stdout)
}
