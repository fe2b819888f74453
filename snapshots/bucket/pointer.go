package bucket

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"cloud.google.com/go/storage"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	azblobblob "github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blob"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/s3/transfermanager"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/failure"
)

// The pointers, releases.json and latest.json, are the only objects a
// publish writes over. Each write is a compare-and-swap on the version
// read: a publisher that lost the race reads the pointer again, merges,
// and tries again, at most maxSwaps times, so that two publishers never
// lose each other's release.
const maxSwaps = 10

// errLost: the pointer changed since it was read.
var errLost = errors.New("the pointer changed since it was read")

// version is the version of a pointer as it was read, for the write that
// replaces it to be conditional on it.
type version struct {
	exists bool
	etag   string   // S3, Azure
	gen    int64    // Google Cloud Storage
	sum    [32]byte // the local drivers: the sha256 of the bytes read
	// modTime is when the object was written, as the store says.
	modTime time.Time
}

// readVersioned reads the object at key whole (at most limit bytes) with
// its version; an absent object is nil bytes and a version that does not
// exist.
func (b *Bucket) readVersioned(ctx context.Context, key string, limit int64) ([]byte, version, error) {
	rctx, cancel := context.WithTimeout(ctx, b.readTimeout)
	defer cancel()
	r, err := b.newReader(rctx, key)
	if isNotFound(err) {
		return nil, version{}, nil
	}
	if err != nil {
		return nil, version{}, storeErr(ctx, "reading "+b.name+"/"+key, err)
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, version{}, storeErr(ctx, "reading "+b.name+"/"+key, err)
	}
	if int64(len(data)) > limit {
		return nil, version{}, fmt.Errorf("%s/%s is over %d bytes", b.name, key, limit)
	}
	v := version{exists: true, sum: sha256.Sum256(data), modTime: r.ModTime()}
	switch b.kind {
	case kindS3:
		var out s3.GetObjectOutput
		if r.As(&out) {
			v.etag = aws.ToString(out.ETag)
		}
	case kindGCS:
		var gr *storage.Reader
		if r.As(&gr) {
			v.gen = gr.Attrs.Generation
		}
	case kindAzure:
		var out azblobblob.DownloadStreamResponse
		if r.As(&out) && out.ETag != nil {
			v.etag = string(*out.ETag)
		}
	}
	if b.kind != local && v.etag == "" && v.gen == 0 {
		return nil, version{}, fmt.Errorf("%w: reading %s/%s: the store gave no version to write it conditionally", ErrStore, b.name, key)
	}
	return data, v, nil
}

// swap writes data at key if the object is still at version v, and fails
// with errLost when it is not.
func (b *Bucket) swap(ctx context.Context, key string, data []byte, v version) error {
	opts := &blob.WriterOptions{ContentType: ContentType(key), CacheControl: CachePointer, DisableContentTypeDetection: true,
		IfNotExist: !v.exists}
	switch {
	case !v.exists:
		// IfNotExist: If-None-Match: * (S3, Azure), DoesNotExist (GCS).
	case b.kind == kindS3:
		opts.BeforeWrite = func(as func(any) bool) error {
			var in *transfermanager.UploadObjectInput
			if !as(&in) {
				return errors.New("the S3 driver gave no upload input to make the write conditional")
			}
			in.IfMatch = aws.String(v.etag)
			return nil
		}
	case b.kind == kindGCS:
		opts.BeforeWrite = func(as func(any) bool) error {
			var oh **storage.ObjectHandle
			if !as(&oh) {
				return errors.New("the GCS driver gave no object handle to make the write conditional")
			}
			*oh = (*oh).If(storage.Conditions{GenerationMatch: v.gen})
			return nil
		}
	case b.kind == kindAzure:
		opts.BeforeWrite = func(as func(any) bool) error {
			var uo *azblob.UploadStreamOptions
			if !as(&uo) {
				return errors.New("the Azure driver gave no upload options to make the write conditional")
			}
			etag := azcore.ETag(v.etag)
			uo.AccessConditions = &azblob.AccessConditions{ModifiedAccessConditions: &azblobblob.ModifiedAccessConditions{IfMatch: &etag}}
			return nil
		}
	}
	if b.kind == local {
		b.mu.Lock()
		defer b.mu.Unlock()
		_, now, err := b.readVersioned(ctx, key, maxPointerBytes)
		if err != nil {
			return err
		}
		if now.exists != v.exists || now.sum != v.sum {
			return errLost
		}
		opts.IfNotExist = !v.exists
	}
	err := b.bb.WriteAll(ctx, key, data, opts)
	if lostRace(err) {
		return errLost
	}
	if err != nil {
		return storeErr(ctx, "writing "+b.name+"/"+key, err)
	}
	return nil
}

// lostRace reports whether err is a conditional write's failed
// precondition (S3 answers a concurrent conditional write with 409
// ConditionalRequestConflict too).
func lostRace(err error) bool {
	if err == nil {
		return false
	}
	if gcerrors.Code(err) == gcerrors.FailedPrecondition {
		return true
	}
	var ae smithy.APIError
	return errors.As(err, &ae) && ae.ErrorCode() == "ConditionalRequestConflict"
}

// readReleases reads and checks releases.json, and remembers what it
// lists for FS.
func (b *Bucket) readReleases(ctx context.Context) (*format.Releases, version, error) {
	data, v, err := b.readVersioned(ctx, format.ReleasesPath, maxPointerBytes)
	if err != nil {
		return nil, version{}, err
	}
	if !v.exists {
		return &format.Releases{Version: format.PointersVersion, Releases: []format.Release{}}, v, nil
	}
	var rels format.Releases
	err = decodeStrict(data, &rels)
	if err == nil {
		err = checkReleases(&rels)
	}
	if err != nil {
		return nil, version{}, fmt.Errorf("%w: %s: %v", failure.ErrValidation, b.releasesName(), err)
	}
	b.remember(rels.Releases...)
	return &rels, v, nil
}

// readLatest reads and checks latest.json; nil when there is none.
func (b *Bucket) readLatest(ctx context.Context) (*format.Latest, version, error) {
	data, v, err := b.readVersioned(ctx, format.LatestPath, maxPointerBytes)
	if err != nil || !v.exists {
		return nil, v, err
	}
	var l format.Latest
	err = decodeStrict(data, &l)
	if err == nil {
		err = checkLatest(&l)
	}
	if err != nil {
		return nil, version{}, fmt.Errorf("%w: %s/%s: %v", failure.ErrValidation, b.name, format.LatestPath, err)
	}
	return &l, v, nil
}

// decodeStrict decodes one JSON value: no unknown field, nothing after it.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("data after the top-level value")
	}
	return nil
}

// checkReleases holds releases.json to its schema's rules: the version,
// each date and sha256, ascending dates, each once.
func checkReleases(r *format.Releases) error {
	if r.Version != format.PointersVersion {
		return fmt.Errorf("version %q, want %q", r.Version, format.PointersVersion)
	}
	if r.Releases == nil {
		return errors.New("no releases list")
	}
	for i, rel := range r.Releases {
		if err := checkRelease(rel); err != nil {
			return fmt.Errorf("releases[%d]: %v", i, err)
		}
		if i > 0 && rel.Date <= r.Releases[i-1].Date {
			return fmt.Errorf("releases[%d]: %s does not follow %s: the dates must ascend, each once", i, rel.Date, r.Releases[i-1].Date)
		}
	}
	return nil
}

func checkLatest(l *format.Latest) error {
	if l.Version != format.PointersVersion {
		return fmt.Errorf("version %q, want %q", l.Version, format.PointersVersion)
	}
	return checkRelease(l.Release)
}

func checkRelease(r format.Release) error {
	if !isDate(r.Date) {
		return fmt.Errorf("date %q is not a YYYY-MM-DD date", r.Date)
	}
	if !isSum(r.ManifestSHA256) {
		return fmt.Errorf("manifest_sha256 %q is not a sha256 in lower-case hex", r.ManifestSHA256)
	}
	return nil
}

// isSum reports whether s is a sha256 in lower-case hex.
func isSum(s string) bool {
	if len(s) != sha256.Size*2 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil && s == strings.ToLower(s)
}

// list makes releases.json list id, merged with what another publisher
// wrote meanwhile; listed is false when it did already. A release of the
// same date with another manifest is a failure.ErrConflict.
func (b *Bucket) list(ctx context.Context, id format.Release) (listed bool, err error) {
	for attempt := 1; ; attempt++ {
		rels, v, err := b.readReleases(ctx)
		if err != nil {
			return false, conflictIfInvalid(err)
		}
		i, found := slices.BinarySearchFunc(rels.Releases, id.Date, func(r format.Release, date string) int {
			return strings.Compare(r.Date, date)
		})
		if found {
			if rels.Releases[i].ManifestSHA256 != id.ManifestSHA256 {
				return false, fmt.Errorf("%w: %s lists %s with the manifest sha256 %s, not this release's %s",
					failure.ErrConflict, b.releasesName(), id.Date, rels.Releases[i].ManifestSHA256, id.ManifestSHA256)
			}
			return false, nil
		}
		rels.Releases = slices.Insert(rels.Releases, i, id)
		data, err := format.Marshal(rels)
		if err != nil {
			return false, err
		}
		err = b.swap(ctx, format.ReleasesPath, data, v)
		if errors.Is(err, errLost) && attempt < maxSwaps {
			b.log.Info("releases.json changed meanwhile; merging again", "attempt", attempt)
			if err := backoff(ctx, attempt); err != nil {
				return false, err
			}
			continue
		}
		if err != nil {
			return false, b.lostTooOften(err, format.ReleasesPath)
		}
		b.remember(rels.Releases...)
		return true, nil
	}
}

// point makes latest.json name id unless it names a later date already;
// it returns what latest.json names then, and whether it wrote it.
func (b *Bucket) point(ctx context.Context, id format.Release) (format.Release, bool, error) {
	for attempt := 1; ; attempt++ {
		l, v, err := b.readLatest(ctx)
		if err != nil {
			return format.Release{}, false, conflictIfInvalid(err)
		}
		if l != nil && l.Date >= id.Date {
			if l.Date == id.Date && l.ManifestSHA256 != id.ManifestSHA256 {
				return l.Release, false, fmt.Errorf("%w: %s/%s names %s with the manifest sha256 %s, not this release's %s",
					failure.ErrConflict, b.name, format.LatestPath, id.Date, l.ManifestSHA256, id.ManifestSHA256)
			}
			return l.Release, false, nil
		}
		data, err := format.Marshal(format.Latest{Version: format.PointersVersion, Release: id})
		if err != nil {
			return format.Release{}, false, err
		}
		err = b.swap(ctx, format.LatestPath, data, v)
		if errors.Is(err, errLost) && attempt < maxSwaps {
			b.log.Info("latest.json changed meanwhile; reading it again", "attempt", attempt)
			if err := backoff(ctx, attempt); err != nil {
				return format.Release{}, false, err
			}
			continue
		}
		if err != nil {
			return format.Release{}, false, b.lostTooOften(err, format.LatestPath)
		}
		return id, true, nil
	}
}

func (b *Bucket) lostTooOften(err error, key string) error {
	if errors.Is(err, errLost) {
		return fmt.Errorf("%w: %s/%s changed under every one of %d attempts to update it", ErrStore, b.name, key, maxSwaps)
	}
	return err
}

// conflictIfInvalid makes a pointer that breaks its rules a conflict for
// a publisher: nothing is written over it.
func conflictIfInvalid(err error) error {
	if errors.Is(err, failure.ErrValidation) {
		return fmt.Errorf("%w: %v; nothing is written over it", failure.ErrConflict, err)
	}
	return err
}

// backoff waits before the attempt after attempt: a random time, up to
// 50 ms doubled for each attempt so far, capped at 2 s, so that racing
// publishers fall out of step.
func backoff(ctx context.Context, attempt int) error {
	d := min(50*time.Millisecond<<(attempt-1), 2*time.Second)
	t := time.NewTimer(rand.N(d) + time.Millisecond)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return storeErr(ctx, "waiting to update a pointer", ctx.Err())
	case <-t.C:
		return nil
	}
}
