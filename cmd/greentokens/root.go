package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/leadgreen/greentokens/internal/plural"
	"github.com/leadgreen/greentokens/pricing"
	"github.com/leadgreen/greentokens/snapshots/build"
)

// A subcommand is one file: a constructor that returns its *cobra.Command,
// listed here by an init function in that file:
//
//	func init() { register(newServeCmd) }
//
//	func newServeCmd(e *env) *cobra.Command {
//		var addr string
//		cmd := &cobra.Command{
//			Use:   "serve [flags]",
//			Short: "one line for the command list",
//			Args:  noArgs,
//			RunE: func(cmd *cobra.Command, args []string) error {
//				return serve(cmd.Context(), addr, e) // errors: usagef(...) for exit 2, failure.Err* kinds
//			},
//		}
//		cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "listen `ADDR`")
//		return cmd
//	}
var constructors []func(*env) *cobra.Command

// register adds a subcommand's constructor.
func register(c func(*env) *cobra.Command) { constructors = append(constructors, c) }

// newRoot makes the command tree; e receives output.
func newRoot(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:   "greentokens",
		Short: "Dated, versioned, auditable snapshots of the Green Tokens index",
		Long: "greentokens builds dated, versioned, auditable snapshots of the Green Tokens index: the GPU\n" +
			"energy open language models use per million output tokens, with grid carbon per country.",
		Version: build.ThisGenerator().String(),
		Example: "  greentokens build --out out                  # today's snapshot, into out/DATE\n" +
			"  greentokens verify                           # check the newest one under out\n" +
			"  greentokens carbon qwen-3-32b Norway India   # price a model on two grids",
		SilenceErrors: true,
		SilenceUsage:  true,
		// "greentokens" alone lists the commands and is a usage mistake.
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("unknown command %q%s", args[0], didYouMean(cmd.SuggestionsFor(args[0])))
			}
			cmd.SetOut(e.stderr)
			cmd.Usage()
			return usagef("no command given")
		},
		Args: cobra.ArbitraryArgs,
	}
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	root.SetVersionTemplate("greentokens {{.Version}}\n")
	root.SetFlagErrorFunc(flagError)
	root.SuggestionsMinimumDistance = 2
	root.SetUsageTemplate(root.UsageTemplate() + "\n" + exitCodesHelp)
	for _, c := range constructors {
		cmd := c(e)
		cmd.SetFlagErrorFunc(flagError)
		root.AddCommand(cmd)
	}
	root.InitDefaultCompletionCmd()
	root.InitDefaultHelpCmd()
	for _, c := range root.Commands() {
		switch c.Name() {
		case "help":
			strictHelp(root, c)
		case "completion":
			// "completion tcsh" would print the help with exit 0.
			c.Args = cobra.ArbitraryArgs
			c.RunE = func(cmd *cobra.Command, args []string) error {
				return unknownSub(cmd, "shell", args)
			}
		}
	}
	return root
}

// strictHelp makes "help X" of a command X that does not exist a usage
// error with the nearest commands, where cobra would print the root's help
// with exit 0.
func strictHelp(root, help *cobra.Command) {
	show := help.Run
	help.Run = nil
	help.RunE = func(cmd *cobra.Command, args []string) error {
		if target, rest, err := root.Find(args); err == nil && len(rest) > 0 && target.HasAvailableSubCommands() {
			return unknownSub(target, "help topic", rest)
		}
		show(cmd, args)
		return nil
	}
}

// unknownSub is the usage error of a command that wants one of its
// subcommands (what) and got args instead.
func unknownSub(cmd *cobra.Command, what string, args []string) error {
	var subs []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() {
			subs = append(subs, c.Name())
		}
	}
	if len(args) == 0 {
		return usagef("%s needs a %s: %s", cmd.Name(), what, strings.Join(subs, ", "))
	}
	of := ""
	if cmd.HasParent() {
		of = " of " + cmd.Name()
	}
	cmd.SuggestionsMinimumDistance = 2
	return usagef("unknown %s %q%s (want %s)%s", what, args[0], of, strings.Join(subs, ", "), didYouMean(cmd.SuggestionsFor(args[0])))
}

// execute runs the command tree. An error from before a command's RunE
// (cobra's checks of the arguments and flags) is a usage error.
func execute(root *cobra.Command) (*cobra.Command, error) {
	ran := false
	var wrap func(c *cobra.Command)
	wrap = func(c *cobra.Command) {
		if runE := c.RunE; runE != nil {
			c.RunE = func(cmd *cobra.Command, args []string) error {
				ran = true
				return runE(cmd, args)
			}
		}
		for _, sub := range c.Commands() {
			wrap(sub)
		}
	}
	wrap(root)
	cmd, err := root.ExecuteC()
	if err != nil && !ran {
		var ue usageError
		if !errors.As(err, &ue) {
			err = usageError{err.Error()}
		}
	}
	return cmd, err
}

// flagError makes a flag parsing error a usage error, suggesting the
// nearest flag of the command for an unknown one.
func flagError(cmd *cobra.Command, err error) error {
	msg := err.Error()
	name, ok := strings.CutPrefix(msg, "unknown flag: --")
	if !ok {
		if sh, ok2 := strings.CutPrefix(msg, "unknown shorthand flag: "); ok2 {
			// "'x' in -xyz": suggest the long flag a single-dash word spells.
			if _, word, ok3 := strings.Cut(sh, " in -"); ok3 {
				name, ok = word, true
			}
		}
	}
	if ok {
		var names []string
		cmd.Flags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
		cmd.InheritedFlags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
		var near []string
		for _, n := range names {
			if pricing.EditDistance(strings.ToLower(name), n) <= max(1, len(name)/3) || strings.HasPrefix(n, name) {
				near = append(near, "--"+n)
			}
		}
		return usagef("%s%s", msg, didYouMean(near))
	}
	return usageError{msg}
}

// didYouMean ends a message with suggestions, if any.
func didYouMean(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return fmt.Sprintf("; did you mean %s?", strings.Join(s, " or "))
}

// noArgs refuses positional arguments.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usagef("%s takes no arguments, got %q", cmd.Name(), args)
	}
	return nil
}

// maxArgs wants at most n positional arguments, described as what.
func maxArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > n {
			return usagef("%s takes at most %s; got %s", cmd.Name(), what, plural.Count(len(args), "argument"))
		}
		return nil
	}
}

// exactArgs wants n positional arguments, described as what.
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usagef("%s takes %s; got %s", cmd.Name(), what, plural.Count(len(args), "argument"))
		}
		return nil
	}
}
