package main

import (
	"fmt"
	"os"
	"time"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/snapshots"
)

// Environment variables that override the upstream base URLs.
const (
	envLeaderboardURL = "GREENTOKENS_LEADERBOARD_URL"
	envGitHubAPI      = "GREENTOKENS_GITHUB_API_URL"
	envEmberURL       = "GREENTOKENS_EMBER_URL"
	envGitHubToken    = "GITHUB_TOKEN"
)

func runBuild(args []string, e *env) error {
	fs := newFlags(e, "build", "",
		"Fetches the ML.ENERGY Leaderboard's task files (and Ember's yearly electricity CSV),\n"+
			"derives the model files, checks every one against its schema and an independent\n"+
			"recomputation, and only then writes OUT/DATE/ in one atomic step.")
	date := fs.String("date", time.Now().UTC().Format(time.DateOnly), "data version, YYYY-MM-DD (the snapshot's folder name)")
	retrieved := fs.String("retrieved", "", "retrieval date, YYYY-MM-DD, where the sources carry none (required with --from)")
	out := fs.String("out", "snapshots", "folder that holds the dated snapshots")
	from := fs.String("from", "", "build offline from `DIR`, laid out like a snapshot's sources/ folder")
	fromLB := fs.String("from-leaderboard", "", "build offline, reading the leaderboard files from `DIR` (index.json, commits.json, tasks/) as upstream lays them out")
	fromEmber := fs.String("from-ember", "", "build offline, reading Ember's yearly long-format CSV from `FILE`")
	noGrid := fs.Bool("no-grid", false, "leave out the Ember stage (no grid.json)")
	gridYear := fs.Int("grid-year", 0, "pin grid.json's reference `YEAR` (default: the latest complete year: World has a value and the countries with one number at least 90% of the year before's)")
	emberRelease := fs.String("ember-release", "", "name of Ember's release, e.g. \"September 2026\" (the CSV does not carry it)")
	replace := fs.Bool("replace", false, "replace an existing snapshot of the same date whose content differs")
	var allowRemoval stringList
	fs.Var(&allowRemoval, "allow-removal", "let the build drop `MODEL` (slug or model id), which the latest earlier snapshot under --out has; repeatable")
	allowGridShrink := fs.Bool("allow-grid-shrink", false, "let grid.json lose more than 10% of the areas of the latest earlier snapshot's")
	lbURL := fs.String("leaderboard-url", envOr(envLeaderboardURL, fetch.DefaultLeaderboardBase), "base `URL` of the leaderboard's public/data/ (env "+envLeaderboardURL+")")
	apiURL := fs.String("github-api-url", envOr(envGitHubAPI, fetch.DefaultGitHubAPI), "GitHub API base `URL` (env "+envGitHubAPI+")")
	emberURL := fs.String("ember-url", envOr(envEmberURL, fetch.DefaultEmberURL), "`URL` of Ember's yearly long-format CSV (env "+envEmberURL+")")
	allowHTTP := fs.Bool("allow-http", false, "allow plain http upstream URLs (https only by default)")
	retries := fs.Int("retries", 4, "retries per upstream file after the first attempt")
	timeout := fs.Duration("timeout", 60*time.Second, "timeout of one HTTP request: the wait for its headers, and any stall in its body")
	deadline := fs.Duration("deadline", fetch.DefaultDeadline, "deadline on each whole download, retries and body included (the Ember CSV too)")
	maxJSON := fs.Int64("max-json-mib", fetch.DefaultMaxBytes>>20, "size cap in MiB of each upstream JSON file, downloaded or local")
	maxCSV := fs.Int64("max-csv-mib", fetch.DefaultMaxBytesCSV>>20, "size cap in MiB of Ember's CSV, downloaded or local")
	lockTimeout := fs.Duration("lock-timeout", 0, "give up (exit 6) when another build holds the output folder's lock this long (default: wait)")
	logFormat := fs.String("log-format", "text", "log format: text or json")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("build takes no arguments, got %q", fs.Args())}
	}
	if err := setLogger(e, *logFormat); err != nil {
		return err
	}
	if *retries < 0 || *timeout <= 0 || *deadline <= 0 || *lockTimeout < 0 || *maxJSON <= 0 || *maxCSV <= 0 {
		return usageError{"--retries must be 0 or more, --timeout, --deadline, --max-json-mib and --max-csv-mib more than 0, --lock-timeout not negative"}
	}
	if err := plainText("ember-release", *emberRelease); err != nil {
		return err
	}
	if *retries == 0 {
		*retries = -1 // fetch reads 0 as "the default"; -1 is no retries
	}
	offline := *from != "" || *fromLB != "" || *fromEmber != ""
	if offline && *from == "" && ((*fromLB == "") || (*fromEmber == "" && !*noGrid)) {
		return usageError{"an offline build reads every source locally: give --from DIR, or --from-leaderboard DIR with --from-ember FILE (or --no-grid)"}
	}
	origins := fetch.Origins{LeaderboardBase: *lbURL, GitHubAPI: *apiURL, EmberURL: *emberURL}
	var src fetch.Source
	if offline {
		if *retrieved == "" {
			return usageError{"--from, --from-leaderboard and --from-ember need --retrieved: local files carry no retrieval date"}
		}
		src = fetch.Dir{Root: *from, Leaderboard: *fromLB, Ember: *fromEmber, Origins: origins,
			MaxBytes: *maxJSON << 20, MaxBytesCSV: *maxCSV << 20}
	} else {
		src = fetch.NewHTTP(fetch.HTTPOptions{
			Origins: origins, AllowHTTP: *allowHTTP, RetryMax: *retries, Timeout: *timeout, Deadline: *deadline,
			MaxBytes: *maxJSON << 20, MaxBytesCSV: *maxCSV << 20,
			GitHubToken: os.Getenv(envGitHubToken), Logger: e.log,
		})
		if isTerminal(e.stderr) && *logFormat == "text" {
			src = progressSource{Source: src, w: e.stderr, now: time.Now}
		}
	}

	res, err := snapshots.Build(e.ctx, snapshots.BuildOptions{
		Out: *out, Date: *date, Retrieved: *retrieved, Source: src, Replace: *replace, Logger: e.log, LockTimeout: *lockTimeout,
		NoGrid: *noGrid, GridYear: *gridYear, EmberRelease: *emberRelease,
		AllowRemoval: allowRemoval, AllowGridShrink: *allowGridShrink,
	})
	if err != nil {
		return err
	}
	switch {
	case res.Unchanged:
		fmt.Fprintf(e.stdout, "%s: an identical snapshot is already there; nothing written\n", res.Dir)
	case res.Replaced:
		fmt.Fprintf(e.stdout, "%s: replaced (%d files)\n", res.Dir, len(res.Manifest.Outputs))
	default:
		fmt.Fprintf(e.stdout, "%s: written (%d outputs, %d sources)\n", res.Dir, len(res.Manifest.Outputs), len(res.Manifest.Sources))
	}
	return nil
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}
