package main

import (
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/snapshots/bucket"
	"github.com/leadgreen/greentokens/snapshots/store"
)

// A read command's snapshot is one release of a store, named by one
// argument, whatever the store:
//
//	OUT/DATE        a snapshot folder
//	OUT             a folder of dated snapshots: its newest
//	URL/DATE        a release in the bucket at URL (releases.json lists it)
//	URL/latest      the release latest.json names
//	URL             the same
//
// URL is a bucket's (bucket.Schemes). Every read command reads the release
// through the same code, as an fs.FS: a folder through regfile.DirFS, a
// bucket's release with its sources by content, held to the manifest
// sha256 its pointers list.

// snapshotRef is the release an argument names.
type snapshotRef struct {
	// FS is the release's files; Name names it in messages (OUT/DATE, or
	// the bucket and /DATE).
	FS   fs.FS
	Name string
	// Arg names the same release for a later run (a reproduction):
	// the folder as given, or URL/DATE with the date URL/latest resolved
	// to and the URL's query.
	Arg string
}

// isBucketURL reports whether arg is a bucket's URL rather than a path.
func isBucketURL(arg string) bool {
	u, err := url.Parse(arg)
	return err == nil && strings.Contains(arg, "://") && slices.Contains(bucket.Schemes, u.Scheme)
}

// resolveSnapshot resolves arg, the value of flag (a command's name for an
// argument), to the release it names. A folder that is neither a snapshot
// nor holds one, and a bucket URL Open refuses or a release it does not
// list, are usage errors (exit 2). When arg names a store rather than one
// release, stderr says which release is read.
func resolveSnapshot(e *env, flag, arg string) (*snapshotRef, error) {
	if arg == "" {
		return nil, usagef("no snapshot given (%s DIR or URL)", flag)
	}
	if isBucketURL(arg) {
		return resolveBucket(e, arg)
	}
	if err := checkFolder(flag, arg); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(arg, format.ManifestPath)); err == nil {
		return &snapshotRef{FS: regfile.DirFS(arg), Name: arg, Arg: arg}, nil
	}
	date, err := newestIn(e, arg)
	if err != nil {
		return nil, err
	}
	if date == "" {
		return nil, usagef("%s %s is not a snapshot folder (no %s) and holds no dated snapshot; a snapshot is %s/DATE", flag, arg, format.ManifestPath, defaultOut)
	}
	dir := filepath.Join(arg, date)
	fmt.Fprintf(e.stderr, "greentokens: reading %s, the newest snapshot in %s\n", dir, arg)
	return &snapshotRef{FS: regfile.DirFS(dir), Name: dir, Arg: dir}, nil
}

// newestIn is the date of the newest dated snapshot folder of out, or "".
func newestIn(e *env, out string) (string, error) {
	entries, err := store.Folder(out).Entries(e.ctx)
	if err != nil {
		return "", err
	}
	for _, en := range slices.Backward(entries) {
		if en.Err != nil {
			continue
		}
		if _, err := os.Stat(filepath.Join(out, en.Date, format.ManifestPath)); err == nil {
			return en.Date, nil
		}
	}
	return "", nil
}

// resolveBucket opens the bucket of a release's URL (URL/DATE,
// URL/latest) or of a bucket's URL (its latest release), closed when the
// command ends.
func resolveBucket(e *env, arg string) (*snapshotRef, error) {
	bucketURL, name, err := bucket.SplitRelease(arg)
	if err != nil {
		bucketURL, name = arg, bucket.Latest
	}
	b, err := bucket.Open(e.ctx, bucketURL, bucket.Options{})
	if err != nil {
		return nil, err
	}
	e.atExit(func() { b.Close() })
	rel, err := b.Release(e.ctx, name)
	if err != nil {
		return nil, err
	}
	if name == bucket.Latest {
		fmt.Fprintf(e.stderr, "greentokens: reading %s, the release %s names\n", b.Name(rel.Date), format.LatestPath)
	}
	return &snapshotRef{FS: b.FS(rel.Date), Name: b.Name(rel.Date), Arg: bucket.ReleaseURL(bucketURL, rel.Date)}, nil
}

// openStore opens the store that serve's and mcp's --snapshots names: a
// folder of dated snapshots, or a bucket's URL, closed when the command
// ends.
func openStore(e *env, arg string) (store.Store, error) {
	if !isBucketURL(arg) {
		return store.Folder(arg), nil
	}
	if _, name, err := bucket.SplitRelease(arg); err == nil {
		return nil, usagef("--snapshots %s names one release (/%s); --snapshots wants the bucket that holds the releases", arg, name)
	}
	b, err := bucket.Open(e.ctx, arg, bucket.Options{})
	if err != nil {
		return nil, err
	}
	e.atExit(func() { b.Close() })
	return b, nil
}

// reproducible is ref's files named as ref.Arg names the release: the
// folder as given, a bucket's release by its URL/DATE with its query
// (verify's report prints the command that verifies it again).
func reproducible(ref *snapshotRef) fs.FS {
	if ref.Arg == ref.Name {
		return ref.FS
	}
	return namedFS{ref.FS, ref.Arg}
}

// namedFS is a release's files named for a later run: verify's report
// prints the command that verifies it again with the code that built it,
// naming the release as Name does.
type namedFS struct {
	fs.FS
	name string
}

func (n namedFS) Name() string { return n.name }

func (n namedFS) ReadFile(name string) ([]byte, error) { return fs.ReadFile(n.FS, name) }

func (n namedFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(n.FS, name) }

func (n namedFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(n.FS, name) }
