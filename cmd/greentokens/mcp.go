package main

import (
	"time"

	"github.com/leadgreen/greentokens/mcpserver"
)

func runMCP(args []string, e *env) error {
	fs := newFlags(e, "mcp", "",
		"Runs the MCP server over stdio (stdin and stdout carry the protocol; logs go to stderr),\n"+
			"answering from the dated snapshots under --snapshots that pass their manifest check.\n"+
			"Tools: list_models, get_model, list_grids, price_carbon.")
	dir := fs.String("snapshots", "", "folder `DIR` holding the dated snapshots (DIR/YYYY-MM-DD/)")
	rescan := fs.Duration("rescan", time.Minute, "how often to look for new snapshot folders (0: never)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *dir == "" || fs.NArg() > 0 {
		return usageError{"mcp needs --snapshots DIR and no arguments"}
	}
	if *rescan < 0 {
		return usageError{"--rescan must not be negative"}
	}
	return mcpserver.RunStdio(e.ctx, *dir, *rescan, e.log)
}
