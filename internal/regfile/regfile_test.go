package regfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"testing/fstest"
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

// TestDirFS: the folder's regular files and folders are served; a FIFO, a
// device, a symbolic link anywhere in the path (inside the folder or out
// of it) and a path leaving the folder are refused, naming the slash path,
// without blocking.
func TestDirFS(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	for p, data := range map[string]string{"a.json": "a", "sub/b.json": "b", "sub/deeper/c.json": "c"} {
		p = filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o644); err != nil {
		t.Fatal(err)
	}
	fsys := DirFS(dir)
	if err := fstest.TestFS(fsys, "a.json", "sub/b.json", "sub/deeper/c.json"); err != nil {
		t.Fatal(err)
	}
	if got := fsys.(interface{ Name() string }).Name(); got != dir {
		t.Errorf("Name() = %q, want %q", got, dir)
	}

	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		"inside":      filepath.Join(dir, "a.json"),
		"relative":    "a.json",
		"outside":     filepath.Join(outside, "secret"),
		"up":          "../" + filepath.Base(outside) + "/secret",
		"null":        "/dev/null",
		"sub/folder":  filepath.Join(dir, "sub", "deeper"),
		"out-folder":  outside,
		"to-the-pipe": filepath.Join(dir, "pipe"),
	} {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	device := ""
	if err := syscall.Mknod(filepath.Join(dir, "zero"), syscall.S_IFCHR|0o644, 1<<8|5); err == nil {
		device = "zero" // /dev/zero's numbers: it streams without end
	} else {
		t.Logf("no device made (%v): the device case is the link to /dev/null only", err)
	}

	tests := []struct {
		name, path string
		want       string // the error's text
	}{
		{"FIFO", "pipe", "pipe is a named pipe (FIFO), not a regular file; refusing to read it"},
		{"link inside", "inside", "inside is a symbolic link, not a regular file; refusing to read it"},
		{"relative link inside", "relative", "relative is a symbolic link, not a regular file; refusing to read it"},
		{"link out", "outside", "outside is a symbolic link, not a regular file; refusing to read it"},
		{"relative link out", "up", "up is a symbolic link, not a regular file; refusing to read it"},
		{"link to a device", "null", "null is a symbolic link, not a regular file; refusing to read it"},
		{"link to a FIFO", "to-the-pipe", "to-the-pipe is a symbolic link, not a regular file; refusing to read it"},
		{"linked folder inside", "sub/folder/c.json", "sub/folder is a symbolic link, not a regular file; refusing to read it"},
		{"linked folder out", "out-folder/secret", "out-folder is a symbolic link, not a regular file; refusing to read it"},
		{"up", "../" + filepath.Base(outside) + "/secret", "open ../" + filepath.Base(outside) + "/secret: invalid argument"},
		{"up within", "sub/../a.json", "open sub/../a.json: invalid argument"},
		{"absolute", filepath.Join(outside, "secret"), "open " + filepath.Join(outside, "secret") + ": invalid argument"},
	}
	if device != "" {
		tests = append(tests, struct{ name, path, want string }{"device", device, device + " is a character device, not a regular file; refusing to read it"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := fsys.Open(tt.path)
			if err == nil {
				f.Close()
				t.Fatalf("Open(%q) succeeded", tt.path)
			}
			if err.Error() != tt.want {
				t.Errorf("Open(%q): %q, want %q", tt.path, err, tt.want)
			}
			if _, err := fs.ReadFile(fsys, tt.path); err == nil {
				t.Errorf("fs.ReadFile(%q) succeeded", tt.path)
			}
		})
	}

	if b, err := fs.ReadFile(fsys, "sub/deeper/c.json"); err != nil || string(b) != "c" {
		t.Errorf("ReadFile(sub/deeper/c.json) = %q, %v", b, err)
	}
	if _, err := fsys.Open("missing.json"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open(missing.json) = %v, want fs.ErrNotExist", err)
	}
	if _, err := DirFS(filepath.Join(dir, "none")).Open("."); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open(.) of a missing folder = %v, want fs.ErrNotExist", err)
	}
}

// TestOpenFS: whatever an fs.FS serves, only a regular file is opened; a
// named pipe or a folder it serves is refused, naming the path.
func TestOpenFS(t *testing.T) {
	fsys := fstest.MapFS{
		"a.json":     {Data: []byte("{}")},
		"pipe":       {Mode: fs.ModeNamedPipe},
		"models/b.x": {Data: []byte("x")},
	}
	f, err := OpenFS(fsys, "a.json")
	if err != nil {
		t.Fatalf("a regular file: %v", err)
	}
	f.Close()
	for _, name := range []string{"pipe", "models"} {
		var nr *NotRegularError
		if _, err := OpenFS(fsys, name); !errors.As(err, &nr) || nr.Path != name {
			t.Errorf("OpenFS(%q): %v; want a *NotRegularError naming it", name, err)
		}
	}
	if _, err := OpenFS(fsys, "missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}
