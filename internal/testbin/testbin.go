// Package testbin builds the greentokens command once per test run, for
// the tests that run it as a process (make scale; they skip under -short), with the "crashtest" build tag: its
// kill and pause points (internal/crashtest) are armed by the environment.
// It builds with -buildvcs=false, so that the binary records no VCS
// revision wherever the tests run (a git clone would stamp one, a worktree
// not): the tests of a build's provenance run such a binary.
package testbin

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// Builder builds a command's package into a folder, once.
type Builder struct {
	once sync.Once
	bin  string
	err  error
}

// Build builds the package pkg (a path as go build takes it), with the
// "crashtest" tag and -buildvcs=false, into dir,
// the first time it is called, and returns the binary's path (or the
// first call's error) every time: a build links the whole command, about
// 2 s of CPU, so it is done once per test binary, not once per test.
func (b *Builder) Build(dir, pkg string) (string, error) {
	b.once.Do(func() {
		b.bin = filepath.Join(dir, "greentokens")
		if out, err := exec.Command("go", "build", "-tags", "crashtest", "-buildvcs=false", "-o", b.bin, pkg).CombinedOutput(); err != nil {
			b.err = fmt.Errorf("building greentokens: %v\n%s", err, out)
		}
	})
	return b.bin, b.err
}

// For is Build for a test: into the folder root returns (made once per
// test run by the caller), failing the test on any error. Under -short
// (make test) it skips the test: the tests that run the command as a
// process run in make scale.
func (b *Builder) For(t testing.TB, root func() (string, error), pkg string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the command as a process: in make scale, not under -short")
	}
	dir, err := root()
	if err != nil {
		t.Fatal(err)
	}
	bin, err := b.Build(dir, pkg)
	if err != nil {
		t.Fatal(err)
	}
	return bin
}
