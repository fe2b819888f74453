package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/leadgreen/greentokens/catalog/catalogtest"
	"github.com/leadgreen/greentokens/internal/testbin"
	"github.com/leadgreen/greentokens/mcpserver/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// binary builds the greentokens command, for the tests that run it as a
// process: once per test run, into sharedRoot.
func binary(t *testing.T) string {
	t.Helper()
	return command.For(t, sharedRoot, ".")
}

var command testbin.Builder

// TestMCPStdio drives every tool through the SDK's client, talking to the
// greentokens binary over its stdin and stdout; a dated folder whose
// manifest.json is a named pipe lies beside the snapshot, and is refused
// without being read.
func TestMCPStdio(t *testing.T) {
	root := snapshotsWithFIFO(t)
	defer catalogtest.Cleanup()
	cmd := exec.Command(binary(t), "mcp", "--snapshots", root)
	cmd.Stderr = os.Stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cs.InitializeResult().ServerInfo.Version, binaryVersion(t); got != want {
		t.Errorf("serverInfo.version %q; want greentokens version's %q", got, want)
	}
	mcptest.Check(t, cs, root)
	if err := cs.Close(); err != nil {
		t.Errorf("closing the session: %v", err)
	}
}

// TestServeProcess runs greentokens serve, prices the seed page's figure
// over HTTP, and stops it with SIGTERM: it exits 0 after shutting down.
func TestServeProcess(t *testing.T) {
	root := catalogtest.Shared(t)
	defer catalogtest.Cleanup()
	cmd := exec.Command(binary(t), "serve", "--snapshots", root, "--addr", "127.0.0.1:0", "--log-format", "json")
	addr, logs := startServe(t, cmd)

	resp, err := http.Get("http://" + addr + "/v1/latest/carbon?model=qwen-3-32b&grid=SAU&grid=NOR&gpu=B200")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	kg := regexp.MustCompile(`"kg_co2e_per_billion_output_tokens": ([0-9.]+)`).FindAllStringSubmatch(string(body), -1)
	if resp.StatusCode != 200 || len(kg) != 2 || kg[0][1] != "27.0" || kg[1][1] != "1.2" {
		t.Errorf("status %d, kg %v\n%s", resp.StatusCode, kg, body)
	}
	// The website is served at / and /DATE/.
	for _, path := range []string{"/", "/" + catalogtest.Date + "/models/qwen-3-32b.html"} {
		resp, err := http.Get("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), `<link rel="stylesheet"`) || resp.Header.Get("Content-Security-Policy") == "" {
			t.Errorf("GET %s: status %d, not a page of the site", path, resp.StatusCode)
		}
	}
	// /mcp gives the binary's version as serverInfo.version.
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cs.InitializeResult().ServerInfo.Version, binaryVersion(t); got != want {
		t.Errorf("/mcp: serverInfo.version %q; want greentokens version's %q", got, want)
	}
	cs.Close()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	all := logs() // before Wait, which closes the pipe
	if err := cmd.Wait(); err != nil {
		t.Errorf("serve after SIGTERM: %v", err)
	}
	if !strings.Contains(all, `"msg":"request"`) || !strings.Contains(all, `"msg":"shutting down"`) {
		t.Errorf("logs lack the access log or the shutdown:\n%s", all)
	}
}

// TestEmptySnapshotsFolder: serve and mcp over an empty snapshots folder
// warn at start that there is nothing to serve, naming the folder, and
// still start: serve answers /readyz 503 and a snapshot 404, mcp answers
// until its input ends.
func TestEmptySnapshotsFolder(t *testing.T) {
	empty := t.TempDir()
	cmd := exec.Command(binary(t), "serve", "--snapshots", empty, "--addr", "127.0.0.1:0", "--log-format", "json")
	addr, logs := startServe(t, cmd)
	for path, want := range map[string]int{"/readyz": http.StatusServiceUnavailable, "/v1/latest/models": http.StatusNotFound} {
		resp, err := http.Get("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want || resp.Header.Get("Content-Type") != "application/problem+json" {
			t.Errorf("GET %s: %d %s; want %d problem+json", path, resp.StatusCode, resp.Header.Get("Content-Type"), want)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	all := logs()
	if err := cmd.Wait(); err != nil {
		t.Errorf("serve after SIGTERM: %v", err)
	}
	warned := false
	for _, line := range strings.Split(all, "\n") {
		var l struct{ Level, Msg, Dir string }
		if json.Unmarshal([]byte(line), &l) == nil && l.Level == "WARN" && strings.HasPrefix(l.Msg, "nothing to serve") && l.Dir == empty {
			warned = true
		}
	}
	if !warned {
		t.Errorf("serve does not warn that %s holds nothing to serve:\n%s", empty, all)
	}

	var stderr strings.Builder
	mcpCmd := exec.Command(binary(t), "mcp", "--snapshots", empty)
	mcpCmd.Stdin, mcpCmd.Stderr = strings.NewReader(""), &stderr
	if err := mcpCmd.Run(); err != nil {
		t.Errorf("mcp at the end of its input: %v\n%s", err, &stderr)
	}
	if s := stderr.String(); !strings.Contains(s, "level=WARN") || !strings.Contains(s, "nothing to serve") || !strings.Contains(s, "dir="+empty) {
		t.Errorf("mcp does not warn that %s holds nothing to serve:\n%s", empty, s)
	}
}

// binaryVersion is what `greentokens version` prints after "greentokens ".
func binaryVersion(t *testing.T) string {
	t.Helper()
	out, err := exec.Command(binary(t), "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	v, ok := strings.CutPrefix(strings.TrimSuffix(string(out), "\n"), "greentokens ")
	if !ok || v == "" {
		t.Fatalf("greentokens version prints %q", out)
	}
	return v
}

// startServe starts cmd, a greentokens serve with --log-format json, waits
// for its "serving" log line and returns the address it gives; logs waits
// for the end of the process's stderr and returns all of it: call it before
// cmd.Wait, which closes the pipe, losing the lines not read yet. The
// process is killed when the test ends.
func startServe(tb testing.TB, cmd *exec.Cmd) (addr string, logs func() string) {
	tb.Helper()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cmd.Process.Kill() })
	addrc := make(chan string, 1)
	all := make(chan string, 1)
	go func() {
		var b strings.Builder
		lines := bufio.NewScanner(stderr)
		for lines.Scan() {
			b.WriteString(lines.Text() + "\n")
			var l struct{ Msg, Addr string }
			if json.Unmarshal(lines.Bytes(), &l) == nil && l.Msg == "serving" {
				addrc <- l.Addr
			}
		}
		close(addrc)
		all <- b.String()
	}()
	select {
	case addr = <-addrc:
	case <-time.After(time.Minute): // a guard against a hang, not a measure of speed
		tb.Fatal("serve does not log \"serving\"")
	}
	if addr == "" {
		tb.Fatalf("no \"serving\" log line:\n%s", <-all)
	}
	return addr, func() string { return <-all }
}

func TestServeUsage(t *testing.T) {
	for _, args := range [][]string{
		{"serve"},
		{"serve", "--snapshots", "x", "extra"},
		{"serve", "--snapshots", "x", "--rescan", "-1s"},
		{"mcp"},
		{"mcp", "--snapshots", "x", "extra"},
	} {
		if code, _, stderr := runCLI(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d: %s", args, code, exitUsage, stderr)
		}
	}
	// A path that is not a folder of dated snapshots is a usage mistake,
	// caught before anything listens.
	snap, _ := builtSnapshots(t)
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--snapshots", filepath.Join(t.TempDir(), "none"), "--addr", "127.0.0.1:0"}, "none: no such folder"},
		{[]string{"mcp", "--snapshots", filepath.Join(t.TempDir(), "none")}, "none: no such folder"},
		{[]string{"serve", "--snapshots", file, "--addr", "127.0.0.1:0"}, "is not a folder"},
		{[]string{"mcp", "--snapshots", snap}, "is one snapshot; --snapshots wants the folder holding the dated snapshots (" + filepath.Dir(snap) + ")"},
		{[]string{"serve", "--addr", "127.0.0.1:0", "--snapshots", snap}, "is one snapshot"},
		{[]string{"serve", "--addr", "127.0.0.1:0", "--snapshots", filepath.Dir(snap), "--allow-origin", "https://"}, "--allow-origin \"https://\" is neither a host name nor an origin"},
	} {
		code, stdout, stderr := runCLI(t, tc.args...)
		if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, "greentokens: ") || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, want %d; stderr does not say %q: %s", tc.args, code, exitUsage, tc.want, stderr)
		}
	}
}
