package main

import (
	"net/http"
	"time"

	"github.com/leadgreen/greentokens/api"
	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/site"
)

func runServe(args []string, e *env) error {
	fs := newFlags(e, "serve", "",
		"Serves the dated snapshots under --snapshots over HTTP: the JSON API under /v1/ (documented\n"+
			"at /v1/openapi.json), the MCP server at /mcp, /healthz and /readyz, and the website\n"+
			"(greentokens site) of the latest snapshot at / and of each dated one at /DATE/. Only\n"+
			"snapshots that pass their manifest check are served; new dated folders are picked up\n"+
			"every --rescan.\n"+
			"SIGINT or SIGTERM stops it after the requests in flight (at most 10 s).")
	dir := fs.String("snapshots", "", "folder `DIR` holding the dated snapshots (DIR/YYYY-MM-DD/)")
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on, `HOST:PORT`")
	rescan := fs.Duration("rescan", time.Minute, "how often to look for new snapshot folders (0: never)")
	logFormat := fs.String("log-format", "text", "log format: text or json")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *dir == "" || fs.NArg() > 0 {
		return usageError{"serve needs --snapshots DIR and no arguments"}
	}
	if *rescan < 0 {
		return usageError{"--rescan must not be negative"}
	}
	if err := setLogger(e, *logFormat); err != nil {
		return err
	}
	return api.Serve(e.ctx, api.ServeOptions{Snapshots: *dir, Addr: *addr, Rescan: *rescan, Logger: e.log,
		Site: func(c *catalog.Catalog) http.Handler { return site.Sites(c, site.Options{}) }})
}
