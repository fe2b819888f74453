package main

import (
	"fmt"

	"github.com/leadgreen/greentokens/internal/failure"

	"github.com/spf13/cobra"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/snapshots/verify"
)

func init() { register(newRebuildCmd) }

func newRebuildCmd(e *env) *cobra.Command {
	var out, logFormat string
	var replace bool
	cmd := &cobra.Command{
		Use:   "rebuild [DIR | URL/DATE] --out FOLDER",
		Short: "build a snapshot again from its own sources/, every input taken from what it records",
		Long: "An auditor's rebuild: builds the snapshot folder DIR (" + defaultOut + "/DATE) again into FOLDER/DATE from\n" +
			"DIR/sources alone, taking every input from what the snapshot records: the date and retrieval\n" +
			"dates (manifest.json), the reference year when it was pinned (the manifest's grid summary),\n" +
			"Ember's release (grid.json). manifest.json must be in its canonical form, DIR must hold\n" +
			"regular files and folders only (a symbolic link is refused, never followed), and every\n" +
			"source and grid.json must match its size and sha256 there (else exit 5, nothing written);\n" +
			"a snapshot that cannot be rebuilt from what it records is exit 5 too.\n" +
			"The rebuild is checked and published as build does (FOLDER/DATE appears whole or not at all),\n" +
			"then compared with DIR byte for byte. Its manifest.json names the code that built DIR when\n" +
			"that is the code rebuilding it, else the code rebuilding it: exit 0 when every file is\n" +
			"identical, or when manifest.json's generator is the only difference (the rebuilding code is\n" +
			"not the code that built DIR; both are named), as verify DIR finds; 5 when anything else\n" +
			"differs (the rebuilt snapshot stays in FOLDER; verify DIR shows how a file differs).\n" +
			"A bucket's release (URL/DATE, URL/latest) is rebuilt the same way from the bucket's sources.\n" +
			"Without DIR it rebuilds the newest snapshot under " + defaultOut + ", and says which on stderr.",
		Example: "  greentokens rebuild out/2026-09-27 --out /tmp/audit\n" +
			"  greentokens rebuild --out /tmp/audit --log-format json  # the newest snapshot under out\n" +
			"  greentokens rebuild file:///srv/greentokens/latest --out /tmp/audit",
		Args:              maxArgs(1, "one snapshot folder or release URL"),
		ValidArgsFunction: completeDirs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usagef("rebuild needs --out FOLDER: the folder that receives the rebuilt snapshot")
			}
			ref, err := argOrNewest(e, "rebuild", args)
			if err != nil {
				return err
			}
			e.logErrors = true
			return runRebuild(e, ref, out, replace, logFormat)
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "folder that receives the rebuilt snapshot (FOLDER/DATE); required")
	cmd.Flags().BoolVar(&replace, "replace", false, "replace a snapshot of the same date in FOLDER whose content differs")
	cmd.Flags().StringVar(&logFormat, "log-format", "text", "log format: text or json")
	return cmd
}

// runRebuild rebuilds the release ref names into out.
func runRebuild(e *env, ref *snapshotRef, out string, replace bool, logFormat string) error {
	limitMemory(checkerMemoryLimit)
	if err := setLogger(e, logFormat); err != nil {
		return err
	}
	dir := ref.Arg
	res, err := verify.Rebuild(e.ctx, reproducible(ref), verify.RebuildOptions{Out: out, Replace: replace, Logger: e.log})
	if err != nil {
		return err
	}
	e.printf("  built by:   %s\n  rebuilt by: %s\n", res.BuiltBy, res.RebuiltBy)
	counts := fmt.Sprintf("%d outputs, %d sources", len(res.Manifest.Outputs), len(res.Manifest.Sources))
	switch {
	case res.Identical:
		e.printf("%s: rebuilt from %s, byte-identical to it (%s)\n", res.Dir, dir, counts)
	case res.OnlyGenerator:
		e.printf("%s: rebuilt from %s, byte-identical to it except %s's generator, which names the code that wrote each: built by %s, rebuilt by %s (%s)\n",
			res.Dir, dir, format.ManifestPath, res.BuiltBy, res.RebuiltBy, counts)
	default:
		e.printf("%s: rebuilt from %s, and differs from it: %s; greentokens verify %s shows how, value by value (the rebuilt files stay in %s)\n",
			res.Dir, dir, res.Difference, dir, res.Dir)
		return fmt.Errorf("%w: the rebuild of %s differs from it (%s)", failure.ErrValidation, dir, res.Difference)
	}
	return nil
}
