//go:build crashtest

package crashtest

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"syscall"
)

var (
	killAt  = os.Getenv(KillEnv)
	pauseAt = os.Getenv(PauseEnv)
)

// Armed reports whether KillEnv names point.
func Armed(point string) bool { return killAt == point }

// Kill kills the process when KillEnv names point.
func Kill(point string) {
	if Armed(point) {
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal is on its way
	}
}

// KillAfter kills the process when KillEnv names point and n, "point:n":
// a point passed many times (the Nth object of a publish).
func KillAfter(point string, n int) { Kill(point + ":" + strconv.Itoa(n)) }

// Pause waits for ctx to end when PauseEnv names point.
func Pause(ctx context.Context, point string) {
	if pauseAt == point {
		fmt.Fprintf(os.Stderr, "greentokens: paused at %s\n", point)
		<-ctx.Done()
	}
}
