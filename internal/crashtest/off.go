//go:build !crashtest

package crashtest

import "context"

// Armed reports whether a kill point is armed: never, without the
// "crashtest" tag.
func Armed(point string) bool { return false }

// Kill does nothing without the "crashtest" tag.
func Kill(point string) {}

// Pause does nothing without the "crashtest" tag.
func Pause(ctx context.Context, point string) {}
