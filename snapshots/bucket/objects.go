package bucket

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"

	"golang.org/x/sync/errgroup"

	"gocloud.dev/blob"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/snapshots/store"
)

// errOther: an object is in the bucket with other bytes than the ones to
// publish under its key.
var errOther = errors.New("the object holds other bytes")

// plan lists the objects of rel and its site: the manifest (the claim to
// the date), then the archived sources by content (each sha256 once), the
// outputs and the site's files.
func (b *Bucket) plan(rel *store.Release, site fs.FS) (*object, []*object, error) {
	date := rel.ID.Date
	local := func(p string) func() (fs.File, error) {
		return func() (fs.File, error) { return regfile.OpenFS(rel, p) }
	}
	f, err := regfile.OpenFS(rel, format.ManifestPath)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %s: %v", failure.ErrValidation, rel.Name(), err)
	}
	fi, err := f.Stat()
	f.Close()
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %s: %v", failure.ErrValidation, rel.Name(), err)
	}
	manifest := &object{key: releaseKey(date, format.ManifestPath), path: format.ManifestPath, size: fi.Size(),
		sum: rel.ID.ManifestSHA256, contentType: ContentType(format.ManifestPath), open: local(format.ManifestPath)}

	var objs []*object
	seen := map[string]bool{}
	for _, src := range rel.Manifest.Sources {
		if !isSum(src.SHA256) {
			return nil, nil, fmt.Errorf("%w: %s: %s lists %s with the sha256 %q, not lower-case hex", failure.ErrValidation, rel.Name(), format.ManifestPath, src.Path, src.SHA256)
		}
		key := format.ContentPath(src.SHA256)
		if seen[key] {
			continue
		}
		seen[key] = true
		objs = append(objs, &object{key: key, path: src.Path, size: src.Size, sum: src.SHA256, contentType: ContentType(src.Path), open: local(src.Path)})
	}
	for _, out := range rel.Manifest.Outputs {
		objs = append(objs, &object{key: releaseKey(date, out.Path), path: out.Path, size: out.Size, sum: out.SHA256, contentType: ContentType(out.Path), open: local(out.Path)})
	}
	if site == nil {
		return manifest, objs, nil
	}
	siteObjs, err := siteObjects(date, site, manifest.sum)
	if err != nil {
		return nil, nil, err
	}
	return manifest, append(objs, siteObjs...), nil
}

// siteObjects lists the files of a release's site, each hashed, under
// DATE/site/. The site must be of the release: its data/manifest.json,
// where it has one, is the release's manifest.
func siteObjects(date string, site fs.FS, manifestSum string) ([]*object, error) {
	var objs []*object
	err := fs.WalkDir(site, ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir():
			return nil
		case !d.Type().IsRegular():
			return fmt.Errorf("%s is %v, not a regular file", p, d.Type())
		}
		if err := store.CheckPath(p); err != nil {
			return err
		}
		f, err := regfile.OpenFS(site, p)
		if err != nil {
			return err
		}
		defer f.Close()
		h := sha256.New()
		n, err := io.Copy(h, f)
		if err != nil {
			return err
		}
		sum := hex.EncodeToString(h.Sum(nil))
		if p == "data/"+format.ManifestPath && sum != manifestSum {
			return fmt.Errorf("the site is of another release: its data/%s has the sha256 %s, the release's manifest %s", format.ManifestPath, sum, manifestSum)
		}
		objs = append(objs, &object{key: siteKey(date, p), path: p, site: true, size: n, sum: sum, contentType: ContentType(p),
			open: func() (fs.File, error) { return regfile.OpenFS(site, p) }})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%w: the site: %v", failure.ErrUsage, err)
	}
	return objs, nil
}

// present reports which objects are in the bucket already: one listing of
// DATE/, and the attributes of each source's content object.
func (b *Bucket) present(ctx context.Context, date string, objs []*object) (map[string]bool, error) {
	there := map[string]bool{}
	it := b.bb.List(&blob.ListOptions{Prefix: date + "/"})
	for {
		obj, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, storeErr(ctx, "listing "+b.Name(date), err)
		}
		there[obj.Key] = true
	}
	for _, o := range objs {
		if !isContent(o.key) {
			continue
		}
		ok, err := b.bb.Exists(ctx, o.key)
		if err != nil {
			return nil, storeErr(ctx, "looking for "+o.name(b), err)
		}
		there[o.key] = ok
	}
	return there, nil
}

// put writes the object o unless its key is taken (IfNotExist), from its
// local bytes, which must still be the ones listed: written is false when
// the key held the same bytes already; errOther when it held others.
func (b *Bucket) put(ctx context.Context, o *object) (written bool, err error) {
	f, err := o.open()
	if err != nil {
		return false, fmt.Errorf("%w: reading %s: %v", failure.ErrValidation, o.path, err)
	}
	defer f.Close()
	// Cancelling wctx before Close drops the write: nothing is stored.
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w, err := b.bb.NewWriter(wctx, o.key, &blob.WriterOptions{ContentType: o.contentType, CacheControl: CacheImmutable,
		DisableContentTypeDetection: true, IfNotExist: true})
	if err != nil {
		return false, storeErr(ctx, "writing "+o.name(b), err)
	}
	h := sha256.New()
	n, err := io.Copy(w, io.TeeReader(io.LimitReader(f, o.size+1), h))
	if err == nil && (n != o.size || hex.EncodeToString(h.Sum(nil)) != o.sum) {
		err = fmt.Errorf("%w: the local file %s changed since it was checked: %d bytes, sha256 %x; listed %d bytes, sha256 %s",
			failure.ErrValidation, o.path, n, h.Sum(nil), o.size, o.sum)
	}
	if err != nil {
		cancel()
		w.Close()
		if errors.Is(err, failure.ErrValidation) {
			return false, err
		}
		return false, storeErr(ctx, "writing "+o.name(b), err)
	}
	err = w.Close()
	if lostRace(err) {
		same, err := b.holds(ctx, o)
		switch {
		case err != nil:
			return false, err
		case !same:
			return false, errOther
		}
		return false, nil
	}
	if err != nil {
		return false, storeErr(ctx, "writing "+o.name(b), err)
	}
	return true, nil
}

// holds reports whether the object at o's key has o's bytes.
func (b *Bucket) holds(ctx context.Context, o *object) (bool, error) {
	rctx, cancel := context.WithTimeout(ctx, b.readTimeout)
	defer cancel()
	r, err := b.newReader(rctx, o.key)
	if err != nil {
		return false, storeErr(ctx, "reading "+o.name(b), err)
	}
	defer r.Close()
	n, sum, err := hashUpTo(r, o.size)
	if err != nil {
		return false, storeErr(ctx, "reading "+o.name(b), err)
	}
	return n == o.size && sum == o.sum, nil
}

// check reads the object o back, a release's file through fsys (the
// release's FS, as a reader reads it), a site's by its key, and fails
// when it does not hold o's bytes (a failure.ErrConflict saying why:
// what).
func (b *Bucket) check(ctx context.Context, fsys *releaseFS, o *object, what string) error {
	var f io.ReadCloser
	var err error
	if o.site {
		rctx, cancel := context.WithTimeout(ctx, b.readTimeout)
		defer cancel()
		f, err = b.newReader(rctx, o.key)
		if isNotFound(err) {
			err = fs.ErrNotExist
		}
	} else {
		f, err = regfile.OpenFS(fsys, o.path)
	}
	var nr *regfile.NotRegularError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w: %s is not in the bucket after it was written", ErrStore, o.name(b))
	case errors.As(err, &nr):
		return fmt.Errorf("%w: %v", failure.ErrConflict, err)
	case err != nil:
		return storeErr(ctx, "reading "+o.name(b), err)
	}
	defer f.Close()
	n, sum, err := hashUpTo(f, o.size)
	if err != nil {
		return storeErr(ctx, "reading "+o.name(b), err)
	}
	if n != o.size || sum != o.sum {
		return fmt.Errorf("%w: %s (%s) %s: %d bytes, sha256 %s; the release's are %d bytes, sha256 %s",
			failure.ErrConflict, o.name(b), o.path, what, n, sum, o.size, o.sum)
	}
	return nil
}

// hashUpTo reads r to its end, or to one byte past size, and returns how
// many bytes it read and their sha256.
func hashUpTo(r io.Reader, size int64) (int64, string, error) {
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(r, size+1))
	return n, hex.EncodeToString(h.Sum(nil)), err
}

// each runs fn for 0 to n-1, at most jobs at once; the first error stops
// the rest and is returned.
func each(ctx context.Context, jobs, n int, fn func(ctx context.Context, i int) error) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(jobs)
	for i := range n {
		g.Go(func() error { return fn(gctx, i) })
	}
	return g.Wait()
}

// isContent reports whether key is a source's content object.
func isContent(key string) bool { return path.Dir(key)+"/" == format.ContentDir }
