package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/leadgreen/greentokens/internal/failure"

	"github.com/spf13/cobra"

	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/snapshots/verify"
)

func init() { register(newVerifyCmd) }

func newVerifyCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "verify [--json] DIR",
		Short: "check a snapshot offline: manifest, schemas, and a rebuild from its sources/",
		Long: "Checks the snapshot folder DIR (" + defaultOut + "/DATE) offline, from the folder alone: every file's\n" +
			"size and sha256 against manifest.json (a missing, extra or changed file is named), every\n" +
			"output against its JSON Schema and its independent recomputation, and a rebuild of the whole\n" +
			"snapshot from the archived sources/, compared byte for byte with what is stored as it is\n" +
			"written (only a file that differs is written, to a temporary folder; a JSON file that\n" +
			"differs is shown value by value: row and field, stored -> rebuilt).\n" +
			"It says which code built the snapshot (the manifest's generator) and which code is verifying;\n" +
			"when they differ it still verifies, and prints the command that verifies with the code that\n" +
			"built it. Nothing is written into DIR. Exit 0 only when all of it holds; 5 when anything fails.\n" +
			"The checks and the rebuild run at once, under a soft memory limit of " + strconv.Itoa(checkerMemoryLimit>>20) + " MiB (the checker\n" +
			"decodes each file whole; build and rebuild run under it too, the other commands under " + strconv.Itoa(defaultMemoryLimit>>20) + " MiB);\n" +
			"the garbage collector works harder near it, and a GOMEMLIMIT in the environment replaces it.",
		Args:              exactArgs(1, "one snapshot folder"),
		ValidArgsFunction: completeDirs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runVerify(e, args[0], asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a machine-readable report (JSON) instead of text")
	return cmd
}

func runVerify(e *env, dir string, asJSON bool) error {
	limitMemory(checkerMemoryLimit)
	if err := checkSnapshotDir("verify", dir); err != nil {
		return err
	}
	rep, err := verify.Verify(e.ctx, regfile.DirFS(dir))
	switch {
	case errors.Is(err, failure.ErrInterrupted), errors.Is(err, context.Canceled):
		return fmt.Errorf("%w: verify %s did not finish: %w", failure.ErrInterrupted, dir, err)
	case err != nil:
		// What could not be checked is not verified: exit 5, not 1.
		return fmt.Errorf("%w: %s could not be verified: %v", failure.ErrValidation, dir, err)
	}
	if asJSON {
		err = rep.WriteJSON(e.stdout)
	} else {
		err = rep.WriteText(e.stdout)
	}
	if err != nil {
		return err
	}
	return rep.Err()
}
