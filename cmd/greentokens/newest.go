package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"

	"github.com/leadgreen/greentokens/internal/printable"
	"github.com/leadgreen/greentokens/snapshots/store"
)

// The commands that read one snapshot (verify, rebuild, diff, carbon,
// list, render, site, publish) take the newest one under ./out, the build's default
// output folder, when none is named, and say which on stderr. "Newest" is
// the latest dated folder that the store can read as a release (a dated
// entry that is a symbolic link or a file does not count, as for the
// build's removal guard).

// newestSnapshots returns the n newest snapshot folders under defaultOut,
// oldest first (out/DATE). With fewer there, it is a usage error naming
// what the command line lacks (given: "DIR", "--snapshot DIR").
func newestSnapshots(ctx context.Context, n int, given string) ([]string, error) {
	entries, err := store.Folder(defaultOut).Entries(ctx)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, usagef("no snapshot folder given (%s), and there is no %s folder here to take the newest snapshot from: name one, or build one (greentokens build)", given, defaultOut)
	case err != nil:
		return nil, usagef("no snapshot folder given (%s), and %s cannot be read: %v", given, defaultOut, err)
	}
	var dirs []string
	for _, e := range slices.Backward(entries) {
		if e.Err == nil && len(dirs) < n {
			dirs = append(dirs, filepath.Join(defaultOut, e.Date))
		}
	}
	slices.Reverse(dirs)
	switch {
	case len(dirs) == 0:
		return nil, usagef("no snapshot folder given (%s), and %s holds no snapshot (%s/DATE): name one, or build one (greentokens build)", given, defaultOut, defaultOut)
	case len(dirs) < n:
		return nil, usagef("no snapshot folders given (%s), and %s holds only one snapshot, %s", given, defaultOut, dirs[0])
	}
	return dirs, nil
}

// newestSnapshot is the newest snapshot under defaultOut, for a command
// given none (given: what names one, "DIR" or "--snapshot DIR"); it says
// which on stderr.
func newestSnapshot(e *env, given string) (string, error) {
	dirs, err := newestSnapshots(e.ctx, 1, given)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(e.stderr, "using %s, the newest snapshot under %s\n", printable.String(dirs[0]), defaultOut)
	return dirs[0], nil
}

// snapshotFlagOrNewest is the --snapshot of cmd (dir) when it is given,
// else the newest snapshot under defaultOut (newestSnapshot).
func snapshotFlagOrNewest(e *env, cmd *cobra.Command, dir string) (string, error) {
	if cmd.Flags().Changed("snapshot") {
		return dir, nil
	}
	return newestSnapshot(e, "--snapshot DIR")
}

// argOrNewest is the one argument of args, or with none the newest
// snapshot under defaultOut (newestSnapshot).
func argOrNewest(e *env, args []string) (string, error) {
	if len(args) > 0 {
		return args[0], nil
	}
	return newestSnapshot(e, "DIR")
}

// diffPair is diff's OLD and NEW from its arguments: both given; OLD
// given, NEW the newest snapshot under defaultOut; or neither, the two
// newest. What it takes from defaultOut it names on stderr.
func diffPair(e *env, args []string) (old, cur string, err error) {
	switch len(args) {
	case 2:
		return args[0], args[1], nil
	case 1:
		dirs, err := newestSnapshots(e.ctx, 1, "NEW")
		if err != nil {
			return "", "", err
		}
		if sameFolder(args[0], dirs[0]) {
			return "", "", usagef("diff %s: that is the newest snapshot under %s; name NEW too", args[0], defaultOut)
		}
		fmt.Fprintf(e.stderr, "using %s as NEW, the newest snapshot under %s\n", printable.String(dirs[0]), defaultOut)
		return args[0], dirs[0], nil
	}
	dirs, err := newestSnapshots(e.ctx, 2, "OLD NEW")
	if err != nil {
		return "", "", err
	}
	fmt.Fprintf(e.stderr, "using %s as OLD and %s as NEW, the two newest snapshots under %s\n", printable.String(dirs[0]), printable.String(dirs[1]), defaultOut)
	return dirs[0], dirs[1], nil
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

// completionSnapshot is the snapshot a command being completed reads: its
// --snapshot, or the newest under defaultOut (named nowhere: completion
// prints candidates only); "" when there is none.
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
