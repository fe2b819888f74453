package main

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/crashtest"
	"github.com/leadgreen/greentokens/internal/printable"
	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/snapshots/store"
)

// snapshotFlag defines a command's --snapshot DIR; the shell completes it
// with folders.
func snapshotFlag(cmd *cobra.Command, dir *string) {
	cmd.Flags().StringVar(dir, "snapshot", "", "the snapshot: a folder `DIR` ("+defaultOut+"/DATE; a folder of snapshots for its newest), or a bucket's release URL/DATE or URL/latest; the newest under "+defaultOut+" when not given")
	_ = cmd.MarkFlagDirname("snapshot")
}

// checkSnapshotDir refuses a path that is not a folder with a manifest: a
// usage mistake (exit 2), not a snapshot that failed its checks. publish
// reads its snapshot from a folder alone.
func checkSnapshotDir(flag, dir string) error {
	if dir == "" {
		return usagef("no snapshot folder given (%s DIR)", flag)
	}
	if err := checkFolder(flag, dir); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, format.ManifestPath)); err != nil {
		return usagef("%s %s is not a snapshot folder (no %s); a snapshot is %s/DATE", flag, dir, format.ManifestPath, defaultOut)
	}
	return nil
}

// checkFolder refuses a flag's path that is missing or not a folder.
func checkFolder(flag, dir string) error {
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		return usagef("%s %s: no such folder", flag, dir)
	case !st.IsDir():
		return usagef("%s %s is not a folder", flag, dir)
	}
	return nil
}

// loadRelease reads the release ref names (resolveSnapshot): its
// manifest, then every file it lists, checked against it (exit 5 when one
// has changed): figures are taken from a snapshot only as it was
// published.
func loadRelease(e *env, ref *snapshotRef) (*store.Release, error) {
	rel, err := store.Open(e.ctx, ref.FS, ref.Name)
	if err != nil {
		return nil, err
	}
	crashtest.Pause(e.ctx, crashtest.Loaded)
	return rel, rel.Load(e.ctx)
}

// completeDirs completes snapshot folders.
func completeDirs(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveFilterDirs
}

// completionRelease is the snapshot the command reads (--snapshot, or the
// newest under defaultOut), its manifest read (nothing else), for
// completion; nil when there is none.
func completionRelease(cmd *cobra.Command) *store.Release {
	dir, _ := cmd.Flags().GetString("snapshot")
	if dir = completionSnapshot(dir); dir == "" {
		return nil
	}
	rel, err := store.Open(context.Background(), regfile.DirFS(dir), dir)
	if err != nil {
		return nil
	}
	return rel
}

// completeModels completes model slugs from the model files the
// --snapshot given lists (no file completion otherwise).
func completeModels(cmd *cobra.Command, toComplete string) []string {
	rel := completionRelease(cmd)
	if rel == nil {
		return nil
	}
	var out []string
	for _, f := range rel.Manifest.Outputs {
		name, ok := strings.CutPrefix(f.Path, format.ModelsDir)
		if slug, json := strings.CutSuffix(name, ".json"); ok && json && strings.HasPrefix(slug, strings.ToLower(toComplete)) {
			out = append(out, slug)
		}
	}
	return out
}

// completeGrids completes grid names and ISO 3 codes from the --snapshot's
// grid.json. A name that printable.String would escape (a control
// character, a bidi override) is not offered: the shell would show it raw,
// and a line break would add a candidate of its own; its ISO 3 code is.
func completeGrids(cmd *cobra.Command, toComplete string) []string {
	rel := completionRelease(cmd)
	if rel == nil {
		return nil
	}
	g, err := rel.ReadGrid()
	if err != nil {
		return nil
	}
	var out []string
	low := strings.ToLower(toComplete)
	for _, a := range g.Areas {
		for _, s := range []string{a.Name, a.ISO3} {
			if s != "" && printable.Plain(s) && strings.HasPrefix(strings.ToLower(s), low) {
				out = append(out, s)
			}
		}
	}
	sort.Strings(out)
	return out
}

// completeGridList completes the last name of a comma-separated --grids
// list ("India,Nor" -> "India,Norway").
func completeGridList(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	i := strings.LastIndex(toComplete, ",") + 1
	out := completeGrids(cmd, toComplete[i:])
	for j := range out {
		out[j] = toComplete[:i] + out[j]
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}
