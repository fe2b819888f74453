// Package failure names the kinds of failure that the command maps to its
// exit codes. The store, the build, verify and diff wrap one of them into
// every error whose kind is known, and the command tells them apart with
// errors.Is; docs/cli.md lists the codes.
package failure

import "errors"

var (
	// ErrUsage: the caller's options are wrong (exit 2).
	ErrUsage = errors.New("usage")
	// ErrUpstream: an upstream file could not be fetched (exit 3).
	ErrUpstream = errors.New("upstream unreachable")
	// ErrUpstreamData: an upstream file was fetched but is not usable
	// (exit 4).
	ErrUpstreamData = errors.New("upstream data invalid")
	// ErrValidation: a snapshot failed its checks, built or read back
	// (exit 5).
	ErrValidation = errors.New("validation failed")
	// ErrConflict: the snapshot folder exists with other content, or the
	// output folder cannot hold it (not a folder, a full disk) (exit 6).
	ErrConflict = errors.New("output conflict")
	// ErrInterrupted: the command was cancelled (SIGINT, SIGTERM) (exit 1).
	ErrInterrupted = errors.New("interrupted")
)
