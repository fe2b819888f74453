package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"

	"github.com/leadgreen/greentokens/internal/failure"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/leadgreen/greentokens/fetch"

	"github.com/leadgreen/greentokens/snapshots/verify"
)

func init() { register(newVerifyCmd) }

// upstreamFlags are verify --upstream's: where the sources are fetched
// again from, over https unless --allow-http.
type upstreamFlags struct {
	on                      bool
	lbURL, apiURL, emberURL string
	allowHTTP               bool
}

func (f *upstreamFlags) define(fs *pflag.FlagSet) {
	fs.BoolVar(&f.on, "upstream", false, "fetch each archived source again (the leaderboard's files at the commit the manifest records, Ember's CSV at its recorded URL) and compare its sha256; needs the network")
	fs.StringVar(&f.lbURL, "leaderboard-url", fetch.LeaderboardAtCommit, "with --upstream: base `URL` of the leaderboard's public/data/ at a commit, "+fetch.CommitPlaceholder+" standing for the one the manifest records")
	fs.StringVar(&f.apiURL, "github-api-url", fetch.DefaultGitHubAPI, "with --upstream: GitHub API base `URL`, for the list of commits from the recorded one")
	fs.StringVar(&f.emberURL, "ember-url", "", "with --upstream: `URL` of Ember's yearly CSV (default: the URL the manifest records)")
	fs.BoolVar(&f.allowHTTP, "allow-http", false, "with --upstream: allow plain http URLs (https only by default)")
}

// check refuses the --upstream flags without --upstream, and plain http
// without --allow-http.
func (f *upstreamFlags) check(fs *pflag.FlagSet) error {
	if !f.on {
		for _, name := range []string{"leaderboard-url", "github-api-url", "ember-url", "allow-http"} {
			if fs.Changed(name) {
				return usagef("--%s is an option of --upstream; give --upstream too", name)
			}
		}
		return nil
	}
	for _, u := range []struct{ flag, url string }{{"--leaderboard-url", f.lbURL}, {"--github-api-url", f.apiURL}, {"--ember-url", f.emberURL}} {
		if pu, err := url.Parse(u.url); err == nil && pu.Scheme == "http" && !f.allowHTTP {
			return usagef("%s %s is plain http; only https is fetched unless --allow-http is given", u.flag, pu.Redacted())
		}
	}
	return nil
}

func newVerifyCmd(e *env) *cobra.Command {
	var asJSON bool
	var up upstreamFlags
	cmd := &cobra.Command{
		Use:   "verify [--json] [--upstream] [DIR | URL/DATE]",
		Short: "check a snapshot offline: manifest, schemas, and a rebuild from its sources/",
		Long: "Checks the snapshot folder DIR (" + defaultOut + "/DATE) offline, from the folder alone: every file's\n" +
			"size and sha256 against manifest.json (a missing, extra or changed file is named), every\n" +
			"output against its JSON Schema and its independent recomputation, and a rebuild of the whole\n" +
			"snapshot from the archived sources/, compared byte for byte with what is stored as it is\n" +
			"written (only a file that differs is written, to a temporary folder; a JSON file that\n" +
			"differs is shown value by value: row and field, stored -> rebuilt).\n" +
			"It says which code built the snapshot (the manifest's generator) and which code is verifying;\n" +
			"when they differ it still verifies, and prints the command that verifies with the code that\n" +
			"built it, through the module proxy and from a git clone. Nothing is written into DIR.\n" +
			"DIR may be a folder of dated snapshots (" + defaultOut + ": its newest), and a bucket's release is verified\n" +
			"the same way from the bucket alone: URL/DATE, or URL/latest for the release latest.json names\n" +
			"(publish's URLs), its sources read by content, its manifest held to releases.json's sha256.\n" +
			"With --upstream it also fetches each archived source again, the leaderboard's files at the\n" +
			"commit the manifest records and Ember's CSV at its recorded URL (which each Ember release\n" +
			"overwrites: a difference there may be upstream's change since retrieval), and compares sha256.\n" +
			"Exit 0 only when all of it holds; 5 when anything fails; 3 when only the fetch from upstream did.\n" +
			"Without DIR it verifies the newest snapshot under " + defaultOut + " (" + defaultOut + "/DATE, the latest date), and says which on stderr.\n" +
			"The checks and the rebuild run at once, under a soft memory limit of " + strconv.Itoa(checkerMemoryLimit>>20) + " MiB (the checker\n" +
			"decodes each file whole; build and rebuild run under it too, the other commands under " + strconv.Itoa(defaultMemoryLimit>>20) + " MiB);\n" +
			"the garbage collector works harder near it, and a GOMEMLIMIT in the environment replaces it.",
		Example: "  greentokens verify                       # the newest snapshot under out\n" +
			"  greentokens verify out/2026-09-27\n" +
			"  greentokens verify --json out/2026-09-27\n" +
			"  greentokens verify --upstream out/2026-09-27  # and each source fetched again from upstream",
		Args:              maxArgs(1, "one snapshot folder or release URL"),
		ValidArgsFunction: completeDirs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := up.check(cmd.Flags()); err != nil {
				return err
			}
			ref, err := argOrNewest(e, "verify", args)
			if err != nil {
				return err
			}
			return runVerify(e, ref, asJSON, &up)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a machine-readable report (JSON) instead of text")
	up.define(cmd.Flags())
	return cmd
}

// runVerify verifies the release ref names.
func runVerify(e *env, ref *snapshotRef, asJSON bool, up *upstreamFlags) error {
	limitMemory(checkerMemoryLimit)
	dir, fsys := ref.Name, reproducible(ref)
	rep, err := verify.Verify(e.ctx, fsys)
	if err == nil && up.on {
		err = rep.CheckUpstream(e.ctx, fsys, verify.UpstreamOptions{HTTP: fetch.HTTPOptions{
			Origins:   fetch.Origins{LeaderboardBase: up.lbURL, GitHubAPI: up.apiURL, EmberURL: up.emberURL},
			AllowHTTP: up.allowHTTP, GitHubToken: os.Getenv(envGitHubToken),
		}})
	}
	switch {
	case errors.Is(err, failure.ErrInterrupted), errors.Is(err, context.Canceled):
		return fmt.Errorf("%w: verify %s did not finish: %w", failure.ErrInterrupted, dir, err)
	case err != nil:
		// What could not be checked is not verified: exit 5, not 1.
		return fmt.Errorf("%w: %s could not be verified: %v", failure.ErrValidation, dir, err)
	}
	if asJSON {
		err = rep.WriteJSON(e.stdout)
	} else {
		err = rep.WriteText(e.stdout)
	}
	if err != nil {
		return err
	}
	return rep.Err()
}
