package regfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestOpenRefusesFIFO: a named pipe is refused at once (no writer ever
// comes, so opening it for reading would block), a regular file is read,
// and a symbolic link to a FIFO is refused like the FIFO.
func TestOpenRefusesFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, link} {
		_, err := ReadFile(p)
		var nr *NotRegularError
		if !errors.As(err, &nr) {
			t.Fatalf("ReadFile(%s) = %v; want a NotRegularError", p, err)
		}
		if want := p + " is a named pipe (FIFO), not a regular file; refusing to read it"; err.Error() != want {
			t.Errorf("error %q, want %q", err, want)
		}
	}
	if _, err := Open(dir); err == nil || !errors.As(err, new(*NotRegularError)) {
		t.Errorf("Open(folder) = %v; want a NotRegularError", err)
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("bytes"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(file); err != nil || string(b) != "bytes" {
		t.Errorf("ReadFile(regular) = %q, %v", b, err)
	}
}
