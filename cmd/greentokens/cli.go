package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/leadgreen/greentokens/snapshots"
)

// Exit codes, distinct per kind of failure, so the release job can tell them apart.
const (
	exitOK          = 0
	exitFailure     = 1 // anything not named below, and SIGINT or SIGTERM
	exitUsage       = 2 // wrong command, flag or argument
	exitUpstream    = 3 // an upstream file could not be fetched
	exitUpstreamBad = 4 // an upstream file was fetched but is not usable
	exitValidation  = 5 // the snapshot failed its checks; nothing was written
	exitConflict    = 6 // the snapshot exists with other content, or the output folder is unusable
)

const exitCodesHelp = `Exit codes:
  0  success (including "an identical snapshot is already there")
  1  an unexpected failure, or SIGINT/SIGTERM
  2  usage: an unknown command, flag or argument
  3  upstream unreachable: a source could not be fetched (after bounded retries)
  4  upstream data invalid: a source was fetched but is malformed or breaks a rule
  5  validation failed: a built file failed its schema or its independent recomputation
  6  output conflict: the snapshot exists with other content, the output folder is unusable,
     or another build holds its lock past --lock-timeout
`

type command struct {
	name, summary string
	run           func(args []string, env *env) error
}

// env is what a command writes to, and its context, which SIGINT and
// SIGTERM cancel: every command then ends promptly (exit 1), writing
// nothing more.
type env struct {
	ctx            context.Context
	stdout, stderr io.Writer
	log            *slog.Logger
}

func commands() []command {
	return []command{
		{"build", "fetch the upstream files and write a validated snapshot to OUT/DATE/", runBuild},
		{"verify", "check a snapshot offline: manifest, schemas, and a rebuild from its sources/", runVerify},
		{"diff", "report what changed from one snapshot to another", runDiff},
		{"carbon", "price a model's index rows on any grid: kg CO2e per billion output tokens", runCarbon},
		{"render", "write a model's page as Markdown from a snapshot alone", runRender},
		{"site", "write a snapshot's website: index, model pages with charts, grids, sources", runSite},
		{"serve", "serve the snapshots over HTTP: the JSON API, the MCP server at /mcp", runServe},
		{"mcp", "run the MCP server over stdio", runMCP},
		{"help", "show this help", nil},
	}
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "greentokens builds dated, versioned, auditable snapshots of the Green Tokens index.\n\nUsage:\n  greentokens COMMAND [flags]\n\nCommands:\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun \"greentokens COMMAND --help\" for a command's flags.\n\n%s", exitCodesHelp)
}

// usageError is a mistake in the command line.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func run(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	e := &env{ctx: ctx, stdout: stdout, stderr: stderr, log: slog.New(slog.NewTextHandler(stderr, nil))}
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	name := args[0]
	if name == "help" || name == "--help" || name == "-h" {
		if len(args) > 1 {
			return run([]string{args[1], "--help"}, stdout, stderr)
		}
		usage(stdout)
		return exitOK
	}
	for _, c := range commands() {
		if c.name == name && c.run != nil {
			err := c.run(args[1:], e)
			return report(e, name, err)
		}
	}
	fmt.Fprintf(stderr, "greentokens: unknown command %q\n\n", name)
	usage(stderr)
	return exitUsage
}

// report logs a command's outcome and returns its exit code.
func report(e *env, name string, err error) int {
	if err == nil {
		return exitOK
	}
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	code := exitCode(err)
	e.log.Error(name+" failed", "exit", code, "err", err)
	return code
}

func exitCode(err error) int {
	var ue usageError
	switch {
	case errors.Is(err, snapshots.ErrInterrupted):
		return exitFailure
	case errors.As(err, &ue), errors.Is(err, snapshots.ErrUsage):
		return exitUsage
	case errors.Is(err, snapshots.ErrValidation):
		return exitValidation
	case errors.Is(err, snapshots.ErrConflict):
		return exitConflict
	case errors.Is(err, snapshots.ErrUpstreamData):
		return exitUpstreamBad
	case errors.Is(err, snapshots.ErrUpstream):
		return exitUpstream
	}
	return exitFailure
}

// newFlags makes a command's flag set; --help prints the summary, the flags
// and the exit codes.
func newFlags(e *env, name, argsUsage, summary string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "Usage: greentokens %s [flags] %s\n\n%s\n\nFlags:\n", name, argsUsage, summary)
		fs.PrintDefaults()
		fmt.Fprintf(w, "\n%s", exitCodesHelp)
	}
	return fs
}

// parse parses flags, turning a flag error into a usage error.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err.Error()}
	}
	return nil
}

// interrupted is the error of a command whose context a signal ended, or
// nil.
func interrupted(e *env) error {
	if err := e.ctx.Err(); err != nil {
		return fmt.Errorf("%w: %w", snapshots.ErrInterrupted, err)
	}
	return nil
}

// setLogger applies --log-format.
func setLogger(e *env, format string) error {
	switch strings.ToLower(format) {
	case "text", "":
		e.log = slog.New(slog.NewTextHandler(e.stderr, nil))
	case "json":
		e.log = slog.New(slog.NewJSONHandler(e.stderr, nil))
	default:
		return usageError{fmt.Sprintf("--log-format %q: want text or json", format)}
	}
	return nil
}
