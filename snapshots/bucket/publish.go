package bucket

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sync/atomic"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/crashtest"
	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/snapshots/store"
)

// DefaultJobs is how many objects a publish writes or reads at once,
// unless PublishOptions.Jobs says otherwise.
const DefaultJobs = 8

// PublishOptions say what a publish writes besides the release.
type PublishOptions struct {
	// Site is the release's website (greentokens site), written under
	// DATE/site/; nil: none.
	Site fs.FS
	// Jobs is how many objects are written or read at once (0:
	// DefaultJobs).
	Jobs int
}

// Result says what a publish did.
type Result struct {
	// Release is the release published.
	Release format.Release
	// Written counts the objects this publish wrote, Present those that
	// were in the bucket already (an earlier publish of the same release,
	// a source another release archived), Bytes the bytes it wrote.
	Written, Present int
	Bytes            int64
	// Listed is true when this publish added the release to releases.json
	// (false: it was listed already).
	Listed bool
	// Latest is the release latest.json names after the publish: this
	// one, or a later one already published; Pointed is true when this
	// publish wrote latest.json.
	Latest  format.Release
	Pointed bool
}

// object is one object of a release to publish.
type object struct {
	key  string
	path string // the file's slash path in the release, or in the site
	site bool
	size int64
	sum  string // sha256, lower-case hex
	// contentType is its Content-Type (its Cache-Control is
	// CacheImmutable).
	contentType string
	// open opens its local bytes.
	open func() (fs.File, error)
}

// name is the object as messages name it.
func (o *object) name(b *Bucket) string { return b.name + "/" + o.key }

// Publish publishes rel, a release read from a local folder
// (store.LoadDir; the caller has checked it), into the bucket, and
// opts.Site under DATE/site/, in this order:
//
//  1. releases.json is read: a release of the same date with another
//     manifest is a failure.ErrConflict;
//  2. DATE/manifest.json is written, if absent (IfNotExist): the claim to
//     the date. When it is there with other bytes the date is another
//     release's: a failure.ErrConflict, and nothing is written;
//  3. every object of the release already in the bucket is read and its
//     sha256 checked (a rerun, a source another release archived);
//     other bytes are a failure.ErrConflict, before anything else is
//     written;
//  4. every other object is written, IfNotExist: the archived sources by
//     content (sources/sha256/HEX), the outputs under DATE/, the site
//     under DATE/site/, each with its Content-Type and an immutable
//     Cache-Control;
//  5. each written object is read back and its sha256 checked, the
//     release's files through FS(date), as a reader reads them;
//  6. releases.json lists the release, then latest.json names it unless
//     it names a later date, each by a compare-and-swap on the version
//     read, merged again when another publisher won.
//
// A publish that stops anywhere leaves the pointers as they were (or
// releases.json listing the complete release, without latest.json yet),
// and run again it completes the release. A file:// bucket is published
// under its folder's lock (store.LockFolder), as its driver's IfNotExist
// is not atomic between processes.
func (b *Bucket) Publish(ctx context.Context, rel *store.Release, opts PublishOptions) (*Result, error) {
	if b.dir != "" {
		lock, err := store.LockFolder(ctx, b.dir, b.lockTimeout, func(holder string) {
			b.log.Info("waiting for another publish to give up the lock", "folder", b.dir, "holder", holder)
		})
		if err != nil {
			return nil, err
		}
		failed := true
		defer func() { lock.Release(failed) }()
		res, err := b.publish(ctx, rel, opts)
		failed = err != nil
		return res, err
	}
	return b.publish(ctx, rel, opts)
}

func (b *Bucket) publish(ctx context.Context, rel *store.Release, opts PublishOptions) (*Result, error) {
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = DefaultJobs
	}
	id, date := rel.ID, rel.ID.Date
	res := &Result{Release: id}
	b.log.Info("publishing", "release", b.Name(date), "manifest_sha256", id.ManifestSHA256)

	rels, _, err := b.readReleases(ctx)
	if err != nil {
		return nil, conflictIfInvalid(err)
	}
	for _, r := range rels.Releases {
		if r.Date == date && r.ManifestSHA256 != id.ManifestSHA256 {
			return nil, fmt.Errorf("%w: %s is published with the manifest sha256 %s, not this snapshot's %s; nothing written",
				failure.ErrConflict, b.Name(date), r.ManifestSHA256, id.ManifestSHA256)
		}
	}
	manifest, objs, err := b.plan(rel, opts.Site)
	if err != nil {
		return nil, err
	}

	// The claim: the date is this release's, or another's and nothing is
	// written.
	claimed, err := b.put(ctx, manifest)
	if errors.Is(err, errOther) {
		return nil, fmt.Errorf("%w: %s is another release of %s (its manifest differs from this snapshot's, sha256 %s); nothing written",
			failure.ErrConflict, b.Name(date), date, id.ManifestSHA256)
	}
	if err != nil {
		return nil, err
	}
	if claimed {
		res.Written, res.Bytes = 1, manifest.size
		crashtest.Kill(crashtest.Claimed)
	} else {
		res.Present = 1
	}
	fsys := b.releaseFS(date, id.ManifestSHA256)

	// What is there already is checked before anything more is written.
	present, err := b.present(ctx, date, objs)
	if err != nil {
		return nil, err
	}
	var absent []*object
	err = each(ctx, jobs, len(objs), func(ctx context.Context, i int) error {
		if !present[objs[i].key] {
			return nil
		}
		return b.check(ctx, fsys, objs[i], "is in the bucket with other bytes; nothing more is written")
	})
	if err != nil {
		return nil, err
	}
	for _, o := range objs {
		if !present[o.key] {
			absent = append(absent, o)
		}
	}
	res.Present += len(objs) - len(absent)

	var written, sent atomic.Int64
	wrote := make([]bool, len(absent))
	err = each(ctx, jobs, len(absent), func(ctx context.Context, i int) error {
		o := absent[i]
		w, err := b.put(ctx, o)
		if errors.Is(err, errOther) {
			return fmt.Errorf("%w: %s was written meanwhile with other bytes than %s's; nothing more is written",
				failure.ErrConflict, o.name(b), o.path)
		}
		if err != nil {
			return err
		}
		if w {
			wrote[i] = true
			sent.Add(o.size)
			crashtest.KillAfter(crashtest.Uploaded, int(written.Add(1)))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	res.Written += int(written.Load())
	res.Present += len(absent) - int(written.Load())
	res.Bytes += sent.Load()
	b.log.Info("written", "release", b.Name(date), "objects_written", res.Written, "objects_present", res.Present, "bytes_written", res.Bytes)

	// Read back what this publish wrote (what was there is checked above),
	// the release's files through its FS, as a reader reads them.
	var back []*object
	if claimed {
		back = append(back, manifest)
	}
	for i, o := range absent {
		if wrote[i] {
			back = append(back, o)
		}
	}
	if err := each(ctx, jobs, len(back), func(ctx context.Context, i int) error {
		return b.check(ctx, fsys, back[i], "does not read back as written")
	}); err != nil {
		return nil, err
	}
	b.log.Info("read back", "release", b.Name(date), "objects", len(back))
	crashtest.Kill(crashtest.ReadBack)

	if res.Listed, err = b.list(ctx, id); err != nil {
		return nil, err
	}
	crashtest.Kill(crashtest.Listed)
	if res.Latest, res.Pointed, err = b.point(ctx, id); err != nil {
		return nil, err
	}
	crashtest.Kill(crashtest.Pointed)
	b.log.Info("published", "release", b.Name(date), "listed", res.Listed, "latest", res.Latest.Date)
	return res, nil
}
