package bucket

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"cloud.google.com/go/storage"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/container"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/snapshots/store"
)

// ErrStore: the bucket could not be read or written (a dropped
// connection, errors from the store after the driver's retries, a
// deadline passed). Nothing it leaves half done is visible to a reader:
// the pointers are written last, and a publish run again completes what
// it started.
var ErrStore = errors.New("bucket unavailable")

// DefaultReadTimeout bounds each object a Bucket reads, unless
// Options.ReadTimeout says otherwise.
const DefaultReadTimeout = 10 * time.Minute

// MaxManifestBytes bounds a release's manifest.json read from a bucket,
// and any object of a release that its manifest does not list.
const MaxManifestBytes = 64 << 20

// maxPointerBytes bounds releases.json and latest.json read from a bucket
// (releases.json grows by about 90 bytes a release).
const maxPointerBytes = 16 << 20

// Options say how a bucket is opened.
type Options struct {
	// ReadTimeout bounds each object read, from its opening to its last
	// byte (0: DefaultReadTimeout), within the context Open was given.
	ReadTimeout time.Duration
	// Create makes the folder of a file:// bucket when it is missing (a
	// publish does); a reader never creates one.
	Create bool
	// LockTimeout is how long a publish to a file:// bucket waits for
	// another to give up the folder's lock (0: as long as it takes; a
	// failure.ErrConflict past it).
	LockTimeout time.Duration
	// Logger receives a publish's progress; nil discards it.
	Logger *slog.Logger
}

// driverKind is how a bucket's driver writes a pointer conditionally.
type driverKind int

const (
	// local: memblob and fileblob, which have no conditional overwrite:
	// a pointer is compared and written under the bucket's mutex (and,
	// for a folder, the folder's lock, held by the whole publish).
	local     driverKind = iota
	kindS3               // If-Match on the ETag read, If-None-Match: * for a new object
	kindGCS              // a generation precondition, DoesNotExist for a new object
	kindAzure            // If-Match on the ETag read, If-None-Match: * for a new object
)

// Bucket is a bucket of releases, opened through gocloud.dev/blob: a
// store.Store whose Entries are releases.json's and whose FS(date) is the
// release under DATE/, its archived sources read by content; and the
// publisher of a release into it (Publish). It is safe for concurrent
// use. Every read is bounded by the context Open was given, by
// Options.ReadTimeout, and by the size the release's manifest lists (or
// MaxManifestBytes).
type Bucket struct {
	bb          *blob.Bucket
	name        string // the bucket as messages name it
	kind        driverKind
	dir         string // the folder of a file:// bucket, for its lock
	prefix      string // its prefix parameter: the keys' folder in it
	ctx         context.Context
	readTimeout time.Duration
	lockTimeout time.Duration
	log         *slog.Logger

	// mu makes the local drivers' pointer writes compare-and-swap.
	mu sync.Mutex

	listedMu sync.Mutex
	// listed are the manifests' sha256 of the releases releases.json
	// listed when it was last read or written, by date: FS(date) holds a
	// release's manifest to it.
	listed map[string]string
}

var _ store.Store = (*Bucket)(nil)

// Open opens the bucket at the URL raw, one of Schemes, through
// gocloud.dev/blob's URL opener of its scheme (credentials from that
// cloud's own chain: environment, profile, workload identity). A URL that
// carries a secret, another scheme, or a path on a cloud bucket's URL is a
// usage error (failure.ErrUsage), which never prints a query parameter's
// value. ctx bounds every read and write of the Bucket.
func Open(ctx context.Context, raw string, opts Options) (*Bucket, error) {
	u, err := checkURL(raw)
	if err != nil {
		return nil, err
	}
	dir := ""
	if u.Scheme == "file" {
		if u.Host != "" && u.Host != "localhost" {
			return nil, fmt.Errorf("%w: the bucket URL %s names a host; a folder is file:///PATH", failure.ErrUsage, display(u))
		}
		dir = u.Path
		if opts.Create {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, fmt.Errorf("%w: making the bucket's folder %s: %v", failure.ErrConflict, dir, err)
			}
		}
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("%w: the bucket URL %s: no such folder", failure.ErrUsage, display(u))
		}
	}
	bb, err := blob.OpenBucket(ctx, raw)
	if err != nil {
		return nil, fmt.Errorf("%w: opening the bucket %s: %v", failure.ErrUsage, display(u), err)
	}
	b := New(ctx, bb, display(u), opts)
	b.dir, b.prefix = dir, u.Query().Get("prefix")
	return b, nil
}

// OpenRelease opens the bucket of a release's URL, URL/DATE or URL/latest
// (SplitRelease), and resolves the release it names (Release): FS of its
// date is then held to the manifest sha256 it returns. A release that is
// not published is a failure.ErrUsage.
func OpenRelease(ctx context.Context, raw string, opts Options) (*Bucket, format.Release, error) {
	bucketURL, name, err := SplitRelease(raw)
	if err != nil {
		return nil, format.Release{}, err
	}
	b, err := Open(ctx, bucketURL, opts)
	if err != nil {
		return nil, format.Release{}, err
	}
	rel, err := b.Release(ctx, name)
	if err != nil {
		b.Close()
		return nil, format.Release{}, err
	}
	return b, rel, nil
}

// New makes a Bucket of a bucket opened by the caller (memblob's, in a
// test), named name in messages. A bucket whose driver is not S3's,
// Google Cloud Storage's or Azure's is taken to be one process's: its
// pointers are compared and written under the Bucket's mutex, so that
// publishers through one Bucket take turns (a folder must be opened with
// Open, which takes its lock too).
func New(ctx context.Context, bb *blob.Bucket, name string, opts Options) *Bucket {
	b := &Bucket{bb: bb, name: name, ctx: ctx, readTimeout: opts.ReadTimeout, lockTimeout: opts.LockTimeout,
		log: opts.Logger, listed: map[string]string{}}
	if b.readTimeout <= 0 {
		b.readTimeout = DefaultReadTimeout
	}
	if b.log == nil {
		b.log = slog.New(slog.DiscardHandler)
	}
	var s3c *s3.Client
	var gcs *storage.Client
	var az *container.Client
	switch {
	case bb.As(&s3c):
		b.kind = kindS3
	case bb.As(&gcs):
		b.kind = kindGCS
	case bb.As(&az):
		b.kind = kindAzure
	}
	return b
}

// Close closes the bucket.
func (b *Bucket) Close() error { return b.bb.Close() }

// String names the bucket in messages: its URL without the query but
// for the prefix.
func (b *Bucket) String() string { return b.name }

// Name names the release of date in messages: the bucket, then /DATE.
func (b *Bucket) Name(date string) string { return b.name + "/" + date }

// Entries lists the releases releases.json lists, by ascending date (none
// when the bucket has no releases.json), each with the manifest sha256 it
// lists. A releases.json that does not
// decode, or breaks its rules (schemas/releases.schema.json), is an error
// wrapping failure.ErrValidation.
func (b *Bucket) Entries(ctx context.Context) ([]store.Entry, error) {
	rels, _, err := b.readReleases(ctx)
	if err != nil {
		return nil, err
	}
	entries := make([]store.Entry, len(rels.Releases))
	for i, r := range rels.Releases {
		entries[i] = store.Entry{Date: r.Date, ManifestSHA256: r.ManifestSHA256}
	}
	return entries, nil
}

// Releases returns releases.json (an empty list when the bucket has none).
func (b *Bucket) Releases(ctx context.Context) (*format.Releases, error) {
	rels, _, err := b.readReleases(ctx)
	return rels, err
}

// Latest returns latest.json, or nil when the bucket has none.
func (b *Bucket) Latest(ctx context.Context) (*format.Latest, error) {
	l, _, err := b.readLatest(ctx)
	return l, err
}

// Release returns the published release that name names: a date that
// releases.json lists, or Latest, the release latest.json names. One
// that is not published is a failure.ErrUsage.
func (b *Bucket) Release(ctx context.Context, name string) (format.Release, error) {
	if name == Latest {
		l, err := b.Latest(ctx)
		switch {
		case err != nil:
			return format.Release{}, err
		case l == nil:
			return format.Release{}, fmt.Errorf("%w: %s has no %s: nothing is published there", failure.ErrUsage, b.name, format.LatestPath)
		}
		b.remember(l.Release)
		return l.Release, nil
	}
	rels, err := b.Releases(ctx)
	if err != nil {
		return format.Release{}, err
	}
	for _, r := range rels.Releases {
		if r.Date == name {
			return r, nil
		}
	}
	return format.Release{}, fmt.Errorf("%w: %s lists no release %s", failure.ErrUsage, b.releasesName(), name)
}

// FS is the release of date as an fs.FS: the objects under DATE/ (but
// its site, DATE/site/), with every source its manifest lists read from
// sources/sha256/HEX by the sha256 the manifest gives it. When
// releases.json listed the date when it was last read, the manifest must
// be the one it lists.
func (b *Bucket) FS(date string) fs.FS {
	b.listedMu.Lock()
	want := b.listed[date]
	b.listedMu.Unlock()
	return b.releaseFS(date, want)
}

// remember records the manifest sha256 releases.json or latest.json
// gives a release.
func (b *Bucket) remember(rs ...format.Release) {
	b.listedMu.Lock()
	defer b.listedMu.Unlock()
	for _, r := range rs {
		b.listed[r.Date] = r.ManifestSHA256
	}
}

func (b *Bucket) releasesName() string { return b.name + "/" + format.ReleasesPath }

// storeErr makes err, of an operation on the bucket (what), an error of
// its kind: failure.ErrInterrupted once ctx is cancelled (a signal), else
// ErrStore, with the context's error when its deadline passed; a file of
// a file:// bucket that is not a regular file is that error alone.
func storeErr(ctx context.Context, what string, err error) error {
	var nr *regfile.NotRegularError
	if errors.As(err, &nr) {
		return err // no fault of the store's
	}
	switch cerr := ctx.Err(); {
	case errors.Is(cerr, context.Canceled):
		return fmt.Errorf("%w: %s: %w", failure.ErrInterrupted, what, cerr)
	case cerr != nil:
		return fmt.Errorf("%w: %s: %w", ErrStore, what, cerr)
	}
	return fmt.Errorf("%w: %s: %w", ErrStore, what, redacted{err})
}

// redacted is a driver's error, printed without the value of any query
// parameter that carries a secret (secretParams, secretWords): a client
// that authenticates with a signed URL (an Azure SAS token from the
// environment) may name it in its errors.
type redacted struct{ err error }

func (r redacted) Error() string { return redactURLs(r.err.Error()) }
func (r redacted) Unwrap() error { return r.err }

// newReader opens the object at key for reading. In a file:// bucket it
// must be a regular file: fileblob would open a FIFO and wait for a
// writer, past any deadline, or follow a symbolic link out of the folder.
func (b *Bucket) newReader(ctx context.Context, key string) (*blob.Reader, error) {
	if b.dir != "" {
		p := filepath.Join(b.dir, filepath.FromSlash(b.prefix+key))
		if fi, err := os.Lstat(p); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
			return nil, &regfile.NotRegularError{Path: b.name + "/" + key, Mode: fi.Mode()}
		}
	}
	var opts *blob.ReaderOptions
	if b.kind == kindS3 {
		opts = &blob.ReaderOptions{BeforeRead: quietS3Read}
	}
	return b.bb.NewReader(ctx, key, opts)
}

// quietS3Read keeps the AWS SDK from printing on stderr, beside the
// command's log, that it did not check the checksum of an object written
// in parts (Ember's CSV): every reader here checks each object's sha256.
func quietS3Read(as func(any) bool) error {
	var fns *[]func(*s3.Options)
	if as(&fns) {
		*fns = append(*fns, func(o *s3.Options) { o.DisableLogOutputChecksumValidationSkipped = true })
	}
	return nil
}

func isNotFound(err error) bool { return gcerrors.Code(err) == gcerrors.NotFound }
