package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/printable"
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
// URL is a bucket's (bucket.Schemes). A command given none (verify,
// rebuild, diff, carbon, list, render, site, publish) reads the newest
// snapshot under ./out, the build's default output folder, as it reads
// OUT, and says which on stderr. Every read command reads the release
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
	return err == nil && strings.Contains(arg, "://") && slices.Contains(bucket.Schemes(), u.Scheme)
}

// resolveSnapshot resolves the release a read command reads: arg, the
// value of flag (the command's name for it: "verify", "--snapshot"), when
// named is set; else the newest snapshot under defaultOut, the build's
// default output folder. A folder that is neither a snapshot nor holds
// one, and a bucket URL Open refuses or a release it does not list, are
// usage errors (exit 2). When the release is not named by the command
// line as it is read (the newest of a folder, URL/latest), stderr says
// which release is read.
func resolveSnapshot(e *env, flag, arg string, named bool) (*snapshotRef, error) {
	if !named {
		given := "DIR"
		if strings.HasPrefix(flag, "--") {
			given = flag + " DIR"
		}
		dirs, err := newestSnapshots(e.ctx, 1, given)
		if err != nil {
			return nil, err
		}
		return newestRef(e, flag, dirs[0], defaultOut)
	}
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
		return folderRef(arg), nil
	}
	dates, err := newestIn(e.ctx, store.Folder(arg), 1)
	if err != nil {
		return nil, usagef("%s %s cannot be read: %v", flag, arg, err)
	}
	if len(dates) == 0 {
		return nil, usagef("%s %s is not a snapshot folder (no %s) and holds no dated snapshot; a snapshot is %s/DATE", flag, arg, format.ManifestPath, defaultOut)
	}
	return newestRef(e, flag, filepath.Join(arg, dates[0]), arg)
}

// folderRef is the snapshot folder dir.
func folderRef(dir string) *snapshotRef {
	return &snapshotRef{FS: regfile.DirFS(dir), Name: dir, Arg: dir}
}

// newestRef is the snapshot folder dir, the newest in out, said so on
// stderr once it is known to be a snapshot folder.
func newestRef(e *env, flag, dir, out string) (*snapshotRef, error) {
	if err := checkSnapshotDir(flag, dir); err != nil {
		return nil, err
	}
	fmt.Fprintf(e.stderr, "using %s, the newest snapshot under %s\n", printable.String(dir), printable.String(out))
	return folderRef(dir), nil
}

// newestIn is the dates of the n newest releases of s, oldest first
// (fewer when s holds fewer). "Newest" is the latest date that s can read
// as a release: a dated entry that is a symbolic link or a file does not
// count, as for the build's removal guard.
func newestIn(ctx context.Context, s store.Store, n int) ([]string, error) {
	entries, err := s.Entries(ctx)
	if err != nil {
		return nil, err
	}
	var dates []string
	for _, en := range slices.Backward(entries) {
		if en.Err == nil && len(dates) < n {
			dates = append(dates, en.Date)
		}
	}
	slices.Reverse(dates)
	return dates, nil
}

// newestSnapshots returns the n newest snapshot folders under defaultOut,
// oldest first (out/DATE), for a command whose command line names fewer.
// With fewer there, it is a usage error naming what the command line
// lacks (given: "DIR", "--snapshot DIR").
func newestSnapshots(ctx context.Context, n int, given string) ([]string, error) {
	dates, err := newestIn(ctx, store.Folder(defaultOut), n)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, usagef("no snapshot folder given (%s), and there is no %s folder here to take the newest snapshot from: name one, or build one (greentokens build)", given, defaultOut)
	case err != nil:
		return nil, usagef("no snapshot folder given (%s), and %s cannot be read: %v", given, defaultOut, err)
	case len(dates) == 0:
		return nil, usagef("no snapshot folder given (%s), and %s holds no snapshot (%s/DATE): name one, or build one (greentokens build)", given, defaultOut, defaultOut)
	case len(dates) < n:
		return nil, usagef("no snapshot folders given (%s), and %s holds only one snapshot, %s", given, defaultOut, filepath.Join(defaultOut, dates[0]))
	}
	dirs := make([]string, len(dates))
	for i, d := range dates {
		dirs[i] = filepath.Join(defaultOut, d)
	}
	return dirs, nil
}

// snapshotFlagOrNewest is the release cmd's --snapshot (dir) names when it
// is given, else the newest snapshot under defaultOut.
func snapshotFlagOrNewest(e *env, cmd *cobra.Command, dir string) (*snapshotRef, error) {
	return resolveSnapshot(e, "--snapshot", dir, cmd.Flags().Changed("snapshot"))
}

// argOrNewest is the release the one argument of args names (flag: the
// command's name), or with none the newest snapshot under defaultOut.
func argOrNewest(e *env, flag string, args []string) (*snapshotRef, error) {
	if len(args) == 0 {
		return resolveSnapshot(e, flag, "", false)
	}
	return resolveSnapshot(e, flag, args[0], true)
}

// diffPair is diff's OLD and NEW from its arguments: both given; OLD
// given, NEW the newest snapshot under defaultOut; or neither, the two
// newest. What it takes from defaultOut it names on stderr.
func diffPair(e *env, args []string) (old, cur *snapshotRef, err error) {
	var dirs []string
	switch len(args) {
	case 2:
	case 1:
		if dirs, err = newestSnapshots(e.ctx, 1, "NEW"); err != nil {
			return nil, nil, err
		}
		if sameFolder(args[0], dirs[0]) {
			return nil, nil, usagef("diff %s: that is the newest snapshot under %s; name NEW too", args[0], defaultOut)
		}
		args = []string{args[0], dirs[0]}
	default:
		if dirs, err = newestSnapshots(e.ctx, 2, "OLD NEW"); err != nil {
			return nil, nil, err
		}
		args = dirs
	}
	if old, err = resolveSnapshot(e, "diff", args[0], true); err != nil {
		return nil, nil, err
	}
	if cur, err = resolveSnapshot(e, "diff", args[1], true); err != nil {
		return nil, nil, err
	}
	switch len(dirs) {
	case 1:
		fmt.Fprintf(e.stderr, "using %s as NEW, the newest snapshot under %s\n", printable.String(dirs[0]), defaultOut)
	case 2:
		fmt.Fprintf(e.stderr, "using %s as OLD and %s as NEW, the two newest snapshots under %s\n", printable.String(dirs[0]), printable.String(dirs[1]), defaultOut)
	}
	return old, cur, nil
}

// sameFolder reports whether the paths a and b name the same folder.
func sameFolder(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return os.SameFile(sa, sb)
}

// completionSnapshot is the snapshot folder a command being completed
// reads: its --snapshot, or the newest under defaultOut (named nowhere:
// completion prints candidates only); "" when there is none.
func completionSnapshot(dir string) string {
	if dir != "" {
		return dir
	}
	dirs, err := newestSnapshots(context.Background(), 1, "")
	if err != nil {
		return ""
	}
	return dirs[0]
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
		fmt.Fprintf(e.stderr, "using %s, the release %s names\n", printable.String(b.Name(rel.Date)), format.LatestPath)
	}
	return &snapshotRef{FS: b.FS(rel.Date), Name: b.Name(rel.Date), Arg: bucket.ReleaseURL(bucketURL, rel.Date)}, nil
}

// openStore opens the store that serve's, mcp's and history's --snapshots
// names (checkStore): a folder of dated snapshots, or a bucket's URL,
// closed when the command ends.
func openStore(e *env, arg string) (store.Store, error) {
	if err := checkStore(arg); err != nil {
		return nil, err
	}
	if !strings.Contains(arg, "://") {
		return store.Folder(arg), nil
	}
	b, err := bucket.Open(e.ctx, arg, bucket.Options{Logger: e.log})
	if err != nil {
		return nil, err
	}
	e.atExit(func() { b.Close() })
	return b, nil
}

// checkStore refuses, as a usage error, a --snapshots that names no store
// of releases: a URL that bucket.CheckURL refuses (another scheme, a
// secret) or that names one release (URL/DATE, URL/latest); a path that
// is missing, not a folder, or one snapshot rather than the folder of
// dated snapshots (nothing would be read).
func checkStore(arg string) error {
	if strings.Contains(arg, "://") {
		if err := bucket.CheckURL(arg); err != nil {
			return err
		}
		if _, name, err := bucket.SplitRelease(arg); err == nil {
			return usagef("--snapshots %s names one release (/%s); --snapshots wants the bucket that holds the releases", arg, name)
		}
		return nil
	}
	if err := checkFolder("--snapshots", arg); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(arg, format.ManifestPath)); err == nil {
		return usagef("--snapshots %s is one snapshot; --snapshots wants the folder holding the dated snapshots (%s)", arg, filepath.Dir(filepath.Clean(arg)))
	}
	return nil
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
