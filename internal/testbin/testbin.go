// Package testbin builds the greentokens command once per test run, for
// the tests that run it as a process.
package testbin

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"sync"
)

// Builder builds a command's package into a folder, once.
type Builder struct {
	once sync.Once
	bin  string
	err  error
}

// Build builds the package pkg (a path as go build takes it) into dir,
// the first time it is called, and returns the binary's path (or the
// first call's error) every time: a build links the whole command, about
// 2 s of CPU, which each test that ran it used to pay.
func (b *Builder) Build(dir, pkg string) (string, error) {
	b.once.Do(func() {
		b.bin = filepath.Join(dir, "greentokens")
		if out, err := exec.Command("go", "build", "-o", b.bin, pkg).CombinedOutput(); err != nil {
			b.err = fmt.Errorf("building greentokens: %v\n%s", err, out)
		}
	})
	return b.bin, b.err
}
