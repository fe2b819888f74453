package main

import (
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/leadgreen/greentokens/api"
	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/mcpserver"
	"github.com/leadgreen/greentokens/site"
)

func init() { register(newServeCmd) }

func newServeCmd(e *env) *cobra.Command {
	var dir, addr, logFormat string
	var allowOrigins []string
	var rescan time.Duration
	cmd := &cobra.Command{
		Use:   "serve --snapshots (DIR | URL) [flags]",
		Short: "serve the snapshots over HTTP: the JSON API, the MCP server at /mcp",
		Long: "Serves the dated snapshots under --snapshots over HTTP: the JSON API under /v1/ (documented\n" +
			"at /v1/openapi.json), the MCP server at /mcp, /healthz and /readyz, and the website\n" +
			"(greentokens site) of the latest snapshot at / and of each dated one at /DATE/. Only\n" +
			"snapshots that pass their manifest and schema checks are served, each from one copy held in\n" +
			"memory; new dated folders are picked up every --rescan. A served date is immutable: a folder\n" +
			"replaced or changed on disk is logged and its first copy served until restart.\n" +
			"--snapshots may be a bucket's URL (publish's): its releases are the ones releases.json lists,\n" +
			"each read from the bucket and checked as a folder is, and every --rescan reads releases.json\n" +
			"alone, loading only a release whose manifest sha256 it has not served.\n" +
			"SIGINT or SIGTERM stops it after the requests in flight (at most 10 s), with exit 0: a\n" +
			"server asked to stop has not failed. Logs go to stderr.",
		Example: "  greentokens serve --snapshots out\n" +
			"  greentokens serve --snapshots out --addr 127.0.0.1:9090 --log-format json --rescan 5m",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkSnapshotsFlags(cmd, dir, rescan); err != nil {
				return err
			}
			if err := setLogger(e, logFormat); err != nil {
				return err
			}
			if _, err := mcpserver.Allow(addr, allowOrigins); err != nil {
				return usagef("%v", err)
			}
			e.logErrors = true
			st, err := openStore(e, dir)
			if err != nil {
				return err
			}
			return api.Serve(e.ctx, api.ServeOptions{Catalog: catalog.NewStore(st, e.log), Addr: addr, Rescan: rescan, Logger: e.log, AllowOrigins: allowOrigins,
				Version: cmd.Root().Version, // what `greentokens version` prints
				Site:    func(c *catalog.Catalog) http.Handler { return site.Sites(c, site.Options{Logger: e.log}) }})
		},
	}
	snapshotsFlags(cmd, &dir, &rescan)
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on, `HOST:PORT`")
	cmd.Flags().StringVar(&logFormat, "log-format", "text", "log format: text or json")
	cmd.Flags().StringSliceVar(&allowOrigins, "allow-origin", nil, "host `NAME` or origin (https://host[:port]) that /mcp accepts in Host and Origin, beside the loopback names and the --addr host; repeatable")
	return cmd
}

// snapshotsFlags defines --snapshots DIR and --rescan, of the commands that
// serve a store of dated snapshots.
func snapshotsFlags(cmd *cobra.Command, dir *string, rescan *time.Duration) {
	cmd.Flags().StringVar(dir, "snapshots", "", "folder `DIR` holding the dated snapshots (DIR/YYYY-MM-DD/), or a bucket's URL (its releases.json)")
	_ = cmd.MarkFlagDirname("snapshots")
	cmd.Flags().DurationVar(rescan, "rescan", time.Minute, "how often to look for new snapshot folders, or read a bucket's releases.json again (0: never)")
}

// checkSnapshotsFlags wants --snapshots and a --rescan that is not negative.
func checkSnapshotsFlags(cmd *cobra.Command, dir string, rescan time.Duration) error {
	if dir == "" {
		return usagef("%s needs --snapshots DIR and no arguments", cmd.Name())
	}
	if rescan < 0 {
		return usagef("--rescan must not be negative")
	}
	return checkStore(dir)
}
