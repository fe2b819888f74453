//go:build !scale

package shared

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// fatalTB records what Fatalf says and ends the goroutine, as a test's
// Fatalf does.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Helper() {}

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// TestRootFailsOutsideScale: a test of make test (not built with the scale
// tag) that reaches for ../shared fails, naming the way out, whether or not
// ../shared exists.
func TestRootFailsOutsideScale(t *testing.T) {
	f := &fatalTB{TB: t}
	done := make(chan string)
	go func() {
		defer func() { done <- f.msg }()
		dir := Root(f)
		f.msg = "returned " + dir
	}()
	msg := <-done
	for _, want := range []string{"shared", `"scale" tag`, "package sample"} {
		if !strings.Contains(msg, want) {
			t.Errorf("Root outside make scale: %q; want a failure naming %s", msg, want)
		}
	}
}
