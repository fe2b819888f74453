package main

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/mcpserver"
)

func init() { register(newMCPCmd) }

func newMCPCmd(e *env) *cobra.Command {
	var dir string
	var rescan time.Duration
	cmd := &cobra.Command{
		Use:   "mcp --snapshots (DIR | URL) [flags]",
		Short: "run the MCP server over stdio",
		Long: "Runs the MCP server over stdio (stdin and stdout carry the protocol; logs go to stderr),\n" +
			"answering from the dated snapshots under --snapshots that pass their manifest check (a folder,\n" +
			"or a bucket's URL: the releases its releases.json lists, as serve reads them).\n" +
			"Tools: list_models, get_model, list_grids, price_carbon.",
		Example: "  greentokens mcp --snapshots out\n" +
			"  # in an assistant's configuration (Claude Desktop):\n" +
			"  #   {\"mcpServers\": {\"greentokens\": {\"command\": \"greentokens\", \"args\": [\"mcp\", \"--snapshots\", \"/path/to/out\"]}}}",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkSnapshotsFlags(cmd, dir, rescan); err != nil {
				return err
			}
			e.logErrors = true
			st, err := openStore(e, dir)
			if err != nil {
				return err
			}
			// The server's version is what `greentokens version` prints.
			return mcpserver.RunStdio(e.ctx, catalog.NewStore(st, e.log), rescan, cmd.Root().Version)
		},
	}
	snapshotsFlags(cmd, &dir, &rescan)
	return cmd
}
