package main

import (
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/plural"
	"github.com/leadgreen/greentokens/snapshots/build"
)

// Environment variables that override the upstream base URLs.
const (
	envLeaderboardURL = "GREENTOKENS_LEADERBOARD_URL"
	envGitHubAPI      = "GREENTOKENS_GITHUB_API_URL"
	envEmberURL       = "GREENTOKENS_EMBER_URL"
	envGitHubToken    = "GITHUB_TOKEN"
)

// defaultOut is the folder that holds the dated snapshots by default: a
// data folder, ignored by git, outside every Go package folder.
const defaultOut = "out"

func init() { register(newBuildCmd) }

// buildFlags are build's flags, all defined in define.
type buildFlags struct {
	date, retrieved, out    string
	from, fromLB, fromEmber string
	noGrid                  bool
	gridYear                int
	emberRelease            string
	replace                 bool
	allowRemoval            []string
	allowGridShrink         bool
	requireRevision         bool
	lbURL, apiURL, emberURL string
	allowHTTP               bool
	redirectHosts           []string
	retries                 int
	timeout, deadline       time.Duration
	maxJSONMiB, maxCSVMiB   int64
	lockTimeout             time.Duration
	logFormat               string
}

func (f *buildFlags) define(fs *pflag.FlagSet) {
	fs.StringVar(&f.date, "date", time.Now().UTC().Format(time.DateOnly), "data version, YYYY-MM-DD (the snapshot's folder name); at most a day ahead of today")
	fs.StringVar(&f.retrieved, "retrieved", "", "retrieval date, YYYY-MM-DD, where the sources carry none (required with --from*); not after --date")
	fs.StringVar(&f.out, "out", defaultOut, "folder that holds the dated snapshots")
	fs.StringVar(&f.from, "from", "", "build offline from `DIR`, a snapshot's sources/ folder (leaderboard/, ember/); rebuild takes a snapshot's other inputs from its manifest too")
	fs.StringVar(&f.fromLB, "from-leaderboard", "", "build offline, reading the leaderboard files from `DIR` (index.json, commits.json, tasks/) as upstream lays them out")
	fs.StringVar(&f.fromEmber, "from-ember", "", "build offline, reading Ember's yearly CSV from `FILE` (the July 2026 layout, release_generation_yearly_global.csv, or the long layout of earlier releases)")
	fs.BoolVar(&f.noGrid, "no-grid", false, "leave out the Ember stage (no grid.json)")
	fs.Var(yearValue{&f.gridYear}, "grid-year", "pin grid.json's reference `YEAR` (default: the latest complete year: World has a value and the countries with one number at least 90% of the year before's)")
	fs.StringVar(&f.emberRelease, "ember-release", "", "name of Ember's release, e.g. \"September 2026\" (the CSV does not carry it)")
	fs.BoolVar(&f.replace, "replace", false, "replace an existing snapshot of the same date whose content differs")
	fs.StringArrayVar(&f.allowRemoval, "allow-removal", nil, "let the build drop `NAME`, a model (slug or model id) or a task (id), which the latest earlier snapshot under --out has; repeatable")
	fs.BoolVar(&f.allowGridShrink, "allow-grid-shrink", false, "let grid.json lose more than 10% of the areas of the latest earlier snapshot's")
	fs.BoolVar(&f.requireRevision, "require-revision", false, "refuse to build (exit 2) unless this binary records an unmodified VCS revision, which the snapshot's generator then names (built from a git clone with -buildvcs=true: make build)")
	fs.StringVar(&f.lbURL, "leaderboard-url", envOr(envLeaderboardURL, fetch.DefaultLeaderboardBase), "base `URL` of the leaderboard's public/data/ (env "+envLeaderboardURL+")")
	fs.StringVar(&f.apiURL, "github-api-url", envOr(envGitHubAPI, fetch.DefaultGitHubAPI), "GitHub API base `URL` (env "+envGitHubAPI+")")
	fs.StringVar(&f.emberURL, "ember-url", envOr(envEmberURL, fetch.DefaultEmberURL), "`URL` of Ember's yearly CSV, in the July 2026 layout or the long one (pin "+fetch.LongEmberURL+" for the long one; env "+envEmberURL+")")
	fs.BoolVar(&f.allowHTTP, "allow-http", false, "allow plain http upstream URLs (https only by default)")
	fs.StringArrayVar(&f.redirectHosts, "allow-redirect-host", nil, "follow upstream redirects to `HOST` (host or host:port, as its URLs name it) too, not only to the URL's own host; repeatable")
	fs.IntVar(&f.retries, "retries", fetch.DefaultRetryMax, "retries per upstream file after the first attempt")
	fs.DurationVar(&f.timeout, "timeout", fetch.DefaultTimeout, "timeout of one HTTP request: the wait for its headers, and any stall in its body")
	fs.DurationVar(&f.deadline, "deadline", fetch.DefaultDeadline, "deadline on each whole download, retries and body included (the Ember CSV too)")
	fs.Int64Var(&f.maxJSONMiB, "max-json-mib", fetch.DefaultMaxBytes>>20, "size cap in MiB of each upstream JSON file, downloaded or local")
	fs.Int64Var(&f.maxCSVMiB, "max-csv-mib", fetch.DefaultMaxBytesCSV>>20, "size cap in MiB of Ember's CSV, downloaded or local")
	fs.DurationVar(&f.lockTimeout, "lock-timeout", 0, "give up (exit 6) when another build holds the output folder's lock this long (default: wait)")
	fs.StringVar(&f.logFormat, "log-format", "text", "log format: text or json")
	printDefault(fs, "date", "today (UTC)")
	printDefault(fs, "leaderboard-url", fetch.DefaultLeaderboardBase)
	printDefault(fs, "github-api-url", fetch.DefaultGitHubAPI)
	printDefault(fs, "ember-url", fetch.DefaultEmberURL)
}

func newBuildCmd(e *env) *cobra.Command {
	var f buildFlags
	cmd := &cobra.Command{
		Use:   "build [flags]",
		Short: "fetch the upstream files and write a validated snapshot to OUT/DATE/",
		Long: "Fetches the ML.ENERGY Leaderboard's task files (and Ember's yearly electricity CSV),\n" +
			"derives the model files, checks every one against its schema and an independent\n" +
			"recomputation, and only then writes OUT/DATE/ in one atomic step. Logs go to stderr.",
		Example: "  # today's snapshot from the real upstream, into out/DATE\n" +
			"  greentokens build --out out\n" +
			"  # the release job: JSON logs, and a binary that names its code\n" +
			"  greentokens build --out out --require-revision --log-format json\n" +
			"  # offline, from the repository's sample (make sample)\n" +
			"  greentokens build --out out --date 2026-09-27 --retrieved 2026-09-26 --grid-year 2024 \\\n" +
			"    --from-leaderboard testdata/upstream/leaderboard/2026-02-16-7885788 \\\n" +
			"    --from-ember testdata/upstream/ember/co2-intensity-long-format.csv",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			e.logErrors = true
			return runBuild(&f, e, time.Now())
		},
	}
	f.define(cmd.Flags())
	return cmd
}

func runBuild(f *buildFlags, e *env, now time.Time) error {
	limitMemory(checkerMemoryLimit)
	if err := setLogger(e, f.logFormat); err != nil {
		return err
	}
	if err := f.check(now); err != nil {
		return err
	}
	gen := build.ThisGenerator()
	if err := checkProvenance(e, gen, f.requireRevision); err != nil {
		return err
	}
	retries := f.retries
	if retries == 0 {
		retries = -1 // fetch reads 0 as "the default"; -1 is no retries
	}
	origins := fetch.Origins{LeaderboardBase: f.lbURL, GitHubAPI: f.apiURL, EmberURL: f.emberURL}
	var src fetch.Source
	if f.offline() {
		src = fetch.Dir{Root: f.from, Leaderboard: f.fromLB, Ember: f.fromEmber, Origins: origins,
			MaxBytes: f.maxJSONMiB << 20, MaxBytesCSV: f.maxCSVMiB << 20}
	} else {
		src = fetch.NewHTTP(fetch.HTTPOptions{
			Origins: origins, AllowHTTP: f.allowHTTP, RedirectHosts: f.redirectHosts, RetryMax: retries, Timeout: f.timeout, Deadline: f.deadline,
			MaxBytes: f.maxJSONMiB << 20, MaxBytesCSV: f.maxCSVMiB << 20,
			GitHubToken: os.Getenv(envGitHubToken), Logger: e.log,
		})
		if isTerminal(e.stderr) && f.logFormat == "text" {
			src = progressSource{Source: src, w: e.stderr, now: time.Now}
		}
	}

	if f.from != "" && f.gridYear == 0 && !f.noGrid {
		e.log.Warn("--from without --grid-year takes the latest complete year, which need not be the one the snapshot pinned; " +
			"greentokens rebuild DIR --out FOLDER takes every input from what the snapshot records")
	}
	res, err := build.Build(e.ctx, build.Options{
		Out: f.out, Date: f.date, Retrieved: f.retrieved, Source: src, Replace: f.replace, Logger: e.log, LockTimeout: f.lockTimeout,
		NoGrid: f.noGrid, GridYear: f.gridYear, EmberRelease: f.emberRelease,
		AllowRemoval: f.allowRemoval, AllowGridShrink: f.allowGridShrink, Generator: &gen,
	})
	if err != nil {
		return err
	}
	switch {
	case res.Unchanged:
		e.printf("%s: an identical snapshot is already there; nothing written\n", res.Dir)
	case res.Replaced:
		e.printf("%s: replaced (%s)\n", res.Dir, plural.Count(len(res.Manifest.Outputs), "file"))
	default:
		e.printf("%s: written (%s, %s)\n", res.Dir, plural.Count(len(res.Manifest.Outputs), "output"), plural.Count(len(res.Manifest.Sources), "source"))
	}
	return nil
}

// checkProvenance refuses, with requireRevision, a binary that records no
// unmodified VCS revision, before anything is fetched or written (a usage
// error: the binary, not the data, is wrong); without it, it warns once on
// stderr (the log, text or JSON) when the snapshot's generator will not
// name the code that builds it, saying what is missing and how to fix it.
func checkProvenance(e *env, gen format.Generator, requireRevision bool) error {
	const fix = "build the command from a git clone with -buildvcs=true (make build)"
	if missing := build.MissingRevision(gen); requireRevision && missing != "" {
		return usagef("--require-revision: this binary records %s; %s, then build again", missing, fix)
	}
	if missing := build.MissingProvenance(gen); missing != "" {
		e.log.Warn("this binary cannot name its code: the snapshot's generator will not say which code built it",
			"missing", missing, "fix", fix, "generator", gen.String())
	}
	return nil
}

// isHost reports whether h is a URL's host: a name (letters, digits, "-"
// and "."), an IPv4 address or a bracketed IPv6 one, and optionally ":" and
// a port from 1 to 65535. No wildcards: a host is matched as written.
func isHost(h string) bool {
	u, err := url.Parse("https://" + h)
	if err != nil || u.Host != h || u.Hostname() == "" {
		return false
	}
	if strings.HasSuffix(h, ":") {
		return false
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return false
		}
	}
	name := u.Hostname()
	if strings.HasPrefix(h, "[") {
		return net.ParseIP(name) != nil
	}
	for _, c := range name {
		if !(c == '-' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

func (f *buildFlags) offline() bool { return f.from != "" || f.fromLB != "" || f.fromEmber != "" }

// check refuses what cannot be right before anything is fetched: every
// finding is a usage error (exit 2).
func (f *buildFlags) check(now time.Time) error {
	if f.retries < 0 || f.timeout <= 0 || f.deadline <= 0 || f.lockTimeout < 0 || f.maxJSONMiB <= 0 || f.maxCSVMiB <= 0 {
		return usagef("--retries must be 0 or more, --timeout, --deadline, --max-json-mib and --max-csv-mib more than 0, --lock-timeout not negative")
	}
	if err := checkEmberRelease(f.emberRelease); err != nil {
		return err
	}
	for _, h := range f.redirectHosts {
		if !isHost(h) {
			return usagef("--allow-redirect-host %q is not a host: give it as a URL names it, e.g. cdn.example.org or cdn.example.org:8443", h)
		}
	}
	if err := checkDates(f.date, f.retrieved, now); err != nil {
		return err
	}
	if f.offline() {
		return f.checkLocal()
	}
	for _, u := range []struct{ flag, url string }{{"--leaderboard-url", f.lbURL}, {"--github-api-url", f.apiURL}, {"--ember-url", f.emberURL}} {
		if pu, err := url.Parse(u.url); err == nil && pu.Scheme == "http" && !f.allowHTTP {
			return usagef("%s %s is plain http; only https is fetched unless --allow-http is given", u.flag, pu.Redacted())
		}
	}
	return nil
}

// checkLocal checks the --from* paths.
func (f *buildFlags) checkLocal() error {
	switch {
	case f.from != "" && (f.fromLB != "" || f.fromEmber != ""):
		return usagef("--from reads every source from a snapshot's sources/ folder; give it alone, or --from-leaderboard DIR with --from-ember FILE")
	case f.from == "" && (f.fromLB == "" || (f.fromEmber == "" && !f.noGrid)):
		return usagef("an offline build reads every source locally: give --from DIR, or --from-leaderboard DIR with --from-ember FILE (or --no-grid)")
	case f.retrieved == "":
		return usagef("--from, --from-leaderboard and --from-ember need --retrieved: local files carry no retrieval date")
	}
	if f.from != "" {
		if !isFile(filepath.Join(f.from, filepath.FromSlash(fetch.LeaderboardIndex))) {
			return usagef("--from %s is not a sources folder (no %s in it): --from wants a snapshot's sources/ folder, e.g. %s",
				f.from, fetch.LeaderboardIndex, filepath.Join(defaultOut, "2026-09-27", "sources"))
		}
		return nil
	}
	if !isFile(filepath.Join(f.fromLB, "index.json")) {
		return usagef("--from-leaderboard %s is not a leaderboard folder (no index.json in it): it wants upstream's public/data/ layout (index.json, commits.json, tasks/); a snapshot's sources/ folder goes to --from", f.fromLB)
	}
	if f.fromEmber != "" && !isFile(f.fromEmber) {
		return usagef("--from-ember %s is not a file: it wants Ember's yearly CSV", f.fromEmber)
	}
	return nil
}

// checkDates refuses dates that cannot be true: a --date more than a day
// ahead of now, a --retrieved after --date. (build.Build refuses
// upstream data compiled after the retrieval date.)
func checkDates(date, retrieved string, now time.Time) error {
	d, err := time.Parse(time.DateOnly, date)
	if err != nil {
		return usagef("--date %q is not a YYYY-MM-DD date", date)
	}
	if d.After(now.UTC().AddDate(0, 0, 1)) {
		return usagef("--date %s is more than a day in the future (today is %s UTC)", date, now.UTC().Format(time.DateOnly))
	}
	if retrieved == "" {
		return nil
	}
	r, err := time.Parse(time.DateOnly, retrieved)
	if err != nil {
		return usagef("--retrieved %q is not a YYYY-MM-DD date", retrieved)
	}
	if r.After(d) {
		return usagef("--retrieved %s is after --date %s: a snapshot cannot hold data retrieved after its date", retrieved, date)
	}
	return nil
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}
