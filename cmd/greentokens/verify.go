package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/leadgreen/greentokens/snapshots"
)

func runVerify(args []string, e *env) error {
	fs := newFlags(e, "verify", "DIR",
		"Checks the snapshot folder DIR (snapshots/DATE) offline, from the folder alone: every file's\n"+
			"size and sha256 against manifest.json (a missing, extra or changed file is named), every\n"+
			"output against its JSON Schema and its independent recomputation, and a rebuild of the whole\n"+
			"snapshot from the archived sources/ in a temporary folder, compared file by file with what is\n"+
			"stored (a JSON file that differs is shown value by value: row and field, stored -> rebuilt).\n"+
			"Nothing is written into DIR. Exit 0 only when all of it holds; 5 when anything fails.")
	asJSON := fs.Bool("json", false, "print a machine-readable report (JSON) instead of text")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{fmt.Sprintf("verify takes one snapshot folder, got %d arguments", len(pos))}
	}
	rep, err := snapshots.Verify(e.ctx, pos[0])
	if errors.Is(err, snapshots.ErrInterrupted) {
		return err
	}
	if err != nil {
		// What could not be checked is not verified: exit 5, not 1.
		return fmt.Errorf("%w: %s could not be verified: %v", snapshots.ErrValidation, pos[0], err)
	}
	if *asJSON {
		err = rep.WriteJSON(e.stdout)
	} else {
		err = rep.WriteText(e.stdout)
	}
	if err != nil {
		return err
	}
	return rep.Err()
}

// parseInterleaved parses flags that may come before, between or after the
// positional arguments ("verify DIR --json"), and returns the positional
// ones. "--" ends the flags.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := parse(fs, args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string {
	if l == nil {
		return ""
	}
	return fmt.Sprint([]string(*l))
}

func (l *stringList) Set(s string) error {
	if s == "" {
		return fmt.Errorf("empty value")
	}
	*l = append(*l, s)
	return nil
}
