package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// legacyCommand registers a command written as run(args, e) with the
// standard library's flag package (newFlags, parse): cobra hands it every
// argument after its name unparsed, --help included, and its errors map to
// exit codes as any other command's. Converting it to cobra flags is a
// matter of moving each fs.X call to cmd.Flags().XVar.
func legacyCommand(name, summary string, runFn func(args []string, e *env) error) func(*env) *cobra.Command {
	return func(e *env) *cobra.Command {
		return &cobra.Command{
			Use:                name,
			Short:              summary,
			DisableFlagParsing: true,
			RunE: func(cmd *cobra.Command, args []string) error {
				err := runFn(args, e)
				if errors.Is(err, flag.ErrHelp) {
					return nil
				}
				return err
			},
		}
	}
}

// newFlags makes a legacy command's flag set; --help prints its usage, on
// stdout.
func newFlags(e *env, name, argsUsage, summary string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stdout)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "Usage: greentokens %s [flags] %s\n\n%s\n\nFlags:\n", name, argsUsage, summary)
		fs.PrintDefaults()
		fmt.Fprintf(w, "\n%s", exitCodesHelp)
	}
	return fs
}

// parse parses a legacy command's flags: --help prints the usage (exit 0),
// a flag error is a usage error (printed by run, exit 2).
func parse(fs *flag.FlagSet, args []string) error {
	out, usage := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.SetOutput(out)
	fs.Usage = usage
	switch {
	case errors.Is(err, flag.ErrHelp):
		usage()
		return err
	case err != nil:
		return usageError{err.Error()}
	}
	return nil
}

// parseInterleaved parses a legacy command's flags that may come before,
// between or after its positional arguments, and returns the positional
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

// stringList is a repeatable string flag of a legacy command.
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
