package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/leadgreen/greentokens/catalog/catalogtest"
)

// TestServeUnderLowFileLimit runs greentokens serve under a file limit of
// 128 over a snapshots folder holding a dated folder whose manifest.json is
// a named pipe. It listens (the pipe is refused, not read), answers 200
// idle keep-alive connections one after the other and then /healthz (the
// connection cap closes the longest idle ones first, so the process never
// runs out of descriptors), still serves a snapshot added meanwhile, logs
// only JSON lines, and exits 0 on SIGTERM.
func TestServeUnderLowFileLimit(t *testing.T) {
	root := snapshotsWithFIFO(t)
	defer catalogtest.Cleanup()
	cmd := exec.Command("sh", "-c", `ulimit -n 128 && exec "$0" "$@"`, binary(t),
		"serve", "--snapshots", root, "--addr", "127.0.0.1:0", "--rescan", "50ms", "--log-format", "json")
	addr, logs := startServe(t, cmd)

	for i := range 200 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(time.Minute)) // a guard against a hang
		fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("idle connection %d: %v", i, err)
		}
		io.Copy(io.Discard, resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("idle connection %d: status %d", i, resp.StatusCode)
		}
	}
	client := &http.Client{Timeout: time.Minute, Transport: &http.Transport{DisableKeepAlives: true}}
	get := func(path string) (int, string) {
		t.Helper()
		resp, err := client.Get("http://" + addr + path)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := get("/healthz"); code != 200 {
		t.Errorf("/healthz after 200 idle connections: %d", code)
	}
	if err := os.Rename(catalogtest.BuildSmall(t, t.TempDir(), "2026-10-04", catalogtest.SevenGrids()), filepath.Join(root, "2026-10-04")); err != nil {
		t.Fatal(err)
	}
	served := false
	for i := 0; i < 600 && !served; i++ { // bounded: a rescan every 50 ms
		_, body := get("/v1/snapshots")
		served = strings.Contains(body, `"latest": "2026-10-04"`)
		if !served {
			time.Sleep(50 * time.Millisecond)
		}
	}
	if !served {
		t.Error("a snapshot added under the file limit is not served")
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	all := logs() // before Wait, which closes the pipe
	if err := cmd.Wait(); err != nil {
		t.Errorf("serve after SIGTERM: %v", err)
	}
	for _, l := range strings.Split(strings.TrimSpace(all), "\n") {
		if !json.Valid([]byte(l)) {
			t.Errorf("a log line that is not JSON: %s", l)
		}
	}
	if !strings.Contains(all, "named pipe") {
		t.Errorf("the named pipe is not logged:\n%s", all)
	}
}

// snapshotsWithFIFO is a snapshots folder holding a copy of the shared test
// snapshot and a dated folder 2026-09-14 whose manifest.json is a named
// pipe.
func snapshotsWithFIFO(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	catalogtest.Copy(t, filepath.Join(catalogtest.Shared(t), catalogtest.Date), root)
	fifo := filepath.Join(root, "2026-09-14")
	os.MkdirAll(fifo, 0o755)
	if err := syscall.Mkfifo(filepath.Join(fifo, "manifest.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}
