package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/internal/printable"
)

// Exit codes, distinct per kind of failure, so the release job can tell them apart.
const (
	exitOK          = 0
	exitFailure     = 1 // anything not named below, and an interrupted command
	exitUsage       = 2 // wrong command, flag or argument; a date that cannot be true; --require-revision unmet
	exitUpstream    = 3 // an upstream file could not be fetched
	exitUpstreamBad = 4 // an upstream file was fetched but is not usable
	exitValidation  = 5 // the snapshot failed its checks; nothing was written
	exitConflict    = 6 // the snapshot exists with other content, or the output folder is unusable
)

const exitCodesHelp = `Exit codes:
  0  success (including "an identical snapshot is already there")
  1  an unexpected failure, or interrupted (SIGINT, SIGTERM); diff --exit-code: something changed
  2  usage: an unknown command, flag or argument, a missing path, a date that cannot be true;
     build --require-revision by a binary that records no unmodified VCS revision
  3  upstream unreachable: a source could not be fetched (after bounded retries; build, verify --upstream)
  4  upstream data invalid: a source was fetched but is malformed or breaks a rule
  5  validation failed: a built file failed its schema or its independent recomputation;
     verify: a snapshot failed a check, or --upstream found a source upstream gives otherwise
  6  output conflict: the snapshot exists with other content, the output folder is unusable,
     or another build holds its lock past --lock-timeout
`

// env is what a command writes to, and its context, which SIGINT and
// SIGTERM cancel: every command then ends promptly (exit 1), writing
// nothing more.
type env struct {
	ctx            context.Context
	stdout, stderr io.Writer
	log            *slog.Logger
	// logErrors makes run report a failure as a log record (build) rather
	// than as one plain line (the interactive commands).
	logErrors bool
	// exits run when the command ends, last first (a bucket it read
	// closed).
	exits []func()
}

// atExit runs fn when the command ends.
func (e *env) atExit(fn func()) { e.exits = append(e.exits, fn) }

// usageError is a mistake in the command line: exit 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// usagef makes a usageError.
func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// exitStatus is an error that carries its exit code and says nothing more
// (diff --exit-code: the report is already printed).
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// exitCode maps an error to its exit code.
func exitCode(err error) int {
	var ue usageError
	var es exitStatus
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &es):
		return int(es)
	case errors.As(err, &ue), errors.Is(err, failure.ErrUsage):
		return exitUsage
	case errors.Is(err, failure.ErrInterrupted):
		return exitFailure
	case errors.Is(err, failure.ErrValidation):
		return exitValidation
	case errors.Is(err, failure.ErrConflict):
		return exitConflict
	case errors.Is(err, failure.ErrUpstreamData):
		return exitUpstreamBad
	case errors.Is(err, failure.ErrUpstream):
		return exitUpstream
	}
	return exitFailure
}

// run runs the command line args and returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	e := &env{ctx: ctx, stdout: stdout, stderr: stderr, log: slog.New(slog.NewTextHandler(stderr, nil))}
	root := newRoot(e)
	root.SetArgs(args)
	cmd, err := execute(root)
	for _, fn := range slices.Backward(e.exits) {
		fn()
	}
	return report(e, cmd.CommandPath(), err)
}

// report prints a command's failure and returns its exit code: build logs
// it as a record; every other command prints one plain line,
// "greentokens: ...", and for a usage mistake where to find the usage.
func report(e *env, name string, err error) int {
	code := exitCode(err)
	var es exitStatus
	switch {
	case err == nil || errors.As(err, &es):
		return code
	case e.logErrors && code != exitUsage:
		e.log.Error(strings.TrimPrefix(name, "greentokens ")+" failed", "exit", code, "err", err)
		return code
	}
	// The message may quote upstream names (a nearest model or area):
	// no control character of theirs reaches the terminal.
	fmt.Fprintf(e.stderr, "greentokens: %s\n", printable.String(oneLine(err.Error())))
	if code == exitUsage {
		fmt.Fprintf(e.stderr, "Run '%s --help' for usage.\n", name)
	}
	return code
}

// printf prints one of the command's messages on stdout, each of its
// arguments (%s, %v) as printable.String shows it: a folder's name, or a
// generator a snapshot records, never brings a control character to the
// terminal nor starts a line of its own.
func (e *env) printf(format string, a ...any) {
	shown := make([]any, len(a))
	for i, v := range a {
		shown[i] = printable.String(fmt.Sprint(v))
	}
	fmt.Fprintf(e.stdout, format, shown...)
}

// oneLine joins a multi-line message into one line.
func oneLine(s string) string {
	return strings.ReplaceAll(strings.TrimSpace(s), "\n", "; ")
}

// interrupted is the error of a command whose context a signal ended, or
// nil.
func interrupted(e *env) error {
	if err := e.ctx.Err(); err != nil {
		return fmt.Errorf("%w: %w", failure.ErrInterrupted, err)
	}
	return nil
}

// setLogger applies --log-format. Both handlers show upstream text
// escaped: the text handler quotes every value that is not printable
// (strconv.Quote), and the JSON one writes through printable.JSON, which
// escapes the runes JSON may carry raw (DEL, C1 controls, bidi overrides).
func setLogger(e *env, format string) error {
	switch strings.ToLower(format) {
	case "text", "":
		e.log = slog.New(slog.NewTextHandler(e.stderr, nil))
	case "json":
		e.log = slog.New(slog.NewJSONHandler(printable.JSON(e.stderr), nil))
	default:
		return usagef("--log-format %q: want text or json", format)
	}
	return nil
}
