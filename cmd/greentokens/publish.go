package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"log/slog"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/internal/plural"
	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/snapshots/bucket"
	"github.com/leadgreen/greentokens/snapshots/build"
	"github.com/leadgreen/greentokens/snapshots/store"
	"github.com/leadgreen/greentokens/snapshots/verify"
)

func init() { register(newPublishCmd) }

// defaultPublishDeadline bounds a whole publish unless --deadline says
// otherwise.
const defaultPublishDeadline = 30 * time.Minute

type publishFlags struct {
	snapshot, to, site string
	// snapshotGiven is false when --snapshot is not given: the newest
	// snapshot under out is published.
	snapshotGiven   bool
	allowRemoval    []string
	allowGridShrink bool
	jobs            int
	deadline        time.Duration
	lockTimeout     time.Duration
	logFormat       string
}

func newPublishCmd(e *env) *cobra.Command {
	var f publishFlags
	cmd := &cobra.Command{
		Use:   "publish [--snapshot DIR] --to URL [flags]",
		Short: "publish a verified snapshot to a bucket: sources by content, write-once files, the pointers last",
		Long: "Publishes the snapshot folder DIR (" + defaultOut + "/DATE) to the bucket at URL: file:///PATH,\n" +
			"s3://BUCKET?endpoint=...&use_path_style=true&region=... (any S3-compatible store), gs://BUCKET,\n" +
			"azblob://CONTAINER (credentials from each cloud's own chain: environment, profile, workload\n" +
			"identity; a URL that carries a secret is refused), or mem:// (empty, in memory).\n" +
			"First it verifies DIR as verify does (every file against the manifest, the checker, a rebuild\n" +
			"from sources/), and compares it with the bucket's latest release before DATE as build compares\n" +
			"a build with the latest earlier snapshot (a model dropped, a grid shrunk: exit 6 unless\n" +
			"--allow-removal or --allow-grid-shrink allow it). Then it writes DATE/manifest.json, the\n" +
			"archived sources once by content (sources/sha256/HEX), the other files under DATE/ and the\n" +
			"site under DATE/site/, each written once: the same bytes again are a no-op, other bytes under\n" +
			"a published date are refused (exit 6) and nothing is changed. Every object is read back and\n" +
			"its sha256 checked before releases.json lists the release and latest.json names it (unless it\n" +
			"names a later date), each by a compare-and-swap. Run again after any failure, it completes\n" +
			"the release. Without --snapshot it publishes the newest snapshot under " + defaultOut + ", named on\n" +
			"stderr. Logs go to stderr.",
		Example: "  greentokens publish --to file:///srv/greentokens   # the newest snapshot under out\n" +
			"  greentokens publish --snapshot out/2026-09-27 --site /tmp/web --log-format json \\\n" +
			"    --to 's3://greentokens?endpoint=https://s3.example.org&use_path_style=true&region=auto'",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			e.logErrors = true
			f.snapshotGiven = cmd.Flags().Changed("snapshot")
			return runPublish(e, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.snapshot, "snapshot", "", "the snapshot folder `DIR` ("+defaultOut+"/DATE; a folder of snapshots for its newest); the newest under "+defaultOut+" when not given")
	_ = cmd.MarkFlagDirname("snapshot")
	fl.StringVar(&f.to, "to", "", "publish to the bucket at `URL` (file:///PATH, s3://, gs://, azblob://, mem://)")
	fl.StringVar(&f.site, "site", "", "publish the snapshot's website from `DIR` (greentokens site --out DIR) under DATE/site/")
	_ = cmd.MarkFlagDirname("site")
	fl.StringArrayVar(&f.allowRemoval, "allow-removal", nil, "let the release drop `MODEL` (slug or model id), which the bucket's latest release before it has; repeatable")
	fl.BoolVar(&f.allowGridShrink, "allow-grid-shrink", false, "let grid.json lose more than 10% of the areas of the bucket's latest release before it")
	fl.IntVar(&f.jobs, "jobs", bucket.DefaultJobs, "objects written or read at once")
	fl.DurationVar(&f.deadline, "deadline", defaultPublishDeadline, "deadline on the whole publish, the verification included")
	fl.DurationVar(&f.lockTimeout, "lock-timeout", 0, "give up (exit 6) when another publish holds a file:// bucket's lock this long (default: wait)")
	fl.StringVar(&f.logFormat, "log-format", "text", "log format: text or json")
	return cmd
}

func runPublish(e *env, f *publishFlags) error {
	limitMemory(checkerMemoryLimit)
	if err := setLogger(e, f.logFormat); err != nil {
		return err
	}
	if f.to == "" {
		return usagef("publish needs --to URL, the bucket to publish to")
	}
	if err := bucket.CheckURL(f.to); err != nil {
		return err
	}
	if f.snapshotGiven && isBucketURL(f.snapshot) {
		return usagef("--snapshot %s is a bucket's release; publish publishes a snapshot folder (%s/DATE)", f.snapshot, defaultOut)
	}
	ref, err := resolveSnapshot(e, "--snapshot", f.snapshot, f.snapshotGiven)
	if err != nil {
		return err
	}
	f.snapshot = ref.Name
	if f.site != "" {
		if err := checkFolder("--site", f.site); err != nil {
			return err
		}
	}
	if f.jobs <= 0 || f.deadline <= 0 || f.lockTimeout < 0 {
		return usagef("--jobs and --deadline must be more than 0, --lock-timeout not negative")
	}
	ctx, cancel := context.WithTimeout(e.ctx, f.deadline)
	defer cancel()
	defer logThrough(e.log)()
	err = publish(ctx, e, f)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded) && e.ctx.Err() == nil:
		return fmt.Errorf("%w: the publish passed its --deadline of %v; nothing more is written, the pointers are as they were or list the complete release; run it again to complete the release: %w",
			bucket.ErrStore, f.deadline, err)
	case errors.Is(err, bucket.ErrStore):
		return fmt.Errorf("%w; run the publish again to complete the release", err)
	}
	return err
}

func publish(ctx context.Context, e *env, f *publishFlags) error {
	rep, err := verify.Verify(ctx, regfile.DirFS(f.snapshot))
	switch {
	case err != nil && ctx.Err() != nil:
		return fmt.Errorf("%w: verifying %s: %w", failure.ErrInterrupted, f.snapshot, context.Cause(ctx))
	case err != nil:
		return fmt.Errorf("%w: %s could not be verified: %v", failure.ErrValidation, f.snapshot, err)
	case rep.Err() != nil:
		rep.WriteText(e.stderr)
		return fmt.Errorf("%s: %w; nothing published", f.snapshot, rep.Err())
	}
	rel, err := store.LoadDir(ctx, f.snapshot)
	if err != nil {
		return err
	}
	e.log.Info("verified", "snapshot", f.snapshot, "date", rel.ID.Date, "manifest_sha256", rel.ID.ManifestSHA256)

	b, err := bucket.Open(ctx, f.to, bucket.Options{Create: true, LockTimeout: f.lockTimeout, Logger: e.log})
	if err != nil {
		return err
	}
	defer b.Close()
	if err := guard(ctx, e, b, rel, f); err != nil {
		return err
	}
	var site fs.FS
	if f.site != "" {
		site = regfile.DirFS(f.site)
	}
	res, err := b.Publish(ctx, rel, bucket.PublishOptions{Site: site, Jobs: f.jobs})
	if err != nil {
		return err
	}
	latest := "latest.json names it"
	if res.Latest.Date != rel.ID.Date {
		latest = "latest.json names the later " + res.Latest.Date
	}
	name := b.Name(rel.ID.Date)
	if res.Written == 0 && !res.Listed && !res.Pointed {
		fmt.Fprintf(e.stdout, "%s: already published; nothing written (%s checked); %s\n", name, plural.Count(res.Present, "object"), latest)
		return nil
	}
	fmt.Fprintf(e.stdout, "%s: published (%s written, %d bytes; %s already there); %s\n", name,
		plural.Count(res.Written, "object"), res.Bytes, plural.Count(res.Present, "object"), latest)
	return nil
}

// logThrough sends what the standard log package prints (the AWS SDK's
// transfer manager prints to it) through the command's logger, as
// warnings, so that --log-format json logs JSON alone; the function it
// returns restores the package's writer.
func logThrough(l *slog.Logger) (restore func()) {
	w, flags := log.Writer(), log.Flags()
	log.SetOutput(logWriter{l})
	log.SetFlags(0)
	return func() {
		log.SetOutput(w)
		log.SetFlags(flags)
	}
}

type logWriter struct{ l *slog.Logger }

func (w logWriter) Write(p []byte) (int, error) {
	w.l.Warn(strings.TrimSpace(string(p)))
	return len(p), nil
}

// guard compares rel with the bucket's latest release before its date, as
// a build compares its stage with the latest earlier snapshot of its
// folder (build.Guard).
func guard(ctx context.Context, e *env, b *bucket.Bucket, rel *store.Release, f *publishFlags) error {
	date, err := store.LatestBefore(ctx, b, rel.ID.Date)
	if err != nil {
		return err
	}
	if date == "" {
		return nil
	}
	earlier := b.Name(date)
	old, err := store.Load(ctx, b.FS(date), earlier)
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		return fmt.Errorf("%w: the bucket's latest release before %s cannot be read to check for dropped models: %v", failure.ErrConflict, rel.ID.Date, err)
	}
	return build.Guard(ctx, old, rel, earlier, f.allowRemoval, f.allowGridShrink, e.log)
}
