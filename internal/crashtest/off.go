//go:build !crashtest

package crashtest

import "context"

// Armed reports whether a kill point is armed: never, without the
// "crashtest" tag.
func Armed(point string) bool { return false }

// Kill does nothing without the "crashtest" tag.
func Kill(point string) {}

// KillAfter does nothing without the "crashtest" tag.
func KillAfter(point string, n int) {}

// Pause does nothing without the "crashtest" tag.
func Pause(ctx context.Context, point string) {}
